//! One search for a page: a fresh engine process, set as the chapters set theirs, its `info`
//! lines passed on as server-sent events while they come, stopped when the page goes away.

use super::request::{Limit, MAX_MOVETIME_MS, SearchRequest};
use super::{HEARTBEAT, event, refuse, write_to};
use arena::spec::EngineSpec;
use arena::uci::UciEngine;
use cb2026::switches::SWITCHES;
use cb2026::uci::DEFAULT_HASH_MB;
use std::io;
use std::net::TcpStream;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// No search runs longer than this, whatever it asked: the longest `movetime` and a grace.
const WALL_LIMIT: Duration = Duration::from_millis(MAX_MOVETIME_MS + 5_000);

/// How long a stopped engine has to answer `bestmove`, and then to quit.
const STOP_GRACE: Duration = Duration::from_secs(2);

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    /// `bestmove` came.
    Done,
    /// Writing to the page failed: it closed the connection.
    PageGone,
    /// The same page started another search.
    Replaced,
    /// [`WALL_LIMIT`] passed.
    TooLong,
    /// The engine exited or broke the protocol.
    EngineFailed,
}

impl End {
    /// What the page (if still there) and the terminal are told.
    fn reason(self) -> String {
        match self {
            End::Done => "done".to_string(),
            End::PageGone => "stopped: the page went away".to_string(),
            End::Replaced => "stopped: the page started another search".to_string(),
            End::TooLong => format!(
                "stopped: the server runs a search {} s at most",
                WALL_LIMIT.as_secs()
            ),
            End::EngineFailed => "the engine failed".to_string(),
        }
    }
}

/// The options that make a search the chapters' search: their table size, one thread, and
/// every switch set explicitly, so the engine's defaults play no part.
fn options(request: &SearchRequest) -> Vec<(String, String)> {
    let mut options = vec![
        ("Hash".to_string(), DEFAULT_HASH_MB.to_string()),
        ("Threads".to_string(), "1".to_string()),
    ];
    for info in &SWITCHES {
        let on = request.switches.get(info.name).unwrap_or(info.default);
        options.push((info.name.to_string(), on.to_string()));
    }
    options
}

/// Runs `request` on a new process of `engine` and streams it to `stream`.
pub(super) fn run(
    engine: &Path,
    request: &SearchRequest,
    cancel: &AtomicBool,
    stream: &mut TcpStream,
) -> io::Result<()> {
    let options = options(request);
    let never = AtomicBool::new(false);
    let started = UciEngine::start(&EngineSpec::new("cb2026", engine.display().to_string()))
        .and_then(|mut uci| uci.configure(&options).map(|()| uci))
        .and_then(|mut uci| uci.new_game(&never).map(|()| uci));
    let mut uci = match started {
        Ok(uci) => uci,
        Err(error) => {
            return refuse(
                stream,
                "500 Internal Server Error",
                &format!("the engine did not start: {error}"),
            );
        }
    };
    write_to(
        stream,
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n\
         Connection: close\r\n\r\n",
    )?;
    let position = format!("position fen {}", request.position.to_fen());
    let go = request.limit.go_command();
    let mut sent: Vec<String> = vec!["uci".to_string()];
    sent.extend(
        options
            .iter()
            .map(|(name, value)| format!("setoption name {name} value {value}")),
    );
    sent.extend(["isready", "ucinewgame", "isready"].map(str::to_string));
    sent.extend([position.clone(), go.clone()]);
    let announced: String = sent.iter().map(|line| event("command", line)).collect();
    let end = match write_to(stream, &announced) {
        Err(_) => End::PageGone,
        Ok(()) => match uci.send(&position).and_then(|()| uci.send(&go)) {
            Ok(()) => relay(&mut uci, cancel, stream),
            Err(_) => End::EngineFailed,
        },
    };
    if end != End::Done {
        uci.stop_and_collect(STOP_GRACE);
        let _ = write_to(stream, &event("stopped", &end.reason()));
    } else {
        let _ = write_to(stream, &event("done", ""));
    }
    uci.quit(STOP_GRACE);
    println!(
        "live: {} at stage {}, {}: {}",
        request.position.to_fen(),
        request.stage,
        describe(request.limit),
        end.reason()
    );
    Ok(())
}

/// `depth 8` or `movetime 500 ms`, for the terminal.
fn describe(limit: Limit) -> String {
    match limit {
        Limit::Depth(depth) => format!("depth {depth}"),
        Limit::Movetime(ms) => format!("movetime {ms} ms"),
    }
}

/// Passes the engine's lines to the page until `bestmove`, or until the search must end.
fn relay(uci: &mut UciEngine, cancel: &AtomicBool, stream: &mut TcpStream) -> End {
    let started = Instant::now();
    loop {
        if cancel.load(Ordering::SeqCst) {
            return End::Replaced;
        }
        if started.elapsed() > WALL_LIMIT {
            return End::TooLong;
        }
        let (text, last) = match uci.line_within(HEARTBEAT) {
            Ok(Some(line)) => {
                let kind = match line.split_whitespace().next() {
                    Some("info") => "info",
                    Some("bestmove") => "bestmove",
                    _ => "engine",
                };
                (event(kind, &line), kind == "bestmove")
            }
            // A comment line: the page ignores it, but a closed page makes the write fail.
            Ok(None) => (": still searching\n\n".to_string(), false),
            Err(error) => {
                let _ = write_to(stream, &event("error", &format!("the engine: {error}")));
                return End::EngineFailed;
            }
        };
        if write_to(stream, &text).is_err() {
            return End::PageGone;
        }
        if last {
            return End::Done;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_switch_is_set_with_the_chapters_table_size_and_one_thread() {
        let request = SearchRequest::parse(
            "page=p&fen=1K1k4%2F1P6%2F8%2F8%2F8%2F8%2Fr7%2F2R5+w+-+-+0+1&stage=11\
             &switch=nullmove:off&depth=8",
        )
        .unwrap();
        let options = options(&request);
        assert_eq!(options[0], ("Hash".to_string(), "16".to_string()));
        assert_eq!(options[1], ("Threads".to_string(), "1".to_string()));
        assert_eq!(options.len(), 2 + SWITCHES.len());
        let value = |name: &str| {
            options
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
        };
        assert_eq!(value("nullmove"), Some("false"));
        assert_eq!(value("pvs"), Some("true"));
        assert_eq!(value("lmr"), Some("false"), "chapter 12's, after stage 11");
    }
}
