//! `cargo xtask datagen`: chapter 19's training data, from cb2026's games against itself and,
//! with `--match-games-until`, from the games the book's matches stored.
//!
//! Texel's tuning method needs positions labelled with the result of the game they came from.
//! We make them ourselves, reproducibly:
//!
//! 1. **Games.** cb2026 plays itself through the arena at a fixed node count per move (so a game
//!    is the same on every machine), game `i` starting from a book position chosen by the seed
//!    and `i`, plus a few random legal plies, so that no two games share an opening. Each
//!    finished game is appended to a file as one line, so a run that is stopped resumes where it
//!    was: the games already there are not played again.
//! 2. **Match games** (optional). The arena stores every match's games as PGN beside its record
//!    (`snapshots/games/`); with `--match-games-until DATE` those played up to that date are
//!    labelled too ([`arena::stored_games`]): deeper games, against stronger and weaker opponents.
//! 3. **Labels.** Every position of every game is replayed; it is kept when it is *quiet*: the
//!    side to move is not in check and the quiescence search returns the static evaluation, so
//!    no capture is about to change the material and the result can be blamed on the
//!    evaluation's terms (Zurichess's "quiet-labeled" set was built the same way). Each kept
//!    position is written as `FEN;result`, the result from White's side (1, 0.5 or 0).
//! 4. **Held out.** Every tenth game goes to the held-out set, never to training: positions of
//!    one game are alike, and a held-out set made of other games' positions says whether the
//!    tuned weights learnt chess or learnt these games. At most `--held-out-max` of them are
//!    kept, evenly spaced, in `data/tuning/held-out.txt` (committed).
//! 5. **A teacher** (optional, milestone M10). With `--teacher-depth D` every training position
//!    is also searched by Debian's Stockfish to depth `D`, and its label becomes a blend: the
//!    teacher's expected score (from the win, draw and loss chances Stockfish reports with
//!    `UCI_ShowWDL`) for `--teacher-share` of it, the game's result for the rest. The held-out
//!    positions keep the bare results: they measure how well weights predict real games, whatever
//!    they were trained on.

use crate::matches::build_cb2026_for_a_match;
use crate::tools::debian_engine;
use arena::adjudication::Adjudication;
use arena::game::{GameSettings, Player, play_game};
use arena::openings::{Opening, SplitMix64, choose};
use arena::spec::{EngineSpec, TimeControl};
use arena::stored_games;
use arena::uci::UciEngine;
use cb2026::position::Position;
use cb2026::search::Searcher;
use cb2026::switches::Switches;
use cb2026::tune::expected_score;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[derive(Args, Debug)]
pub struct DatagenArgs {
    /// How many games to play (a resumed run plays only the missing ones).
    #[arg(long, default_value_t = 16_000)]
    games: usize,
    /// Nodes per move (`go nodes N`).
    #[arg(long, default_value_t = 5_000)]
    nodes: u64,
    /// The seed that chooses each game's opening and random plies.
    #[arg(long, default_value_t = 2026)]
    seed: u64,
    /// Random legal plies played after the book position.
    #[arg(long, default_value_t = 2)]
    random_plies: usize,
    /// Games played at once (one pair of engine processes each).
    #[arg(short = 'j', long, default_value_t = 2)]
    jobs: usize,
    /// Where the games and the training positions go.
    #[arg(long, default_value = "target/datagen")]
    out: PathBuf,
    /// Every N-th game is held out.
    #[arg(long, default_value_t = 10)]
    held_out_every: usize,
    /// At most this many held-out positions are written.
    #[arg(long, default_value_t = 50_000)]
    held_out_max: usize,
    /// Where the held-out positions go.
    #[arg(long, default_value = "data/tuning/held-out.txt")]
    held_out: PathBuf,
    /// Only label the games already played.
    #[arg(long)]
    label_only: bool,
    /// Also label the games the arena stored for the book's matches (`snapshots/games/*.pgn`)
    /// played on or before this date (`YYYY.MM.DD`).
    #[arg(long)]
    match_games_until: Option<String>,
    /// Label the training positions with Stockfish's verdict at this depth too (M10).
    #[arg(long)]
    teacher_depth: Option<u32>,
    /// With a teacher: its share of each training label, the game's result having the rest.
    #[arg(long, default_value_t = 0.5)]
    teacher_share: f64,
}

/// The stored match games are numbered from here, after any self-play game.
const FIRST_MATCH_GAME: usize = 1_000_000;

/// One played game, as stored: its number, White's points, the start and the moves.
#[derive(Debug, Clone)]
struct StoredGame {
    index: usize,
    white_points: f64,
    fen: String,
    moves: Vec<String>,
}

impl StoredGame {
    fn line(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}",
            self.index,
            self.white_points,
            self.fen,
            self.moves.join(" ")
        )
    }

    fn parse(line: &str) -> Option<StoredGame> {
        let mut fields = line.split('\t');
        let index = fields.next()?.parse().ok()?;
        let white_points = fields.next()?.parse().ok()?;
        let fen = fields.next()?.to_string();
        let moves = fields
            .next()?
            .split_whitespace()
            .map(String::from)
            .collect();
        Some(StoredGame {
            index,
            white_points,
            fen,
            moves,
        })
    }
}

pub fn run(args: DatagenArgs, root: &Path) -> Result<(), String> {
    let out = root.join(&args.out);
    std::fs::create_dir_all(&out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let games_path = out.join(format!(
        "games-seed{}-nodes{}-random{}.txt",
        args.seed, args.nodes, args.random_plies
    ));
    if !args.label_only {
        play_games(&args, root, &games_path)?;
    }
    label(&args, root, &out, &games_path)
}

/// The games already in the file, by number (a torn last line from a killed run is dropped).
fn read_games(path: &Path) -> BTreeMap<usize, StoredGame> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter_map(StoredGame::parse)
        .map(|game| (game.index, game))
        .collect()
}

fn play_games(args: &DatagenArgs, root: &Path, games_path: &Path) -> Result<(), String> {
    let done = read_games(games_path);
    // Rewrite the file with the complete lines only, so appending starts on a fresh line.
    let kept: String = done.values().map(|g| g.line() + "\n").collect();
    std::fs::write(games_path, kept)
        .map_err(|e| format!("cannot write {}: {e}", games_path.display()))?;
    let missing: Vec<usize> = (0..args.games).filter(|i| !done.contains_key(i)).collect();
    println!(
        "datagen: {} games at nodes={}, seed {}, {} random plies; {} already in {}",
        args.games,
        args.nodes,
        args.seed,
        args.random_plies,
        done.len().min(args.games),
        games_path.display()
    );
    if missing.is_empty() {
        return Ok(());
    }
    let cmd = root
        .join(build_cb2026_for_a_match(root)?)
        .display()
        .to_string();
    let book_path = root.join("data/openings/8moves_v3.epd");
    let book_lines = std::fs::read_to_string(&book_path)
        .map_err(|e| format!("cannot read {}: {e}", book_path.display()))?
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .count();
    let book = choose(&book_path, book_lines, args.seed)?;
    let settings = GameSettings {
        time_control: TimeControl::Nodes(args.nodes),
        time_margin: Duration::from_millis(500),
        move_timeout: Duration::from_secs(30),
        adjudication: Adjudication::FISHTEST,
    };
    let interrupt = Arc::new(AtomicBool::new(false));
    {
        let interrupt = Arc::clone(&interrupt);
        let _ = ctrlc::set_handler(move || interrupt.store(true, Ordering::Relaxed));
    }
    let bar = ProgressBar::new(missing.len() as u64).with_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {per_sec}, eta {eta} {msg}")
            .expect("a valid template"),
    );
    let file = Mutex::new(
        OpenOptions::new()
            .append(true)
            .open(games_path)
            .map_err(|e| format!("cannot open {}: {e}", games_path.display()))?,
    );
    let next = AtomicUsize::new(0);
    let errors = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..args.jobs.max(1) {
            scope.spawn(|| {
                // The hand-set weights play, whatever `tuned` ships as: the data the tuner learns
                // from must not change with what it taught.
                let spec = |name: &str| {
                    EngineSpec::new(name, &cmd)
                        .shown_as("cb2026")
                        .option("tuned", false)
                };
                let mut white = Player::new(spec("cb2026-a"));
                let mut black = Player::new(spec("cb2026-b"));
                loop {
                    let slot = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&index) = missing.get(slot) else {
                        break;
                    };
                    let opening = opening_of(index, args, &book);
                    let Some(game) =
                        play_game([&mut white, &mut black], &opening, &settings, &interrupt)
                    else {
                        break; // interrupted
                    };
                    if let Some((color, fault)) = game.termination.fault() {
                        errors
                            .lock()
                            .expect("no panic holds it")
                            .push(format!("game {index}: {color:?} {fault:?}"));
                        continue;
                    }
                    let stored = StoredGame {
                        index,
                        white_points: game.result.points_for(cozy_chess::Color::White),
                        fen: opening.fen.clone(),
                        moves: game.moves.iter().map(|m| m.uci.clone()).collect(),
                    };
                    let mut file = file.lock().expect("no panic holds it");
                    if let Err(e) = writeln!(file, "{}", stored.line()) {
                        errors
                            .lock()
                            .expect("no panic holds it")
                            .push(format!("cannot write: {e}"));
                        break;
                    }
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish();
    let errors = errors.into_inner().expect("no panic holds it");
    for error in &errors {
        eprintln!("datagen: {error}");
    }
    if interrupt.load(Ordering::Relaxed) {
        return Err("interrupted: run the same command again to resume".into());
    }
    if errors.iter().any(|e| e.starts_with("cannot")) {
        return Err("the games file could not be written".into());
    }
    Ok(())
}

/// Game `index`'s start: a book position chosen by the seed and `index`, then random legal
/// plies (drawn again if they end the game).
fn opening_of(index: usize, args: &DatagenArgs, book: &[Opening]) -> Opening {
    let mut rng = SplitMix64::new(args.seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    loop {
        let from = &book[rng.below(book.len())];
        let mut board = from.board();
        for _ in 0..args.random_plies {
            let mut moves = Vec::new();
            board.generate_moves(|set| {
                moves.extend(set);
                false
            });
            if moves.is_empty() {
                break;
            }
            board.play(moves[rng.below(moves.len())]);
        }
        if board.status() == cozy_chess::GameStatus::Ongoing {
            return Opening {
                fen: format!("{board}"),
                line: from.line,
            };
        }
    }
}

/// One labelled position.
struct Labelled {
    fen: String,
    white_points: f64,
    /// The teacher's score for White, in centipawns, if a teacher judged the position.
    teacher_cp: Option<f64>,
}

/// A game's number and its labelled positions.
type GamePositions = (usize, Vec<Labelled>);

/// The default engine with the hand-set weights: the one that plays the games and judges which
/// positions are quiet, so that shipping the tuned weights (chapter 19's, then M10's, then
/// M14's, M15's and M20's) does not change the data. (Changes to the search can, through what
/// quiescence finds quiet: M20's page gives the same command's counts for M14 and for M20.)
fn hand_set_engine() -> Switches {
    Switches {
        tuned: false,
        teacher: false,
        kingsafety: false,
        eval3: false,
        eval4: false,
        complexity: false,
        ..Switches::default()
    }
}

/// The quiet positions of `game`, labelled with its result.
fn quiet_positions(game: &StoredGame, searcher: &mut Searcher) -> Result<Vec<Labelled>, String> {
    let mut pos = Position::from_fen(&game.fen)
        .map_err(|e| format!("game {}: bad start {}: {e}", game.index, game.fen))?;
    searcher.clear();
    let mut kept = Vec::new();
    for text in &game.moves {
        if !pos.in_check() {
            let (static_eval, quiescence) = searcher.static_and_quiescence(&pos);
            if static_eval == quiescence && static_eval.abs() < 3_000 {
                kept.push(Labelled {
                    fen: pos.to_fen(),
                    white_points: game.white_points,
                    teacher_cp: None,
                });
            }
        }
        let m = pos
            .parse_uci_move(text)
            .map_err(|e| format!("game {}: move {text}: {e}", game.index))?;
        pos.make_move(m);
    }
    Ok(kept)
}

fn label(args: &DatagenArgs, root: &Path, out: &Path, games_path: &Path) -> Result<(), String> {
    let mut games: Vec<StoredGame> = read_games(games_path)
        .into_values()
        .filter(|g| g.index < args.games)
        .collect();
    if let Some(until) = &args.match_games_until {
        games.extend(match_games(root, until)?);
    }
    let teacher_binary = match args.teacher_depth {
        Some(_) => Some(debian_engine(STOCKFISH, "stockfish")?),
        None => None,
    };
    println!("labelling the quiet positions of {} games", games.len());
    let bar = ProgressBar::new(games.len() as u64).with_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, eta {eta}")
            .expect("a valid template"),
    );
    let teacher_name = Mutex::new(None);
    // Two halves labelled at once, joined in game order: the output does not depend on timing.
    let halves: Vec<Result<Vec<GamePositions>, String>> = std::thread::scope(|scope| {
        let workers: Vec<_> = games
            .chunks(games.len().div_ceil(args.jobs.max(1)).max(1))
            .map(|chunk| {
                let (bar, teacher_binary, teacher_name) = (&bar, &teacher_binary, &teacher_name);
                scope.spawn(move || {
                    let mut searcher = Searcher::new(16);
                    searcher.set_switches(hand_set_engine());
                    let mut teacher = match (args.teacher_depth, teacher_binary) {
                        (Some(depth), Some(binary)) => {
                            let teacher = Teacher::start(binary, depth)?;
                            *teacher_name.lock().expect("no panic holds it") = Some(teacher.name());
                            Some(teacher)
                        }
                        _ => None,
                    };
                    chunk
                        .iter()
                        .map(|game| {
                            bar.inc(1);
                            let mut positions = quiet_positions(game, &mut searcher)?;
                            let trained_on = game.index % args.held_out_every != 0;
                            if let (Some(teacher), true) = (teacher.as_mut(), trained_on) {
                                teacher.judge(&mut positions)?;
                            }
                            Ok((game.index, positions))
                        })
                        .collect()
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a labeller does not panic"))
            .collect()
    });
    bar.finish();
    let games: Vec<GamePositions> = halves
        .into_iter()
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .flatten()
        .collect();
    let judged: Vec<(f64, f64)> = games
        .iter()
        .flat_map(|(_, positions)| positions)
        .filter_map(|p| Some((p.teacher_cp?, p.white_points)))
        .collect();
    let teacher_k = (!judged.is_empty()).then(|| calibrate(&judged));
    // ANCHOR: blend
    // A judged position's label blends the teacher's expected score and the result; the others
    // keep the bare result (1, 0.5 or 0).
    let label = |p: &Labelled| match (p.teacher_cp, teacher_k) {
        (Some(cp), Some(k)) => {
            let share = args.teacher_share;
            let blend = share * expected_score(cp, k) + (1.0 - share) * p.white_points;
            format!("{blend:.4}")
        }
        _ => p.white_points.to_string(),
    };
    // ANCHOR_END: blend
    let mut train = String::new();
    let mut held_out = Vec::new();
    let (mut train_count, mut held_games) = (0, 0);
    for (index, positions) in games {
        let lines = positions
            .iter()
            .map(|p| format!("{};{}\n", p.fen, label(p)));
        if index % args.held_out_every == 0 {
            held_games += 1;
            held_out.extend(lines);
        } else {
            train_count += positions.len();
            train.extend(lines);
        }
    }
    let train_path = out.join("train.txt");
    std::fs::write(&train_path, &train)
        .map_err(|e| format!("cannot write {}: {e}", train_path.display()))?;
    // The command that makes these positions, for the tuned weights' header.
    let mut command = format!(
        "cargo xtask datagen --games {} --nodes {} --seed {} --random-plies {}",
        args.games, args.nodes, args.seed, args.random_plies
    );
    if let Some(until) = &args.match_games_until {
        command += &format!(" --match-games-until {until}");
    }
    if let Some(depth) = args.teacher_depth {
        command += &format!(
            " --teacher-depth {depth} --teacher-share {} (teacher: {}, K {})",
            args.teacher_share,
            teacher_name
                .into_inner()
                .expect("no panic holds it")
                .unwrap_or_else(|| "unknown".into()),
            teacher_k.unwrap_or(0.0)
        );
    }
    let command_path = out.join("train.command");
    std::fs::write(&command_path, command + "\n")
        .map_err(|e| format!("cannot write {}: {e}", command_path.display()))?;
    let held_out = evenly_spaced(held_out, args.held_out_max);
    let held_path = root.join(&args.held_out);
    if let Some(dir) = held_path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    std::fs::write(&held_path, held_out.concat())
        .map_err(|e| format!("cannot write {}: {e}", held_path.display()))?;
    println!(
        "{} training positions in {} (fnv64 {:016x}); {} held-out positions from {} games in {}",
        train_count,
        train_path.display(),
        fnv64(train.as_bytes()),
        held_out.len(),
        held_games,
        held_path.display()
    );
    Ok(())
}

/// Debian's Stockfish, the teacher of M10.
const STOCKFISH: &str = "/usr/games/stockfish";

/// A Stockfish process that judges positions: one per labelling thread, one thread of its own,
/// a 16 MB table emptied before every game, so that a position's verdict depends only on its
/// game and not on how the games were shared between threads.
struct Teacher {
    engine: UciEngine,
    depth: u32,
}

impl Teacher {
    fn start(binary: &Path, depth: u32) -> Result<Teacher, String> {
        let spec = EngineSpec::new("stockfish", binary.display().to_string());
        let mut engine = UciEngine::start(&spec).map_err(|e| format!("teacher: {e}"))?;
        let options = [("Threads", "1"), ("Hash", "16")];
        let options: Vec<(String, String)> = options
            .iter()
            .map(|(name, value)| (name.to_string(), value.to_string()))
            .collect();
        engine
            .configure(&options)
            .map_err(|e| format!("teacher: {e}"))?;
        Ok(Teacher { engine, depth })
    }

    /// The name the engine gave (`id name`), for the data's command line.
    fn name(&self) -> String {
        self.engine
            .id_name
            .clone()
            .unwrap_or_else(|| "stockfish".into())
    }

    /// Writes the teacher's score into each position, searched in the game's order from a
    /// table emptied at the game's start.
    fn judge(&mut self, positions: &mut [Labelled]) -> Result<(), String> {
        self.engine
            .send("ucinewgame")
            .map_err(|e| format!("teacher: {e}"))?;
        self.engine
            .sync(None)
            .map_err(|e| format!("teacher: {e}"))?;
        for position in positions {
            position.teacher_cp = Some(self.white_score(&position.fen)?);
        }
        Ok(())
    }

    // ANCHOR: teacher_score
    /// The teacher's score for White in `fen`, in centipawns, from the last report of a search
    /// to its depth; a mate counts as [`MATE_CP`].
    fn white_score(&mut self, fen: &str) -> Result<f64, String> {
        let error = |e: arena::uci::EngineError| format!("teacher on {fen}: {e}");
        self.engine
            .send(&format!("position fen {fen}"))
            .map_err(error)?;
        let lines = self
            .engine
            .command_until(
                &format!("go depth {}", self.depth),
                "bestmove",
                Duration::from_secs(60),
            )
            .map_err(error)?;
        let mover = lines
            .iter()
            .rev()
            .find_map(|line| score_cp(line))
            .ok_or_else(|| format!("teacher on {fen}: no score reported"))?;
        let white_to_move = fen.split_whitespace().nth(1) == Some("w");
        Ok(if white_to_move { mover } else { -mover })
    }
    // ANCHOR_END: teacher_score
}

/// What a mate is worth on the teacher's scale: beyond any score a position is won by.
const MATE_CP: f64 = 3_000.0;

/// The side to move's score of an `info` line (`score cp N` or `score mate N`), if it has one,
/// capped at [`MATE_CP`].
fn score_cp(line: &str) -> Option<f64> {
    let mut words = line
        .split_whitespace()
        .skip_while(|w| *w != "score")
        .skip(1);
    let kind = words.next()?;
    let value: f64 = words.next()?.parse().ok()?;
    match kind {
        "cp" => Some(value.clamp(-MATE_CP, MATE_CP)),
        "mate" => Some(if value > 0.0 { MATE_CP } else { -MATE_CP }),
        _ => None,
    }
}

// ANCHOR: calibrate
/// The teacher's scale put on the games' (M10): the `K` for which the logistic curve of the
/// teacher's scores predicts the games' results best (the least squared error, by a
/// golden-section search, as chapter 19 fits the engine's own `K`).
fn calibrate(pairs: &[(f64, f64)]) -> f64 {
    let error = |k: f64| -> f64 {
        pairs
            .iter()
            .map(|&(cp, result)| (result - expected_score(cp, k)).powi(2))
            .sum()
    };
    let golden = (5f64.sqrt() - 1.0) / 2.0;
    let (mut low, mut high) = (0.01f64, 4.0f64);
    while high - low > 1e-6 {
        let a = high - golden * (high - low);
        let b = low + golden * (high - low);
        if error(a) < error(b) {
            high = b;
        } else {
            low = a;
        }
    }
    ((low + high) / 2.0 * 1e6).round() / 1e6
}
// ANCHOR_END: calibrate

/// The arena's stored match games up to `until`, numbered from [`FIRST_MATCH_GAME`], their SAN
/// read into the UCI moves the self-play games are stored with.
fn match_games(root: &Path, until: &str) -> Result<Vec<StoredGame>, String> {
    let stored = stored_games::stored_games(&root.join("snapshots/games"), until)?;
    println!("{} stored match games up to {until}", stored.len());
    stored
        .into_iter()
        .enumerate()
        .map(|(k, game)| {
            let index = FIRST_MATCH_GAME + k;
            let mut pos = Position::from_fen(&game.fen)
                .map_err(|e| format!("match game {k}: bad start {}: {e}", game.fen))?;
            let mut moves = Vec::with_capacity(game.san.len());
            for san in &game.san {
                let m =
                    cb2026::san::to_move(&pos, san).map_err(|e| format!("match game {k}: {e}"))?;
                moves.push(m.to_string());
                pos.make_move(m);
            }
            Ok(StoredGame {
                index,
                white_points: game.white_points,
                fen: game.fen,
                moves,
            })
        })
        .collect()
}

/// At most `max` of `items`, evenly spaced, in their order.
fn evenly_spaced<T>(items: Vec<T>, max: usize) -> Vec<T> {
    let n = items.len();
    if n <= max {
        return items;
    }
    items
        .into_iter()
        .enumerate()
        .filter(|(i, _)| (i * max) / n != ((i + 1) * max) / n)
        .map(|(_, item)| item)
        .collect()
}

/// FNV-1a, 64 bits: a fingerprint of the training data for the weights file's header.
pub fn fnv64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evenly_spaced_keeps_the_count_asked_for_in_order() {
        let kept = evenly_spaced((0..10).collect(), 4);
        assert_eq!(kept.len(), 4);
        assert!(kept.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(evenly_spaced(vec![1, 2], 4), vec![1, 2]);
    }

    #[test]
    fn a_stored_game_reads_back_as_written() {
        let game = StoredGame {
            index: 7,
            white_points: 0.5,
            fen: "8/8/8/8/8/8/8/K6k w - - 0 1".into(),
            moves: vec!["a1a2".into(), "h1h2".into()],
        };
        let back = StoredGame::parse(&game.line()).expect("parses");
        assert_eq!(back.line(), game.line());
        assert!(StoredGame::parse("7\t0.5\tfen-without-moves-field").is_none());
    }

    #[test]
    fn the_teachers_score_is_read_from_its_info_line() {
        let line = "info depth 8 seldepth 10 multipv 1 score cp -59 nodes 1000 pv a7a6";
        assert_eq!(score_cp(line), Some(-59.0));
        assert_eq!(
            score_cp("info depth 9 score mate -3 nodes 10"),
            Some(-MATE_CP)
        );
        assert_eq!(
            score_cp("info depth 9 score cp 98765 nodes 10"),
            Some(MATE_CP)
        );
        assert_eq!(score_cp("info string score"), None);
    }

    #[test]
    fn calibration_finds_the_scale_the_results_were_drawn_with() {
        // Results that are exactly the curve's prediction at K = 0.8: the fit must find it.
        let pairs: Vec<(f64, f64)> = (-20..=20)
            .map(|i| {
                let cp = f64::from(i) * 50.0;
                (cp, expected_score(cp, 0.8))
            })
            .collect();
        assert!((calibrate(&pairs) - 0.8).abs() < 1e-3);
    }
}
