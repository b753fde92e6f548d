//! The session transcript that chapter 15.1 of the book shows (`book/src/ch15-1-transcript.txt`):
//! the real binary, driven as a GUI drives it, each command written only after the answer to
//! the one before it has arrived, so the order of the lines is always the same.
//!
//! The test runs the session again and compares it with the stored transcript, line by line,
//! after masking what depends on the machine: the `time` and `nps` of the `info` lines and the
//! memory the machine says it can give. Everything else (the options, every node count, the
//! scores, the moves, the warnings and errors) must be exactly as stored. To store a new
//! transcript after a deliberate change: `UPDATE_TRANSCRIPT=1 cargo test -p cb2026 --test
//! transcript`, then re-read the page (never under `CI`).

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

/// A command of the session and the line that ends its answer (`None`: it answers nothing).
type Step = (&'static str, Option<fn(&str) -> bool>);

// ANCHOR: transcript_script
/// The session: a GUI's start-up, a search with a parameter we do not know, a refused
/// `Hash`, a refused `position` and the `go` after it, a position with no legal move.
const SCRIPT: [Step; 14] = [
    ("uci", Some(|l| l == "uciok")),
    ("setoption name Hash value 32", None),
    ("setoption name Hash value 10000000", Some(is_error)),
    ("isready", Some(|l| l == "readyok")),
    ("ucinewgame", None),
    ("position startpos moves e2e4 e7e5", None),
    ("go depth 5 sideways 3", Some(is_bestmove)),
    ("go nodes 0", Some(is_bestmove)),
    ("position startpos moves e2e4 e7e4", Some(is_error)),
    ("go depth 5", Some(is_bestmove)),
    ("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", None),
    ("go infinite", Some(is_bestmove)),
    ("stop", None),
    ("quit", None),
];
// ANCHOR_END: transcript_script

fn is_error(line: &str) -> bool {
    line.starts_with("info string error")
}

fn is_bestmove(line: &str) -> bool {
    line.starts_with("bestmove")
}

/// Runs [`SCRIPT`] through the binary: `> ` before what the GUI wrote, `< ` before what the
/// engine answered.
fn run_session() -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cb2026"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the engine starts");
    let mut stdin = child.stdin.take().expect("a stdin");
    let stdout = child.stdout.take().expect("a stdout");
    let (sender, lines) = mpsc::channel();
    thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    let mut transcript = String::new();
    for (command, last) in SCRIPT {
        writeln!(stdin, "{command}").expect("the engine reads");
        transcript.push_str(&format!("> {command}\n"));
        let Some(last) = last else { continue };
        loop {
            let line = lines
                .recv_timeout(Duration::from_secs(60))
                .unwrap_or_else(|_| panic!("no answer to {command}:\n{transcript}"));
            transcript.push_str(&format!("< {line}\n"));
            if last(&line) {
                break;
            }
        }
    }
    let status = child.wait().expect("the engine ends");
    assert!(status.success(), "{status}");
    let rest: Vec<String> = lines.try_iter().collect();
    assert!(rest.is_empty(), "nothing after the last answer: {rest:?}");
    transcript
}

/// `text` with the numbers that depend on the machine replaced by `_`: the word after `time`
/// and `nps`, and the megabytes in "the N MB this machine can give".
fn masked(text: &str) -> String {
    let mut out = Vec::new();
    for line in text.lines() {
        let words: Vec<&str> = line.split(' ').collect();
        let masked: Vec<&str> = words
            .iter()
            .enumerate()
            .map(|(i, &word)| {
                let before = i.checked_sub(1).map(|j| words[j]);
                let after = words.get(i + 1).copied();
                let timing = matches!(before, Some("time" | "nps")) && line.starts_with("< info");
                let memory = before == Some("the") && after == Some("MB");
                if timing || memory { "_" } else { word }
            })
            .collect();
        out.push(masked.join(" "));
    }
    out.join("\n")
}

#[test]
fn the_books_transcript_is_what_the_engine_says() {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../book/src/ch15-1-transcript.txt");
    let now = run_session();
    let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false");
    if std::env::var_os("UPDATE_TRANSCRIPT").is_some() && !ci {
        std::fs::write(&path, &now).expect("the book is writable");
        return;
    }
    let stored = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(
        masked(&stored),
        masked(&now),
        "the session differs from {} (UPDATE_TRANSCRIPT=1 to store it, then re-read the page)",
        path.display()
    );
}

#[test]
fn masking_hides_timings_only() {
    let line = "< info depth 1 seldepth 1 score cp 20 nodes 20 nps 20000 hashfull 0 time 1 pv e2e4";
    assert_eq!(
        masked(line),
        "< info depth 1 seldepth 1 score cp 20 nodes 20 nps _ hashfull 0 time _ pv e2e4"
    );
    assert_eq!(masked("> go movetime 1000"), "> go movetime 1000");
}
