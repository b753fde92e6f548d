//! A tiny UCI engine for testing the arena without a real engine: it plays a random legal move,
//! chosen by a seed and the position (so a game is reproducible), and can misbehave on purpose.
//!
//! ```text
//! arena-test-engine [--seed N] [--score CP] [--illegal] [--crash-after N] [--hang] [--bench-nodes N] [bench]
//! ```
//!
//! - `--seed N`: the seed (also settable as the UCI option `Seed`);
//! - `--score CP`: report `score cp CP` with every move (default: the material balance, in
//!   centipawns, from the side to move);
//! - `--illegal`: answer the first `go` with an illegal move;
//! - `--crash-after N`: answer N `go` commands, then exit on the next one;
//! - `--hang`: never answer `go` (but still answer `isready` and `quit`);
//! - `bench`: print `N nodes 1000 nps` (N from `--bench-nodes`, default 4242) and exit.

use arena::openings::SplitMix64;
use arena::rules;
use cozy_chess::{Board, Color, Move, Piece};
use std::io::{BufRead, Write};

#[derive(Debug, Default)]
struct Settings {
    seed: u64,
    score: Option<i32>,
    illegal: bool,
    crash_after: Option<u64>,
    hang: bool,
    bench_nodes: u64,
    bench: bool,
}

fn parse_args() -> Result<Settings, String> {
    let mut settings = Settings {
        bench_nodes: 4242,
        ..Settings::default()
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut number = |name: &str| -> Result<i64, String> {
            args.next()
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| format!("{name} needs a number"))
        };
        match arg.as_str() {
            "--seed" => settings.seed = number("--seed")? as u64,
            "--score" => settings.score = Some(number("--score")? as i32),
            "--illegal" => settings.illegal = true,
            "--crash-after" => settings.crash_after = Some(number("--crash-after")? as u64),
            "--hang" => settings.hang = true,
            "--bench-nodes" => settings.bench_nodes = number("--bench-nodes")? as u64,
            "bench" => settings.bench = true,
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    Ok(settings)
}

fn main() {
    let settings = match parse_args() {
        Ok(settings) => settings,
        Err(message) => {
            eprintln!("arena-test-engine: {message}");
            std::process::exit(2);
        }
    };
    if settings.bench {
        println!("{} nodes 1000 nps", settings.bench_nodes);
        return;
    }
    uci_loop(settings);
}

fn uci_loop(mut settings: Settings) {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut board = Board::default();
    let mut answered = 0u64;
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let reply = match words.first().copied() {
            Some("uci") => "id name arena-test-engine\nid author cb2026\n\
                 option name Move Overhead type spin default 10 min 0 max 5000\n\
                 option name Seed type spin default 0 min 0 max 1000000000\n\
                 option name Hash type spin default 1 min 1 max 1024\nuciok"
                .to_string(),
            Some("isready") => "readyok".to_string(),
            Some("setoption") => {
                if let ["setoption", "name", "Seed", "value", value] = words.as_slice() {
                    settings.seed = value.parse().unwrap_or(settings.seed);
                }
                continue;
            }
            Some("position") => {
                board = parse_position(&words).unwrap_or_default();
                continue;
            }
            Some("go") => {
                if settings.hang {
                    continue;
                }
                if settings.crash_after.is_some_and(|n| answered >= n) {
                    std::process::exit(1);
                }
                answered += 1;
                answer(&board, &settings, answered)
            }
            Some("quit") => break,
            _ => continue,
        };
        if writeln!(out, "{reply}").and_then(|()| out.flush()).is_err() {
            break;
        }
    }
}

/// `position fen <6 fields> [moves ...]` or `position startpos [moves ...]`.
fn parse_position(words: &[&str]) -> Option<Board> {
    let moves_at = words
        .iter()
        .position(|w| *w == "moves")
        .unwrap_or(words.len());
    let mut board = match words.get(1) {
        Some(&"startpos") => Board::default(),
        Some(&"fen") => words[2..moves_at].join(" ").parse().ok()?,
        _ => return None,
    };
    for text in words.iter().skip(moves_at + 1) {
        let mv = rules::move_from_uci(&board, text)?;
        board.play(mv);
    }
    Some(board)
}

fn answer(board: &Board, settings: &Settings, answered: u64) -> String {
    let score = settings.score.unwrap_or_else(|| material(board));
    let bestmove = if settings.illegal && answered == 1 {
        "a1a1".to_string()
    } else {
        random_move(board, settings.seed)
            .map_or_else(|| "0000".to_string(), |mv| rules::move_to_uci(board, mv))
    };
    format!("info depth 1 score cp {score} nodes 1 pv {bestmove}\nbestmove {bestmove}")
}

/// A legal move chosen by the seed and the position's hash: the same position, the same move.
fn random_move(board: &Board, seed: u64) -> Option<Move> {
    let mut moves = Vec::new();
    board.generate_moves(|piece_moves| {
        moves.extend(piece_moves);
        false
    });
    if moves.is_empty() {
        return None;
    }
    let mut rng = SplitMix64::new(seed ^ board.hash());
    Some(moves[rng.below(moves.len())])
}

/// Material balance in centipawns from the side to move (1, 3, 3, 5, 9).
fn material(board: &Board) -> i32 {
    let values = [
        (Piece::Pawn, 100),
        (Piece::Knight, 300),
        (Piece::Bishop, 300),
        (Piece::Rook, 500),
        (Piece::Queen, 900),
    ];
    let side = |color: Color| -> i32 {
        values
            .iter()
            .map(|&(piece, value)| board.colored_pieces(color, piece).len() as i32 * value)
            .sum()
    };
    side(board.side_to_move()) - side(!board.side_to_move())
}
