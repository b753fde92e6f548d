//! Whole matches between copies of the test engine (`src/bin/arena-test-engine.rs`): the PGN replays
//! legally, the counts add up, the record round-trips, and every kind of faulty engine is scored as
//! the loser and reported, without the arena hanging.

use arena::record::MatchRecord;
use arena::stats::SprtParams;
use arena::{EngineSpec, MatchConfig, MatchReport, TimeControl, record_figures, run_match};
use cozy_chess::{Board, GameStatus};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

const TEST_ENGINE: &str = env!("CARGO_BIN_EXE_arena-test-engine");

fn engine(name: &str, args: &[&str]) -> EngineSpec {
    let mut spec = EngineSpec::new(name, TEST_ENGINE);
    spec.args = args.iter().map(|a| a.to_string()).collect();
    spec
}

fn openings() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/openings/8moves_v3.epd")
}

fn config(name: &str, second: EngineSpec, time_control: &str, pairs: usize) -> MatchConfig {
    let first = engine("good", &["--seed", "1"]);
    MatchConfig::new(
        name,
        [first, second],
        TimeControl::parse(time_control).unwrap(),
        pairs,
        openings(),
    )
}

/// Runs the match on another thread and fails the test if it takes longer than `limit`: a hung
/// arena must fail, not hang the test suite.
fn run_within(config: MatchConfig, interrupt: Arc<AtomicBool>, limit: Duration) -> MatchReport {
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = sender.send(run_match(&config, &interrupt));
    });
    receiver
        .recv_timeout(limit)
        .expect("the arena hung")
        .expect("the match runs")
}

fn run(config: MatchConfig) -> MatchReport {
    run_within(
        config,
        Arc::new(AtomicBool::new(false)),
        Duration::from_secs(60),
    )
}

/// One game of a PGN file: its tags and its moves in SAN.
struct PgnGame {
    tags: BTreeMap<String, String>,
    sans: Vec<String>,
}

/// A small PGN reader for the arena's own output: tag lines, then movetext with `{comments}`,
/// move numbers (`12.`, `12...`) and a result token.
fn read_pgn(text: &str) -> Vec<PgnGame> {
    let mut games = Vec::new();
    for chunk in text.split("\n\n[Event ").filter(|c| !c.trim().is_empty()) {
        let chunk = if chunk.starts_with("[Event ") {
            chunk.to_string()
        } else {
            format!("[Event {chunk}")
        };
        let (head, movetext) = chunk
            .split_once("\n\n")
            .expect("tags, blank line, movetext");
        let tags = head
            .lines()
            .map(|line| {
                let inner = line.trim_start_matches('[').trim_end_matches(']');
                let (name, value) = inner.split_once(' ').unwrap();
                (name.to_string(), value.trim_matches('"').to_string())
            })
            .collect();
        let mut plain = String::new();
        let mut depth = 0;
        for ch in movetext.chars() {
            match ch {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ if depth == 0 => plain.push(ch),
                _ => {}
            }
        }
        let sans = plain
            .split_whitespace()
            .filter(|t| !t.ends_with('.') && !["1-0", "0-1", "1/2-1/2", "*"].contains(t))
            .map(str::to_string)
            .collect();
        games.push(PgnGame { tags, sans });
    }
    games
}

#[test]
fn a_tiny_match_replays_legally_adds_up_and_round_trips() {
    let mut config = config("tiny", engine("other", &["--seed", "2"]), "5+0.05", 3);
    config.concurrency = 2;
    config.move_overhead_ms = Some(50);
    let report = run(config);
    let record = &report.record;
    let c = &record.counts;

    assert_eq!(c.games, 6);
    assert_eq!(c.wins + c.draws + c.losses, 6);
    assert_eq!(c.pentanomial.iter().sum::<u64>(), 3);
    assert_eq!(c.terminations.values().sum::<u64>(), 6);
    assert_eq!(
        c.faults,
        <[arena::record::FaultCounts; 2]>::default(),
        "random movers never fault"
    );
    assert_eq!(record.stopped_by, "completed");
    assert_eq!(record.verdict, "no verdict");
    assert_eq!(
        record.engines[0].bench,
        Some(4242),
        "the test engine's bench line"
    );
    assert!(
        record.engines[1]
            .options
            .contains(&("Move Overhead".to_string(), "50".to_string()))
    );
    assert_eq!(
        record.engines[0].id_name.as_deref(),
        Some("arena-test-engine")
    );

    let games = read_pgn(&report.pgn);
    assert_eq!(games.len(), 6);
    let mut points_of_good = 0.0;
    for game in &games {
        let mut board: Board = game.tags["FEN"].parse().expect("the FEN tag is a position");
        for san in &game.sans {
            let mv = cozy_chess::util::parse_san_move(&board, san).unwrap_or_else(|_| {
                panic!(
                    "{san} is not legal in {board} (round {})",
                    game.tags["Round"]
                )
            });
            board.play(mv);
        }
        assert_eq!(game.tags["PlyCount"], game.sans.len().to_string());
        let result = game.tags["Result"].as_str();
        match game.tags["TerminationDetails"].as_str() {
            "checkmate" => {
                assert_eq!(board.status(), GameStatus::Won);
                let winner = if board.side_to_move() == cozy_chess::Color::White {
                    "0-1"
                } else {
                    "1-0"
                };
                assert_eq!(result, winner);
            }
            "draw by stalemate" | "draw by the fifty-move rule" => {
                assert_eq!(board.status(), GameStatus::Drawn);
                assert_eq!(result, "1/2-1/2");
            }
            _ => {}
        }
        let good_is_white = game.tags["White"] == "good";
        points_of_good += match (result, good_is_white) {
            ("1/2-1/2", _) => 0.5,
            ("1-0", true) | ("0-1", false) => 1.0,
            _ => 0.0,
        };
    }
    assert_eq!(
        points_of_good,
        c.wins as f64 + 0.5 * c.draws as f64,
        "the PGN and the counts agree"
    );
    // Each pair plays one opening with colours reversed.
    for pair in games.chunks(2) {
        assert_eq!(pair[0].tags["FEN"], pair[1].tags["FEN"]);
        assert_eq!(pair[0].tags["White"], pair[1].tags["Black"]);
    }

    let dir = std::env::temp_dir().join(format!("arena-tiny-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("tiny.json");
    record.save(&path).unwrap();
    assert_eq!(&MatchRecord::load(&path).unwrap(), record);
    let figures = record_figures(&path).unwrap();
    assert_eq!(figures["games.tiny.games"], "6");
    assert_eq!(figures["games.tiny.pairs"], "3");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_same_seeds_replay_the_same_games() {
    let play = || {
        run(config(
            "again",
            engine("other", &["--seed", "2"]),
            "nodes=1",
            1,
        ))
        .pgn
    };
    let strip_times = |pgn: String| {
        pgn.lines()
            .filter(|l| !l.starts_with("[Date"))
            .map(|l| l.split('{').next().unwrap_or("").to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(strip_times(play()), strip_times(play()));
}

#[test]
fn an_illegal_move_loses_and_is_reported() {
    let report = run(config(
        "illegal",
        engine("cheat", &["--illegal"]),
        "5+0.05",
        1,
    ));
    let c = &report.record.counts;
    assert_eq!((c.wins, c.draws, c.losses), (2, 0, 0));
    assert_eq!(c.faults[1].illegal, 2);
    assert_eq!(c.faults[0], Default::default());
    assert_eq!(c.terminations["illegal_move"], 2);
    assert!(report.pgn.contains("[Termination \"rules infraction\"]"));
    assert!(report.pgn.contains("makes an illegal move: a1a1"));
}

#[test]
fn a_crash_loses_and_the_engine_is_restarted() {
    let report = run(config(
        "crash",
        engine("crasher", &["--crash-after", "3"]),
        "5+0.05",
        2,
    ));
    let c = &report.record.counts;
    assert_eq!((c.wins, c.draws, c.losses), (4, 0, 0));
    assert_eq!(
        c.faults[1].crash, 4,
        "a fresh process for every game, crashing every time"
    );
    assert_eq!(c.terminations["crash"], 4);
    // The crasher answered three moves before dying in each game, so each game has at least 6 plies.
    let ply_counts: Vec<usize> = report
        .pgn
        .lines()
        .filter_map(|l| {
            l.strip_prefix("[PlyCount \"")?
                .strip_suffix("\"]")?
                .parse()
                .ok()
        })
        .collect();
    assert_eq!(ply_counts.len(), 4);
    assert!(ply_counts.iter().all(|&n| n >= 6), "{ply_counts:?}");
}

#[test]
fn a_hung_engine_loses_on_time_and_the_arena_moves_on() {
    let report = run_within(
        config("hang", engine("sleeper", &["--hang"]), "0.3+0", 1),
        Arc::new(AtomicBool::new(false)),
        Duration::from_secs(20),
    );
    let c = &report.record.counts;
    assert_eq!((c.wins, c.losses), (2, 0));
    assert_eq!(c.faults[1].time, 2);
    assert_eq!(c.terminations["time_forfeit"], 2);
}

#[test]
fn a_hung_engine_under_a_node_limit_hits_the_move_timeout() {
    let mut config = config("hang-nodes", engine("sleeper", &["--hang"]), "nodes=100", 1);
    config.move_timeout = Duration::from_millis(300);
    let report = run_within(
        config,
        Arc::new(AtomicBool::new(false)),
        Duration::from_secs(20),
    );
    assert_eq!(report.record.counts.faults[1].time, 2);
}

#[test]
fn sprt_stops_the_match_on_a_verdict() {
    // Every pair is won twice; with elo1 = 400 the LLR grows by 0.5·ln(0.25/0.0083) = 1.70 a pair,
    // so the upper bound 2.94 is crossed after the second pair.
    let mut config = config("sprt", engine("cheat", &["--illegal"]), "5+0.05", 20);
    config.sprt = Some(SprtParams {
        elo0: 0.0,
        elo1: 400.0,
        alpha: 0.05,
        beta: 0.05,
    });
    let report = run(config);
    let record = &report.record;
    assert_eq!(record.stopped_by, "sprt");
    assert_eq!(record.verdict, "H1");
    assert_eq!(record.counts.pentanomial, [0, 0, 0, 0, 2]);
}

#[test]
fn an_interrupt_abandons_running_games_and_still_gives_a_record() {
    // The sleeper never moves and the clock is long: only the interrupt can end this game.
    let interrupt = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&interrupt);
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        flag.store(true, Ordering::Relaxed);
    });
    let mut config = config("interrupted", engine("sleeper", &["--hang"]), "600+0", 1);
    // The sleeper becomes the first engine, so it has White in the first game and never moves.
    config.engines.swap(0, 1);
    let report = run_within(config, interrupt, Duration::from_secs(20));
    assert_eq!(report.record.stopped_by, "interrupted");
    assert_eq!(report.record.counts.games, 0);
    assert_eq!(report.record.verdict, "no verdict");
    assert!(report.pgn.is_empty());
}

#[test]
fn an_unknown_option_or_command_fails_before_any_game() {
    let typo = engine("typo", &[]).option("TTBukets", "true");
    let err = run_match(&config("typo", typo, "5+0.05", 1), &AtomicBool::new(false)).unwrap_err();
    assert!(err.contains("no option `TTBukets`"), "{err}");
    let missing = EngineSpec::new("missing", "/nonexistent/engine");
    let err = run_match(
        &config("missing", missing, "5+0.05", 1),
        &AtomicBool::new(false),
    )
    .unwrap_err();
    assert!(err.contains("could not start"), "{err}");
}

#[test]
fn a_resumed_match_goes_on_where_it_stopped_and_adds_up() {
    // Three pairs in one sitting against two, then one more: the same openings, in the same
    // order, the counts of the two runs together, each run listed.
    let whole = run(config(
        "whole",
        engine("other", &["--seed", "2"]),
        "nodes=50",
        3,
    ));
    let first = run(config(
        "parts",
        engine("other", &["--seed", "2"]),
        "nodes=50",
        2,
    ));
    assert_eq!(first.record.next_pair, Some(2));
    let mut more = config("parts", engine("other", &["--seed", "2"]), "nodes=50", 1);
    more.previous = Some(first.record.clone());
    let second = run(more);
    let record = &second.record;
    assert_eq!(record.counts.games, 6);
    assert_eq!(record.next_pair, Some(3));
    assert_eq!(record.pairs_planned, 3);
    assert_eq!(record.runs.len(), 2);
    assert_eq!(record.runs[1].games, 2);
    assert_eq!(record.date, first.record.date);
    // The second run played the third opening, as the single sitting did, and numbered it so.
    let round_of = |pgn: &str| -> Vec<(String, String)> {
        read_pgn(pgn)
            .into_iter()
            .map(|g| (g.tags["Round"].clone(), g.tags["FEN"].clone()))
            .collect()
    };
    let whole_games = round_of(&whole.pgn);
    assert_eq!(round_of(&second.pgn), whole_games[4..].to_vec());
    // A record cannot be resumed by a different experiment.
    let mut other = whole.record.clone();
    other.time_control = "nodes=60".into();
    assert!(first.record.resumable_by(&other).is_err());
    assert!(first.record.resumable_by(&whole.record).is_ok());
}
