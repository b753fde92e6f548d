//! The real `cb2026` binary, run as a user or a GUI would run it: `cb2026 perft` and `cb2026
//! bench` on the command line (bad arguments exit with code 2 and the usage), and a UCI session
//! on standard input with bad input mixed in.

use std::io::Write;
use std::process::{Command, Output, Stdio};

const BINARY: &str = env!("CARGO_BIN_EXE_cb2026");

fn run(args: &[&str]) -> Output {
    Command::new(BINARY)
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Runs a session with `input` on standard input and returns what it printed.
fn session(input: &[u8]) -> (Output, String) {
    let mut child = Command::new(BINARY)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    child
        .stdin
        .take()
        .expect("a pipe")
        .write_all(input)
        .expect("the session reads its input");
    let output = child.wait_with_output().expect("the session ends");
    let stdout = String::from_utf8(output.stdout.clone()).expect("UTF-8 output");
    (output, stdout)
}

#[test]
fn perft_prints_divide_lines_then_the_total_like_stockfish() {
    let output = run(&["perft", "3"]);
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 20 + 3, "{text}");
    assert!(lines.contains(&"e2e4: 600"));
    assert!(lines.contains(&"g1f3: 440"));
    assert!(text.ends_with("\nNodes searched: 8902\n\n"), "{text}");
}

#[test]
fn perft_takes_a_fen_quoted_or_as_separate_words() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let quoted = run(&["perft", "2", fen]);
    let mut words = vec!["perft", "2"];
    words.extend(fen.split(' '));
    let separate = run(&words);
    assert!(quoted.status.success() && separate.status.success());
    assert_eq!(quoted.stdout, separate.stdout);
    let text = String::from_utf8(quoted.stdout).expect("UTF-8");
    assert!(text.contains("e1g1: 43\n"), "{text}");
    assert!(text.ends_with("Nodes searched: 2039\n\n"));
}

#[test]
fn bad_arguments_exit_with_code_2_and_say_what_is_wrong() {
    let output = run(&["perft", "x"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("depth 'x'"));
    assert!(output.stdout.is_empty());

    let output = run(&["perft", "1", "8/8/8/8/8/8/8/8 w - - 0 1"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("bad FEN: piece placement"));

    let output = run(&["perft"]);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn a_session_answers_bad_input_with_an_error_and_a_bad_position_with_none() {
    let input = "uci\n\
                 isready\n\
                 position startpos moves e2e4 e7e5\n\
                 bogus command\n\
                 perft\n\
                 d\n\
                 position startpos moves e2e4 e7e5 e1e3\n\
                 go depth 2\n\
                 d\n\
                 position fen 8/8/8 w - - 0 1\n\
                 position startpos moves e2e4 e7e5\n\
                 perft 1\n\
                 quit\n";
    let (output, text) = session(input.as_bytes());
    assert!(output.status.success());
    assert!(text.contains("id name cb2026"));
    assert!(text.contains("uciok\n"));
    assert!(text.contains("readyok\n"));
    let errors: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("info string error: "))
        .collect();
    assert_eq!(errors.len(), 6, "{text}");
    assert!(errors[0].contains("bogus"), "{}", errors[0]);
    assert!(errors[1].contains("perft"), "{}", errors[1]);
    assert!(errors[2].contains("e1e3"), "{}", errors[2]);
    assert!(errors[3].contains("no position"), "go: {}", errors[3]);
    assert!(errors[4].contains("d: no position"), "{}", errors[4]);
    assert!(errors[5].contains("piece placement"), "{}", errors[5]);
    assert!(
        text.contains("\nbestmove 0000\n"),
        "go without a position: {text}"
    );
    // The first d shows 1. e4 e5; perft counts from the last good position, 1. e4 e5 again.
    assert!(
        text.contains("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"),
        "{text}"
    );
    assert!(text.contains("\nNodes searched: 29\n"), "{text}");
}

#[test]
fn perft_in_a_session_prints_what_the_command_line_prints() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let line = run(&["perft", "3", fen]);
    assert!(line.status.success());
    let (output, text) = session(format!("position fen {fen}\nperft 3\n").as_bytes());
    assert!(output.status.success());
    assert_eq!(text.as_bytes(), line.stdout.as_slice());
    assert!(text.ends_with("\nNodes searched: 97862\n\n"), "{text}");
}

#[test]
fn bench_in_a_session_counts_what_the_command_line_counts() {
    let line = run(&["bench", "3"]);
    let (output, text) = session(b"bench 3\n");
    assert!(line.status.success() && output.status.success());
    let nodes = |text: &str| -> Vec<String> {
        // Every line but the speeds: the positions' counts, moves and scores, then the total.
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        let total = lines
            .last()
            .and_then(|l| l.split(' ').next())
            .map(str::to_string);
        lines[..lines.len() - 1]
            .iter()
            .cloned()
            .chain(total)
            .collect()
    };
    let from_line = nodes(&String::from_utf8_lossy(&line.stdout));
    assert_eq!(from_line.len(), 51);
    assert_eq!(nodes(&text), from_line);
}

#[test]
fn a_session_survives_bytes_that_are_not_utf8_and_ends_at_end_of_input() {
    let mut input = b"position startpos moves \xff\xfe\n".to_vec();
    input.extend_from_slice("\u{e9}\u{2654}\n".as_bytes());
    input.extend_from_slice(b"isready\n");
    let (output, text) = session(&input);
    assert!(
        output.status.success(),
        "no quit: the end of input ends the session"
    );
    assert!(text.ends_with("readyok\n"), "{text}");
    assert_eq!(text.matches("info string error: ").count(), 2, "{text}");
}

#[test]
fn bench_ends_with_the_line_openbench_reads() {
    let output = run(&["bench", "2"]);
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 51, "a line per position, then the total");
    let last: Vec<&str> = lines[50].split(' ').collect();
    assert_eq!(last.len(), 4, "{}", lines[50]);
    assert!(last[0].parse::<u64>().is_ok() && last[2].parse::<u64>().is_ok());
    assert_eq!((last[1], last[3]), ("nodes", "nps"));
}

#[test]
fn every_bad_command_line_exits_with_code_2_and_the_usage() {
    for args in [
        &["frob"][..],
        &["bench", "x"],
        &["bench", "0"],
        &["bench", "3", "4"],
        &["perft"],
        &["perft", "many"],
        &["perft", "2", "not", "a", "fen"],
        &["help", "me"],
    ] {
        let output = run(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        let error = String::from_utf8_lossy(&output.stderr);
        assert!(
            error.starts_with("cb2026: ") && error.contains("usage: cb2026"),
            "{args:?}: {error}"
        );
    }
}

#[cfg(unix)]
#[test]
fn arguments_that_are_not_utf8_are_a_usage_error() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let output = Command::new(BINARY)
        .arg(OsStr::from_bytes(b"bench\xff"))
        .output()
        .expect("the binary runs");
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn help_prints_the_usage_and_succeeds() {
    let output = run(&["help"]);
    assert!(output.status.success());
    assert!(String::from_utf8_lossy(&output.stdout).starts_with("usage: cb2026"));
}

#[test]
fn a_search_still_running_when_input_ends_is_finished_or_stopped() {
    // A depth-limited search ends by itself, so its move is printed although standard input
    // closed right after `go` (`echo "go depth 4" | cb2026` works).
    let (output, text) = session(b"uci\nisready\nposition startpos moves e2e4\ngo depth 4\n");
    assert!(output.status.success());
    assert!(text.contains("\nuciok\nreadyok\n"), "{text}");
    assert_eq!(text.matches("bestmove ").count(), 1, "{text}");
    assert!(text.contains("info depth 4 "), "{text}");
    // An infinite search would never end: it is stopped, and still answers.
    let (_, text) = session(b"go infinite\n");
    assert_eq!(
        text.lines().filter(|l| l.starts_with("bestmove ")).count(),
        1,
        "{text}"
    );
    // quit ends the session before the lines after it.
    let (_, text) = session(b"quit\nisready\n");
    assert_eq!(text, "");
}
