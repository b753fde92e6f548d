//! The body of the `uci` fuzz target (see `fuzz_targets/uci.rs` for what it checks and why),
//! kept apart from libfuzzer-sys so that `crates/engine/tests/fuzz_seeds.rs` can run it over
//! the seed corpus in the ordinary test suite.

use cb2026::uci::{Flow, Output, Session};
use std::io::{self, Write};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How long the answers to every `go` may take after the final `stop`.
const PATIENCE: Duration = Duration::from_secs(10);

/// The largest `Hash` a fuzzed line may set.
const MAX_HASH_MB: u64 = 8;

/// Plays `data` as a session: lines end at '\n' and bytes that are not UTF-8 become U+FFFD, as
/// `uci::run` reads them. Panics if the session panics, fails to write, or leaves a `go`
/// without exactly one `bestmove`.
pub fn check_bytes(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    check(text.split('\n'));
}

/// Plays `lines` through a session and checks that every `go` was answered.
fn check<'a>(lines: impl Iterator<Item = &'a str>) {
    let buffer = Buffer::default();
    let mut session = Session::new(Output::new(buffer.clone()));
    handle(&mut session, "setoption name Hash value 1");
    let mut gos = 0;
    let mut quit = false;
    for line in lines.filter(|l| !sets_a_large_hash(l)) {
        if line.split_whitespace().next() == Some("go") {
            gos += 1;
        }
        if handle(&mut session, line) == Flow::Quit {
            quit = true;
            break;
        }
    }
    if !quit {
        handle(&mut session, "stop");
        let deadline = Instant::now() + PATIENCE;
        while bestmoves(&buffer.text()) < gos && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(1));
        }
        handle(&mut session, "quit");
    }
    let text = buffer.text();
    assert_eq!(
        bestmoves(&text),
        gos,
        "every go answers one bestmove; the session said:\n{text}"
    );
}

/// Hands `line` to the session, which must not fail: writing to memory cannot.
fn handle(session: &mut Session, line: &str) -> Flow {
    match session.handle(line) {
        Ok(flow) => flow,
        Err(error) => panic!("handle({line:?}) failed: {error}"),
    }
}

/// The number of `bestmove` lines in `text`.
fn bestmoves(text: &str) -> usize {
    text.lines().filter(|l| l.starts_with("bestmove ")).count()
}

/// Whether `line` is a `setoption` of the hash table (any spelling the session accepts) with
/// a number above [`MAX_HASH_MB`].
fn sets_a_large_hash(line: &str) -> bool {
    let words: Vec<String> = line
        .split_whitespace()
        .map(str::to_ascii_lowercase)
        .collect();
    words.first().is_some_and(|w| w == "setoption")
        && words.iter().any(|w| w == "hash")
        && words
            .iter()
            .any(|w| w.parse::<u64>().is_ok_and(|mb| mb > MAX_HASH_MB))
}

/// The session's output, kept in memory.
#[derive(Clone, Default)]
struct Buffer(Arc<Mutex<Vec<u8>>>);

impl Buffer {
    fn text(&self) -> String {
        let bytes = self.0.lock().unwrap_or_else(|p| p.into_inner());
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

impl Write for Buffer {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let mut buffer = self.0.lock().unwrap_or_else(|p| p.into_inner());
        buffer.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
