//! Whole UCI sessions with the real binary over its standard input and output, as a GUI holds
//! them: the handshake, searches and their reports, `stop`, `isready` and `ponderhit` while a
//! search runs, and every kind of bad input, which must be answered without changing the state.
//!
//! No test measures time: the deadlines below only turn a hang into a failure.

use arena::EngineSpec;
use arena::uci::UciEngine;
use cb2026::position::Position;
use cb2026::switches::{SWITCHES, Stage, Switches};
use std::process::Command;
use std::time::Duration;

/// How long any expected answer may take before the test fails (a hang, not a slow machine).
const PATIENCE: Duration = Duration::from_secs(60);

/// The engine as a child process, through the arena's UCI driver (which reads its output on a
/// thread and turns a hang into an error); this test holds the conversation from the first line.
struct Engine {
    uci: UciEngine,
}

impl Engine {
    fn start() -> Engine {
        let spec = EngineSpec::new("cb2026", env!("CARGO_BIN_EXE_cb2026"));
        let uci = UciEngine::spawn(&spec).expect("the engine starts");
        Engine { uci }
    }

    fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        self.uci.send_bytes(bytes).expect("the engine reads");
    }

    /// The lines up to and including the first for which `last` holds.
    fn read_until(&mut self, last: impl Fn(&str) -> bool) -> Vec<String> {
        self.uci
            .read_until(last, PATIENCE)
            .unwrap_or_else(|e| panic!("no answer: {e}"))
    }

    /// Sends `line`, then `isready`, and returns what came before `readyok`: the answer to
    /// `line` (commands other than `go` answer before the next line is read).
    fn ask(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.send("isready");
        let mut lines = self.read_until(|l| l == "readyok");
        lines.pop();
        lines
    }

    /// Sends a `go` and returns its `info` lines and the `bestmove` line.
    fn search(&mut self, go: &str) -> (Vec<String>, String) {
        self.send(go);
        self.answer_to_go()
    }

    /// The lines up to the next `bestmove`, and that line.
    fn answer_to_go(&mut self) -> (Vec<String>, String) {
        let mut lines = self.read_until(|l| l.starts_with("bestmove"));
        let best = lines.pop().expect("a bestmove line");
        (lines, best)
    }

    /// The `Fen:` line of `d`.
    fn fen(&mut self) -> String {
        let lines = self.ask("d");
        let fen = lines.iter().find_map(|l| l.strip_prefix("Fen: "));
        fen.expect("d prints the FEN").to_string()
    }

    /// Sends `quit` and waits for the process to end.
    fn quit(self) {
        let status = self.uci.quit(PATIENCE).expect("the engine quits");
        assert!(status.success(), "{status}");
    }
}

/// One parsed `info` line of an iteration.
#[derive(Debug)]
struct Info {
    depth: u32,
    seldepth: u32,
    score: (String, i32),
    nodes: u64,
    time: u64,
    pv: Vec<String>,
}

/// Parses an iteration's `info` line, failing the test on any field that is missing or wrong.
fn parse_info(line: &str) -> Info {
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words[0], "info", "{line}");
    let value = |name: &str| -> u64 {
        let i = words
            .iter()
            .position(|w| *w == name)
            .unwrap_or_else(|| panic!("no {name}: {line}"));
        words[i + 1]
            .parse()
            .unwrap_or_else(|_| panic!("bad {name}: {line}"))
    };
    let score_at = words.iter().position(|w| *w == "score").expect("a score");
    let kind = words[score_at + 1];
    assert!(kind == "cp" || kind == "mate", "{line}");
    let score = words[score_at + 2].parse().expect("a score value");
    let pv_at = words.iter().position(|w| *w == "pv").expect("a pv");
    assert!(value("hashfull") <= 1000, "{line}");
    value("nps");
    Info {
        depth: value("depth") as u32,
        seldepth: value("seldepth") as u32,
        score: (kind.to_string(), score),
        nodes: value("nodes"),
        time: value("time"),
        pv: words[pv_at + 1..].iter().map(|w| w.to_string()).collect(),
    }
}

/// Plays `moves` from `position`, failing if one is not legal.
fn assert_legal_line(position: &Position, moves: &[String]) {
    let mut position = position.clone();
    for text in moves {
        let m = position
            .parse_uci_move(text)
            .unwrap_or_else(|e| panic!("{e} in {} (line {moves:?})", position.to_fen()));
        position.make_move(m);
    }
}

/// The move of a `bestmove` line, checked legal in `position`, and its ponder move.
fn best_move(position: &Position, line: &str) -> (String, Option<String>) {
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words[0], "bestmove", "{line}");
    let best = words[1].to_string();
    let ponder = match &words[2..] {
        [] => None,
        ["ponder", reply] => Some(reply.to_string()),
        _ => panic!("bad bestmove line: {line}"),
    };
    let mut line = vec![best.clone()];
    line.extend(ponder.clone());
    assert_legal_line(position, &line);
    (best, ponder)
}

#[test]
fn handshake_lists_every_option_and_switch() {
    let mut engine = Engine::start();
    engine.send("uci");
    let lines = engine.read_until(|l| l == "uciok");
    assert!(lines[0].starts_with("id name cb2026 "), "{lines:?}");
    assert!(lines[1].starts_with("id author "), "{lines:?}");
    for expected in [
        "option name Hash type spin default 16 min 1 max 33554432",
        "option name Threads type spin default 1 min 1 max 256",
        "option name Clear Hash type button",
        "option name Move Overhead type spin default 50 min 0 max 5000",
        "option name Ponder type check default false",
    ] {
        assert!(
            lines.iter().any(|l| l == expected),
            "{expected} missing from {lines:#?}"
        );
    }
    for info in &SWITCHES {
        let expected = format!(
            "option name {} type check default {}",
            info.name, info.default
        );
        assert!(lines.contains(&expected), "{expected} missing");
    }
    assert_eq!(lines.len(), 2 + 5 + SWITCHES.len() + 1);
    assert_eq!(engine.ask(""), Vec::<String>::new());
    engine.quit();
}

#[test]
fn go_depth_reports_every_iteration_then_one_legal_move() {
    let mut engine = Engine::start();
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    engine.send("ucinewgame");
    engine.send(&format!("position fen {fen} moves f1b5 a7a6"));
    let mut position = Position::from_fen(fen).expect("valid");
    for text in ["f1b5", "a7a6"] {
        let m = position.parse_uci_move(text).expect("legal");
        position.make_move(m);
    }
    let (infos, best) = engine.search("go depth 5");
    let infos: Vec<Info> = infos.iter().map(|l| parse_info(l)).collect();
    assert_eq!(
        infos.iter().map(|i| i.depth).collect::<Vec<_>>(),
        vec![1, 2, 3, 4, 5]
    );
    for pair in infos.windows(2) {
        assert!(
            pair[1].nodes > pair[0].nodes && pair[1].time >= pair[0].time,
            "{pair:?}"
        );
    }
    for info in &infos {
        assert!(
            info.seldepth >= info.depth && !info.pv.is_empty(),
            "{info:?}"
        );
        assert_eq!(info.score.0, "cp", "{info:?}");
        assert_legal_line(&position, &info.pv);
    }
    let (best, _) = best_move(&position, &best);
    assert_eq!(
        best, infos[4].pv[0],
        "the move played is the last iteration's"
    );
    engine.quit();
}

#[test]
fn go_infinite_answers_isready_and_stops_on_stop() {
    let mut engine = Engine::start();
    engine.send("position startpos moves d2d4");
    engine.send("go infinite");
    engine.send("isready");
    // readyok arrives while the search runs: nothing but info lines come before it, and no
    // bestmove can, since an infinite search answers only after stop.
    let mut before = engine.read_until(|l| l == "readyok");
    before.pop();
    assert!(
        before.iter().all(|l| l.starts_with("info depth")),
        "{before:?}"
    );
    engine.send("stop");
    let lines = engine.read_until(|l| l.starts_with("bestmove"));
    let mut position = Position::startpos();
    position.make_move(position.parse_uci_move("d2d4").expect("legal"));
    best_move(&position, lines.last().expect("a line"));
    // Exactly one bestmove: a second stop answers nothing more.
    assert_eq!(engine.ask("stop"), Vec::<String>::new());
    engine.quit();
}

#[test]
fn go_movetime_and_go_with_a_clock_return_a_move() {
    let mut engine = Engine::start();
    let (_, best) = engine.search("go movetime 200");
    best_move(&Position::startpos(), &best);
    let (_, best) = engine.search("go wtime 3000 btime 3000 winc 100 binc 100");
    best_move(&Position::startpos(), &best);
    let (_, best) = engine.search("go wtime 30000 btime 30000 movestogo 1");
    best_move(&Position::startpos(), &best);
    let (_, best) = engine.search("go nodes 3000");
    best_move(&Position::startpos(), &best);
    engine.quit();
}

#[test]
fn ponder_then_ponderhit_or_stop_answers_once() {
    let mut engine = Engine::start();
    engine.send("position startpos moves e2e4 e7e5");
    let mut position = Position::startpos();
    for text in ["e2e4", "e7e5"] {
        let m = position.parse_uci_move(text).expect("legal");
        position.make_move(m);
    }
    engine.send("go ponder wtime 2000 btime 2000");
    let before = engine.ask("");
    assert!(
        before.iter().all(|l| l.starts_with("info")),
        "no bestmove while pondering: {before:?}"
    );
    engine.send("ponderhit");
    let lines = engine.read_until(|l| l.starts_with("bestmove"));
    best_move(&position, lines.last().expect("a line"));

    engine.send("go ponder wtime 2000 btime 2000");
    engine.send("stop");
    let lines = engine.read_until(|l| l.starts_with("bestmove"));
    best_move(&position, lines.last().expect("a line"));
    let after = engine.ask("ponderhit");
    assert!(
        after.iter().all(|l| !l.starts_with("bestmove")),
        "{after:?}"
    );
    engine.quit();
}

#[test]
fn mate_and_stalemate_answer_0000() {
    let mut engine = Engine::start();
    engine.send("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    let (infos, best) = engine.search("go depth 5");
    assert_eq!(
        (infos, best.as_str()),
        (
            vec!["info depth 0 score mate 0".to_string()],
            "bestmove 0000"
        )
    );
    engine.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    let (infos, best) = engine.search("go wtime 1000 btime 1000");
    assert_eq!(
        (infos, best.as_str()),
        (vec!["info depth 0 score cp 0".to_string()], "bestmove 0000")
    );
    // Mate in one for White, and mated in one for Black: scores count moves, negative when
    // the side to move is being mated.
    engine.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3RR1K1 w - - 0 1");
    let (infos, best) = engine.search("go depth 6");
    let last = parse_info(infos.last().expect("an info line"));
    assert_eq!(last.score, ("mate".to_string(), 1), "{infos:?}");
    assert!(
        best.starts_with("bestmove d1d8") || best.starts_with("bestmove e1e8"),
        "{best}"
    );
    engine.send("position fen 7k/8/5QK1/8/8/8/8/8 b - - 0 1");
    let (infos, best) = engine.search("go depth 6");
    let last = parse_info(infos.last().expect("an info line"));
    assert_eq!(last.score, ("mate".to_string(), -1), "{infos:?}");
    assert!(best.starts_with("bestmove h8g8 ponder "), "{best}");
    engine.quit();
}

#[test]
fn bad_input_is_answered_and_changes_nothing() {
    let mut engine = Engine::start();
    engine.send("position startpos moves e2e4 c7c5");
    let fen = engine.fen();
    let switches = engine.ask("switches");
    let cases: [(&str, &str); 14] = [
        ("fly me to the moon", "unknown command 'fly' (try 'help')"),
        (
            "setoption name Hash value abc",
            "setoption: Hash value 'abc' is not a whole number",
        ),
        (
            "setoption name Hash value 0",
            "setoption: Hash value '0' is not a whole number from 1",
        ),
        (
            "setoption name Hash value 40000000",
            "setoption: Hash value '40000000' is not a whole number from 1 to 33554432",
        ),
        (
            "setoption name Threads value 300",
            "setoption: Threads value '300' is not a whole number from 1 to 256",
        ),
        (
            "setoption name Move Overhead value -3",
            "setoption: Move Overhead value '-3'",
        ),
        (
            "setoption name Colour value red",
            "setoption: unknown option 'Colour'",
        ),
        (
            "setoption name lmr value perhaps",
            "setoption: lmr value 'perhaps' is not true or false",
        ),
        ("setoption name lmr", "setoption: lmr needs a value"),
        ("setoption Hash 3", "setoption: expected 'setoption name"),
        ("set nullmvoe off", "set: unknown switch 'nullmvoe'"),
        ("set lmr maybe", "set: bad switch value 'maybe'"),
        (
            "stage 0",
            "stage: unknown stage '0'; expected a chapter 1-20 or a milestone M1-M21",
        ),
        ("perft -1", "perft: depth '-1' is not a number from 0 to 64"),
    ];
    for (line, error) in cases {
        let answer = engine.ask(line);
        assert_eq!(answer.len(), 1, "{line}: {answer:?}");
        let expected = format!("info string error: {error}");
        assert!(
            answer[0].starts_with(&expected),
            "{line}: {answer:?}, expected {expected}"
        );
        assert_eq!(engine.fen(), fen, "after {line}");
    }
    assert_eq!(engine.ask("switches"), switches);
    // The session still plays from the position it had.
    let position = Position::from_fen(&fen).expect("valid");
    let (_, best) = engine.search("go depth 3");
    best_move(&position, &best);
    engine.quit();
}

#[test]
fn a_refused_position_is_never_searched_until_a_good_one_comes() {
    let mut engine = Engine::start();
    let cases = [
        ("position fen 8/8/8 w - - 0 1", "position: bad FEN: "),
        (
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "position: bad FEN: ",
        ),
        (
            "position startpos moves e2e4 e7e5 e1e3",
            "position: e1e3 is not a legal move",
        ),
        (
            "position startpos moves e2e4 zz",
            "position: 'zz' is not a move",
        ),
        (
            "position sideways",
            "position: expected 'startpos' or 'fen <FEN>'",
        ),
        (
            "position startpos foo",
            "position: unexpected 'foo' after startpos",
        ),
    ];
    for (line, error) in cases {
        engine.send("position startpos moves e2e4");
        let answer = engine.ask(line);
        assert_eq!(answer.len(), 1, "{line}: {answer:?}");
        assert!(
            answer[0].starts_with(&format!("info string error: {error}")),
            "{line}: {answer:?}"
        );
        // No move for a position the GUI did not mean, whatever the go.
        for go in ["go depth 3", "go wtime 1000 btime 1000", "go infinite"] {
            let (infos, best) = engine.search(go);
            assert_eq!(
                (infos, best.as_str()),
                (
                    vec![
                        "info string error: no position (the last 'position' was refused)"
                            .to_string()
                    ],
                    "bestmove 0000"
                ),
                "{line}, then {go}"
            );
        }
    }
    engine.send("position startpos moves g1f3");
    let (_, best) = engine.search("go depth 2");
    let mut position = Position::startpos();
    position.make_move(position.parse_uci_move("g1f3").expect("legal"));
    best_move(&position, &best);
    engine.quit();
}

#[test]
fn every_go_is_answered_with_a_bestmove() {
    let mut engine = Engine::start();
    let startpos = Position::startpos();
    for go in [
        "go sideways 12 depth 2",
        "go depth 2 searchmoves e2e4 d2d4",
        "go movestogo 0 wtime 1000 btime 1000",
        "go depth 0",
        "go nodes 0",
        "go nodes 1",
        "go wtime -500 btime -500 winc -10 binc -10",
        "go btime 1000",
        "go movetime -5",
        "go depth 5 depth 1",
    ] {
        let (infos, best) = engine.search(go);
        best_move(&startpos, &best);
        assert!(
            infos.iter().all(|l| l.starts_with("info ")),
            "{go}: {infos:?}"
        );
    }
    let (infos, _) = engine.search("go depth 0");
    assert_eq!(infos.len(), 1, "depth 0 searches depth 1: {infos:?}");
    let (infos, _) = engine.search("go sideways depth 1");
    assert_eq!(
        infos[0],
        "info string warning: go: unknown parameter 'sideways' ignored"
    );
    for go in ["go depth x", "go wtime", "go nodes many movetime 10"] {
        let (infos, best) = engine.search(go);
        assert_eq!(infos.len(), 1, "{go}: {infos:?}");
        assert!(
            infos[0].starts_with("info string error: go: "),
            "{go}: {infos:?}"
        );
        assert_eq!(best, "bestmove 0000", "{go}");
    }
    // Mate and stalemate are answered at once, even when told to search until stop.
    engine.send("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    for go in ["go infinite", "go ponder", "go depth 4"] {
        let (infos, best) = engine.search(go);
        assert_eq!(infos, vec!["info depth 0 score mate 0".to_string()], "{go}");
        assert_eq!(best, "bestmove 0000");
    }
    assert_eq!(
        engine.ask("stop"),
        Vec::<String>::new(),
        "nothing left to stop"
    );
    engine.quit();
}

#[test]
fn a_hash_larger_than_the_machine_can_give_is_refused_and_the_engine_plays_on() {
    let mut engine = Engine::start();
    assert_eq!(
        engine.ask("setoption name Hash value 4"),
        Vec::<String>::new()
    );
    // Ten million megabytes: some ten terabytes.
    let answer = engine.ask("setoption name Hash value 10000000");
    assert_eq!(answer.len(), 1, "{answer:?}");
    assert!(
        answer[0].starts_with("info string error: setoption: Hash: ")
            && answer[0].ends_with("; kept 4 MB"),
        "{answer:?}"
    );
    let (infos, best) = engine.search("go depth 6");
    assert_eq!(infos.len(), 6, "{infos:?}");
    best_move(&Position::startpos(), &best);
    engine.quit();
}

#[test]
fn garbage_long_and_non_utf8_lines_are_survived() {
    let mut engine = Engine::start();
    engine.send_bytes(b"\xff\xfe\x80 go\n");
    let answer = engine.ask("");
    assert_eq!(answer.len(), 1);
    assert!(
        answer[0].starts_with("info string error: unknown command"),
        "{answer:?}"
    );
    let long = format!("position startpos moves {}", "e2e4 ".repeat(200_000));
    let answer = engine.ask(&long);
    assert!(answer[0].starts_with("info string error: position: e2e4 is not a legal move"));
    let answer = engine.ask(&"x".repeat(1 << 20));
    assert_eq!(
        answer,
        vec!["info string error: unknown command 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' (try 'help')"]
    );
    engine.send("position startpos");
    engine.send_bytes(b"go depth 2\r\n");
    let lines = engine.read_until(|l| l.starts_with("bestmove"));
    best_move(&Position::startpos(), lines.last().expect("a line"));
    assert_eq!(engine.fen(), Position::startpos().to_fen());
    engine.quit();
}

#[test]
fn switches_follow_setoption_and_set() {
    let mut engine = Engine::start();
    let line_of = |lines: &[String], name: &str| -> String {
        lines
            .iter()
            .find(|l| l.split_whitespace().next() == Some(name))
            .cloned()
            .expect(name)
    };
    let before = engine.ask("switches");
    assert_eq!(before.len(), SWITCHES.len());
    assert!(line_of(&before, "nullmove").starts_with("nullmove    on  (default on "));
    assert_eq!(
        engine.ask("setoption name NullMove value false"),
        Vec::<String>::new()
    );
    assert_eq!(engine.ask("set ttbuckets on"), Vec::<String>::new());
    let after = engine.ask("switches");
    assert!(line_of(&after, "nullmove").starts_with("nullmove    off (default on "));
    assert!(line_of(&after, "ttbuckets").starts_with("ttbuckets   on  (default off"));
    assert_eq!(line_of(&after, "lmr"), line_of(&before, "lmr"));
    // A search runs with them.
    let (_, best) = engine.search("go depth 4");
    best_move(&Position::startpos(), &best);
    engine.quit();
}

#[test]
fn hash_clear_hash_and_newgame_keep_the_engine_playing() {
    let mut engine = Engine::start();
    for line in [
        "setoption name Hash value 3",
        "setoption name clear hash",
        "ucinewgame",
    ] {
        assert_eq!(engine.ask(line), Vec::<String>::new(), "{line}");
    }
    let (infos, best) = engine.search("go depth 4");
    assert_eq!(infos.len(), 4);
    best_move(&Position::startpos(), &best);
    engine.quit();
}

#[test]
fn commands_that_need_the_searcher_are_refused_while_it_thinks() {
    let mut engine = Engine::start();
    engine.send("go infinite");
    for (line, command) in [
        ("ucinewgame", "ucinewgame"),
        ("bench 1", "bench"),
        ("perft 1", "perft"),
        ("setoption name Hash value 2", "setoption name Hash"),
        ("setoption name Clear Hash", "setoption name Clear Hash"),
    ] {
        let answer: Vec<String> = engine
            .ask(line)
            .into_iter()
            .filter(|l| !l.starts_with("info depth"))
            .collect();
        assert_eq!(
            answer,
            vec![format!(
                "info string error: {command}: not while searching (send stop first)"
            )]
        );
    }
    // Position changes are allowed: the search has its own copy.
    engine.send("position startpos moves g1f3");
    engine.send("stop");
    let lines = engine.read_until(|l| l.starts_with("bestmove"));
    best_move(&Position::startpos(), lines.last().expect("a line"));
    let mut after = Position::startpos();
    after.make_move(after.parse_uci_move("g1f3").expect("legal"));
    let (_, best) = engine.search("go depth 2");
    best_move(&after, &best);
    engine.quit();
}

#[test]
fn a_go_while_searching_ends_that_search_and_each_go_is_answered() {
    let mut engine = Engine::start();
    engine.send("go infinite");
    engine.read_until(|l| l.starts_with("info depth 1 "));
    engine.send("go depth 3");
    let first = engine.read_until(|l| l.starts_with("bestmove"));
    best_move(&Position::startpos(), first.last().expect("a line"));
    let (infos, best) = engine.answer_to_go();
    assert_eq!(
        infos.len(),
        3,
        "the second go searches to depth 3: {infos:?}"
    );
    best_move(&Position::startpos(), &best);
    engine.quit();
}

#[test]
fn console_extras_answer() {
    let mut engine = Engine::start();
    let d = engine.ask("d");
    assert!(d.iter().any(|l| l.starts_with("Key: ")), "{d:?}");
    assert!(!engine.ask("eval").is_empty());
    // perft runs on the worker: its lines come when they are counted, after the command.
    engine.send("perft 3");
    let perft = engine.read_until(|l| l.starts_with("Nodes searched"));
    assert_eq!(
        perft.iter().filter(|l| l.contains(": ")).count(),
        20 + 1,
        "{perft:?}"
    );
    assert!(
        perft.contains(&"Nodes searched: 8902".to_string()),
        "{perft:?}"
    );
    assert_eq!(
        engine.ask(""),
        vec![String::new()],
        "the blank line after the total"
    );
    assert_eq!(engine.ask("debug on"), Vec::<String>::new());
    assert_eq!(engine.ask("register later"), Vec::<String>::new());
    engine.quit();
}

#[test]
fn quit_during_a_search_ends_the_process() {
    let mut engine = Engine::start();
    engine.send("go infinite");
    engine.read_until(|l| l.starts_with("info depth 1 "));
    engine.quit();
}

/// The `N nodes N nps` total of the bench output in `lines`.
fn bench_total(lines: &[String]) -> u64 {
    let last = lines.last().expect("a last line");
    let words: Vec<&str> = last.split(' ').collect();
    assert_eq!(
        (words.len(), words[1], words[3]),
        (4, "nodes", "nps"),
        "{last}"
    );
    words[0].parse().expect("a node count")
}

#[test]
fn bench_twice_in_one_process_matches_two_processes() {
    const DEPTH: &str = "4";
    let mut engine = Engine::start();
    engine.send("go depth 6"); // something in the tables and histories first
    engine.read_until(|l| l.starts_with("bestmove"));
    engine.send(&format!("bench {DEPTH}"));
    let first = bench_total(&engine.read_until(|l| l.ends_with(" nps")));
    engine.send(&format!("bench {DEPTH}"));
    let second = bench_total(&engine.read_until(|l| l.ends_with(" nps")));
    engine.quit();
    let separate: Vec<u64> = (0..2)
        .map(|_| {
            let output = Command::new(env!("CARGO_BIN_EXE_cb2026"))
                .args(["bench", DEPTH])
                .output()
                .expect("bench runs");
            assert!(output.status.success());
            let text = String::from_utf8(output.stdout).expect("UTF-8");
            let lines: Vec<String> = text.lines().map(str::to_string).collect();
            assert_eq!(lines.len(), 51, "a line per position and the total");
            bench_total(&lines)
        })
        .collect();
    assert_eq!(vec![first, second], separate);
}

/// How long `quit` may take to end the process while a job runs. The engine stops a job within
/// milliseconds; a second leaves room for a loaded machine and still fails a job that goes on.
const QUIT_WITHIN: Duration = Duration::from_secs(1);

#[test]
fn quit_during_perft_or_bench_ends_the_process_at_once() {
    for job in ["perft 9", "bench 30"] {
        let mut engine = Engine::start();
        engine.send(job);
        // Once readyok comes, the job has started: commands are handled in order.
        assert_eq!(engine.ask(""), Vec::<String>::new(), "{job}");
        std::thread::sleep(Duration::from_millis(50));
        let status = engine.uci.quit(QUIT_WITHIN);
        let status = status.unwrap_or_else(|| panic!("{job}: still running after quit"));
        assert!(status.success(), "{job}: {status}");
    }
}

#[test]
fn stop_ends_perft_and_bench_and_the_session_goes_on() {
    let mut engine = Engine::start();
    for (job, name) in [("perft 9", "perft"), ("bench 30", "bench")] {
        engine.send(job);
        assert_eq!(
            engine.ask("bench 1"),
            vec![format!(
                "info string error: bench: not while {name} runs (send stop first)"
            )]
        );
        engine.send("stop");
        let lines = engine.read_until(|l| l.starts_with("info string "));
        assert_eq!(
            lines.last().map(String::as_str),
            Some(format!("info string {name} stopped").as_str())
        );
        let (_, best) = engine.search("go depth 3");
        best_move(&Position::startpos(), &best);
    }
    // Left alone, perft in a session prints what `cb2026 perft` prints.
    engine.send("perft 2");
    let lines = engine.read_until(|l| l.starts_with("Nodes searched"));
    assert_eq!(lines.len(), 20 + 2, "{lines:?}");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Nodes searched: 400")
    );
    engine.quit();
}

#[test]
fn stage_sets_the_switches_of_a_chapter() {
    let mut engine = Engine::start();
    // The engine ships some switches off (M5's buckets, M7's correction history, ...) and
    // some of the last milestones' on: no stage until every one of them is on.
    assert_eq!(
        engine.ask("stage"),
        vec!["stage: the switches are those of no stage (see 'switches')"]
    );
    for switch in Switches::shipped_off_through(Stage::LAST) {
        assert_eq!(
            engine.ask(&format!("set {switch} on")),
            Vec::<String>::new()
        );
    }
    assert_eq!(engine.ask("stage"), vec!["stage M21"]);
    assert_eq!(engine.ask("stage 11"), Vec::<String>::new());
    assert_eq!(engine.ask("stage"), vec!["stage 11"]);
    let switches = engine.ask("switches");
    for (name, on) in [("nullmove", true), ("lmr", false), ("ttbuckets", false)] {
        let line = switches
            .iter()
            .find(|l| l.split_whitespace().next() == Some(name))
            .expect(name);
        let state = line.split_whitespace().nth(1);
        assert_eq!(state, Some(if on { "on" } else { "off" }), "{line}");
    }
    assert_eq!(engine.ask("stage M5"), Vec::<String>::new());
    assert_eq!(engine.ask("stage"), vec!["stage M5"]);
    assert_eq!(engine.ask("set lmr off"), Vec::<String>::new());
    assert_eq!(
        engine.ask("stage"),
        vec!["stage: the switches are those of no stage (see 'switches')"]
    );
    let answer = engine.ask("stage 21");
    assert!(
        answer[0].starts_with("info string error: stage: unknown stage '21'"),
        "{answer:?}"
    );
    assert!(
        engine
            .ask("help")
            .iter()
            .any(|l| l.trim_start().starts_with("stage [N]"))
    );
    let (_, best) = engine.search("go depth 4");
    best_move(&Position::startpos(), &best);
    engine.quit();
}
