//! `cargo xtask suite wac|bk|FILE [--movetime MS] [--store]`: a test suite of positions with a
//! known best move, each searched by the release engine for a fixed time.
//!
//! Win at Chess (Fred Reinfeld's 300 positions, `data/suites/wac.epd`) and the Bratko-Kopec test
//! (24 positions, `data/suites/bratko-kopec.epd`) are EPD files: a FEN without its clocks, then
//! operations such as `bm Qg6;` (the best move, one or more, in SAN) and `am ...` (a move to
//! avoid) and `id "WAC.001";`. A position is solved when the engine's move is one of the `bm`
//! moves and none of the `am` ones. SAN is turned into a move by matching it against the
//! engine's own legal moves, so the suite needs no chess library beyond the engine.
//!
//! The engine runs as a GUI would run it, over UCI (`ucinewgame`, `position fen`, `go movetime
//! N`), so the whole path of a timed search is exercised. A search that stops on the clock does
//! not stop at the same node twice: the count of solved positions varies a little from run to
//! run and with the machine's load. `--store` keeps it as a stored measurement
//! (`snapshots/measured/suite-<name>-<N>ms.yaml`, keys `suite.<name>.movetime<N>.solved` and
//! `.positions`), never as a snapshot.

use cb2026::moves::{Move, MoveKind};
use cb2026::position::{PieceKind, Position};
use cb2026::square::Square;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// The command line of `cargo xtask suite`.
#[derive(clap::Args, Debug)]
pub struct SuiteArgs {
    /// `wac` (data/suites/wac.epd), `bk` (data/suites/bratko-kopec.epd) or an EPD file.
    suite: String,
    /// The time for each position, in milliseconds (`go movetime N`).
    #[arg(long, default_value_t = 200)]
    movetime: u64,
    /// The engine's table size in MB.
    #[arg(long, default_value_t = 16)]
    hash: u32,
    /// Store the result in snapshots/measured/suite-<name>-<N>ms.yaml.
    #[arg(long)]
    store: bool,
}

/// One position of a suite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdEntry {
    /// `id`, or the line number when there is none.
    pub id: String,
    /// The full FEN (the EPD's four fields and `0 1`).
    pub fen: String,
    /// The `bm` moves as written.
    pub best: Vec<String>,
    /// The `am` moves as written.
    pub avoid: Vec<String>,
}

/// Reads an EPD suite. A line without `bm` or `am` is an error: it could never be solved.
pub fn parse_epd(text: &str) -> Result<Vec<EpdEntry>, String> {
    let mut entries = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.splitn(5, ' ').collect();
        let [board, side, castling, ep, operations] = fields[..] else {
            return Err(format!("line {}: fewer than four FEN fields", i + 1));
        };
        let mut entry = EpdEntry {
            id: format!("line {}", i + 1),
            fen: format!("{board} {side} {castling} {ep} 0 1"),
            best: Vec::new(),
            avoid: Vec::new(),
        };
        for operation in operations
            .split(';')
            .map(str::trim)
            .filter(|o| !o.is_empty())
        {
            let (opcode, operands) = operation.split_once(' ').unwrap_or((operation, ""));
            let words = operands.split_whitespace().map(str::to_string);
            match opcode {
                "bm" => entry.best.extend(words),
                "am" => entry.avoid.extend(words),
                "id" => entry.id = operands.trim().trim_matches('"').to_string(),
                _ => {}
            }
        }
        if entry.best.is_empty() && entry.avoid.is_empty() {
            return Err(format!("line {}: no bm or am", i + 1));
        }
        entries.push(entry);
    }
    Ok(entries)
}

// The SAN reader: the few rules of standard algebraic notation (FIDE Laws, appendix C), read
// against the legal moves rather than parsed into a move on its own.

/// The legal move that `san` names in `position`: `Nf3`, `exd5`, `Rfe1`, `e8=Q`, `O-O`, with
/// or without `+`, `#`, `!`, `?`. Exactly one legal move must match.
pub fn san_to_move(position: &Position, san: &str) -> Result<Move, String> {
    let text = san.trim_end_matches(['+', '#', '!', '?']);
    let legal = position.legal_moves();
    let matches: Vec<Move> = match text {
        "O-O" | "0-0" => legal
            .iter()
            .copied()
            .filter(|m| m.kind() == MoveKind::KingCastle)
            .collect(),
        "O-O-O" | "0-0-0" => legal
            .iter()
            .copied()
            .filter(|m| m.kind() == MoveKind::QueenCastle)
            .collect(),
        _ => {
            let pattern = SanPattern::parse(text).ok_or_else(|| format!("'{san}' is not SAN"))?;
            legal
                .iter()
                .copied()
                .filter(|&m| pattern.matches(position, m))
                .collect()
        }
    };
    match matches[..] {
        [m] => Ok(m),
        [] => Err(format!("'{san}' is no legal move in {}", position.to_fen())),
        _ => Err(format!("'{san}' is ambiguous in {}", position.to_fen())),
    }
}

/// What a SAN move (other than castling) says about the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct SanPattern {
    piece: PieceKind,
    to: Square,
    from_file: Option<u8>,
    from_rank: Option<u8>,
    /// The UCI promotion letter (`q`), if any.
    promotion: Option<char>,
}

impl SanPattern {
    fn parse(text: &str) -> Option<SanPattern> {
        let (body, promotion) = match text.split_once('=') {
            Some((body, piece)) => (body, Some(piece)),
            None => match text.char_indices().last() {
                Some((i, c)) if "QRBN".contains(c) && i > 0 => (&text[..i], Some(&text[i..])),
                _ => (text, None),
            },
        };
        let promotion = match promotion {
            Some(piece) => Some(
                piece
                    .to_ascii_lowercase()
                    .chars()
                    .next()
                    .filter(|c| "qrbn".contains(*c))?,
            ),
            None => None,
        };
        let (piece, rest) = match body.chars().next()? {
            'K' => (PieceKind::King, &body[1..]),
            'Q' => (PieceKind::Queen, &body[1..]),
            'R' => (PieceKind::Rook, &body[1..]),
            'B' => (PieceKind::Bishop, &body[1..]),
            'N' => (PieceKind::Knight, &body[1..]),
            _ => (PieceKind::Pawn, body),
        };
        let rest = rest.replace(['x', ':', '-'], "");
        if rest.len() < 2 || !rest.is_ascii() {
            return None;
        }
        let (hints, to) = rest.split_at(rest.len() - 2);
        let to = Square::parse(to)?;
        let mut pattern = SanPattern {
            piece,
            to,
            from_file: None,
            from_rank: None,
            promotion,
        };
        for c in hints.chars() {
            match c {
                'a'..='h' => pattern.from_file = Some(c as u8 - b'a'),
                '1'..='8' => pattern.from_rank = Some(c as u8 - b'1'),
                _ => return None,
            }
        }
        Some(pattern)
    }

    fn matches(&self, position: &Position, m: Move) -> bool {
        let uci = m.to_string();
        position.piece_moved(m).kind == self.piece
            && m.to() == self.to
            && !matches!(m.kind(), MoveKind::KingCastle | MoveKind::QueenCastle)
            && self.from_file.is_none_or(|f| m.from().file() == f)
            && self.from_rank.is_none_or(|r| m.from().rank() == r)
            && uci[4..].chars().next() == self.promotion
    }
}

/// What the engine played in one position.
#[derive(Clone, Debug)]
struct Attempt {
    entry: EpdEntry,
    played: String,
    solved: bool,
    /// The last `info` line's depth and score (`d12 cp 35`).
    search: String,
}

/// `cargo xtask suite`.
pub fn run(args: SuiteArgs, root: &Path) -> Result<(), String> {
    let (name, file) = suite_file(&args.suite, root);
    let text = std::fs::read_to_string(&file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let entries = parse_epd(&text).map_err(|e| format!("{}: {e}", file.display()))?;
    let engine_path = crate::tools::build_cb2026(root)?;
    let mut engine = Engine::start(&engine_path)?;
    engine.handshake(args.hash)?;
    println!(
        "{} positions of {}, go movetime {} ms each",
        entries.len(),
        file.display(),
        args.movetime
    );
    let started = Instant::now();
    let mut attempts = Vec::new();
    for entry in entries {
        let attempt = engine.attempt(entry, args.movetime)?;
        println!(
            "{:<10} {:<8} played {:<6} {:<14} bm {}{}",
            attempt.entry.id,
            if attempt.solved { "solved" } else { "FAILED" },
            attempt.played,
            attempt.search,
            attempt.entry.best.join(" "),
            if attempt.entry.avoid.is_empty() {
                String::new()
            } else {
                format!(" am {}", attempt.entry.avoid.join(" "))
            }
        );
        attempts.push(attempt);
    }
    engine.quit();
    let solved = attempts.iter().filter(|a| a.solved).count();
    println!("\nfailures:");
    for attempt in attempts.iter().filter(|a| !a.solved) {
        println!(
            "  {}: played {}, bm {} ({})",
            attempt.entry.id,
            attempt.played,
            attempt.entry.best.join(" "),
            attempt.entry.fen
        );
    }
    println!(
        "\n{name} at {} ms: solved {solved} of {} ({:.0} s)",
        args.movetime,
        attempts.len(),
        started.elapsed().as_secs_f64()
    );
    if args.store {
        store(root, &name, &args, solved, attempts.len())?;
    }
    Ok(())
}

/// The suite's short name and file: `wac`, `bk`, or a path (named by its stem).
fn suite_file(suite: &str, root: &Path) -> (String, PathBuf) {
    match suite {
        "wac" => ("wac".into(), root.join("data/suites/wac.epd")),
        "bk" => ("bk".into(), root.join("data/suites/bratko-kopec.epd")),
        path => {
            let path = PathBuf::from(path);
            let stem = path
                .file_stem()
                .map_or("suite".into(), |s| s.to_string_lossy().into_owned());
            (stem, path)
        }
    }
}

/// Writes the result as a stored measurement.
fn store(
    root: &Path,
    name: &str,
    args: &SuiteArgs,
    solved: usize,
    positions: usize,
) -> Result<(), String> {
    let key = format!("suite.{name}.movetime{}", args.movetime);
    let body = format!("{key}.solved: {solved}\n{key}.positions: {positions}\n");
    let text = crate_figures::measured_file(
        &format!(
            "cargo xtask suite {} --movetime {} --store",
            args.suite, args.movetime
        ),
        &format!(
            "target/release/cb2026 over UCI, Hash {} MB, go movetime {}",
            args.hash, args.movetime
        ),
        &crate_figures::machine(),
        &crate_figures::today(),
        &crate_figures::commit(root),
        &body,
    );
    let file = root.join(format!(
        "snapshots/measured/suite-{name}-{}ms.yaml",
        args.movetime
    ));
    std::fs::create_dir_all(root.join("snapshots/measured")).map_err(|e| e.to_string())?;
    std::fs::write(&file, text).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    println!("wrote {}", file.display());
    Ok(())
}

use xtask::figures as crate_figures;

/// The engine process, its output read on a thread so that a silent engine is noticed.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

/// How long past its movetime an engine may take to answer before the suite gives up.
const GRACE: Duration = Duration::from_secs(10);

impl Engine {
    fn start(path: &Path) -> Result<Engine, String> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", path.display()))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Engine {
            child,
            stdin,
            lines,
        })
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("the engine stopped reading: {e}"))
    }

    /// The lines up to the first that starts with `last` (included).
    fn read_until(&mut self, last: &str, patience: Duration) -> Result<Vec<String>, String> {
        let deadline = Instant::now() + patience;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .map_err(|_| format!("no '{last}' from the engine; it said {lines:?}"))?;
            if line.starts_with("info string error") {
                return Err(format!("the engine refused a command: {line}"));
            }
            let done = line.starts_with(last);
            lines.push(line);
            if done {
                return Ok(lines);
            }
        }
    }

    fn handshake(&mut self, hash: u32) -> Result<(), String> {
        self.send("uci")?;
        self.read_until("uciok", GRACE)?;
        self.send(&format!("setoption name Hash value {hash}"))?;
        self.send("isready")?;
        self.read_until("readyok", GRACE).map(drop)
    }

    /// Searches one position from an empty table and judges the move.
    fn attempt(&mut self, entry: EpdEntry, movetime: u64) -> Result<Attempt, String> {
        let position =
            Position::from_fen(&entry.fen).map_err(|e| format!("{}: bad FEN: {e}", entry.id))?;
        let to_uci = |moves: &[String]| -> Result<Vec<String>, String> {
            moves
                .iter()
                .map(|san| san_to_move(&position, san).map(|m| m.to_string()))
                .collect::<Result<_, _>>()
                .map_err(|e| format!("{}: {e}", entry.id))
        };
        let (best, avoid) = (to_uci(&entry.best)?, to_uci(&entry.avoid)?);
        self.send("ucinewgame")?;
        self.send(&format!("position fen {}", entry.fen))?;
        self.send("isready")?;
        self.read_until("readyok", GRACE)?;
        self.send(&format!("go movetime {movetime}"))?;
        let lines = self.read_until("bestmove", Duration::from_millis(movetime) + GRACE)?;
        let played = lines
            .last()
            .and_then(|l| l.split_whitespace().nth(1))
            .unwrap_or("0000")
            .to_string();
        let search = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth"))
            .map_or(String::new(), |l| {
                let words: Vec<&str> = l.split_whitespace().collect();
                let field = |name: &str, n: usize| {
                    words.iter().position(|w| *w == name).map(|i| {
                        words[i + 1..]
                            .iter()
                            .take(n)
                            .copied()
                            .collect::<Vec<_>>()
                            .join(" ")
                    })
                };
                format!(
                    "d{} {}",
                    field("depth", 1).unwrap_or_default(),
                    field("score", 2).unwrap_or_default()
                )
            });
        let solved = (best.is_empty() || best.contains(&played)) && !avoid.contains(&played);
        Ok(Attempt {
            entry,
            played,
            solved,
            search,
        })
    }

    fn quit(mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uci(fen: &str, san: &str) -> Result<String, String> {
        let position = Position::from_fen(fen).expect("a valid FEN");
        san_to_move(&position, san).map(|m| m.to_string())
    }

    #[test]
    fn san_reads_pieces_captures_checks_and_disambiguation() {
        let start = cb2026::position::STARTPOS_FEN;
        assert_eq!(uci(start, "Nf3").as_deref(), Ok("g1f3"));
        assert_eq!(uci(start, "e4").as_deref(), Ok("e2e4"));
        assert!(uci(start, "Nd4").is_err());
        assert!(uci(start, "e5").is_err());
        let wac1 = "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1";
        assert_eq!(uci(wac1, "Qg6").as_deref(), Ok("g3g6"));
        assert_eq!(uci(wac1, "Qg6!").as_deref(), Ok("g3g6"));
        // Two rooks reach e1 here: "Re1" is ambiguous, "Rfe1" and "Rae1" are not.
        let rooks = "4k3/8/8/8/8/8/8/R4RK1 w - - 0 1";
        assert!(uci(rooks, "Re1").unwrap_err().contains("ambiguous"));
        assert_eq!(uci(rooks, "Rfe1").as_deref(), Ok("f1e1"));
        assert_eq!(uci(rooks, "Rae1+").as_deref(), Ok("a1e1"));
    }

    #[test]
    fn san_reads_castling_and_promotions() {
        let castle = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1";
        assert_eq!(uci(castle, "O-O").as_deref(), Ok("e8g8"));
        assert_eq!(uci(castle, "O-O-O").as_deref(), Ok("e8c8"));
        let promote = "1n5k/P7/8/8/8/8/8/7K w - - 0 1";
        assert_eq!(uci(promote, "a8=Q").as_deref(), Ok("a7a8q"));
        assert_eq!(uci(promote, "axb8N+").as_deref(), Ok("a7b8n"));
        assert!(
            uci(promote, "a8").is_err(),
            "a promotion must say its piece"
        );
    }

    #[test]
    fn every_suite_move_names_exactly_one_legal_move() {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
        for (name, count) in [("wac", 300), ("bk", 24)] {
            let (_, file) = suite_file(name, &root);
            let entries =
                parse_epd(&std::fs::read_to_string(file).expect("the suite")).expect("valid EPD");
            assert_eq!(entries.len(), count);
            for entry in &entries {
                let position = Position::from_fen(&entry.fen).expect("a valid FEN");
                for san in entry.best.iter().chain(&entry.avoid) {
                    assert!(san_to_move(&position, san).is_ok(), "{}: {san}", entry.id);
                }
            }
        }
    }

    #[test]
    fn epd_operations_are_read() {
        let text = "4k3/8/8/8/8/8/8/R3K3 w Q - bm Ra8+ O-O-O; am Kd1; id \"T.1\";\n";
        let entries = parse_epd(text).expect("valid");
        assert_eq!(entries[0].id, "T.1");
        assert_eq!(entries[0].fen, "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
        assert_eq!(entries[0].best, vec!["Ra8+", "O-O-O"]);
        assert_eq!(entries[0].avoid, vec!["Kd1"]);
        assert!(parse_epd("4k3/8/8/8/8/8/8/R3K3 w Q - id \"x\";").is_err());
    }
}
