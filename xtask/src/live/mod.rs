//! The live book: the engine behind the **Run it here** panels, served by `cargo xtask serve`.
//!
//! A reader who serves the book has the engine on their machine, so a page can use it. The
//! server builds the release engine once (in the background, with cargo's progress on the
//! terminal) and answers two requests under `/__engine/`:
//!
//! - `GET /__engine/hello`: whether the engine is ready, building or failed, how many searches
//!   run, and the limits, as JSON. A panel shows its controls only once this answers `ready`.
//! - `GET /__engine/search?page=..&fen=..&stage=..&switch=NAME:on|off&depth=N` (or
//!   `movetime=MS`): one search, streamed as server-sent events (`text/event-stream`): a
//!   `command` event per line sent to the engine, an `info` event per `info` line as it comes, a
//!   `bestmove` event, then `done`; or `stopped` and `error` with a reason.
//!
//! The rules, each for a reason:
//!
//! - The server listens on 127.0.0.1 only (`serve.rs`): the engine is the reader's, not the
//!   network's.
//! - A request is checked whole before anything runs ([`request`]): a FEN the engine's parser
//!   accepts, a known stage and switch, a depth up to 30 or a time up to 60 s, and no other
//!   parameter. Anything else gets `400 Bad Request` with what was wrong. The engine is a fixed
//!   binary started without a shell; nothing of the request becomes a path or a command line.
//! - Every search gets its own engine process, started, configured, searched and ended: two
//!   searches never share a table, and the table is empty as the chapters' figures need.
//! - One search at a time per page (the `page` token): a page's new search ends its old one
//!   first. At most [`MAX_SEARCHES`] run at once on the machine; more get `503`.
//! - A search whose page went away is stopped: while the engine thinks, the stream gets a
//!   comment line every [`HEARTBEAT`], and the first write that fails (the page closed its
//!   connection) sends `stop` and ends the engine. No search runs longer than
//!   [`request::MAX_MOVETIME_MS`] plus a grace.
//!
//! The settings that make a search reproduce a chapter's pinned figure are the chapters' own
//! (`chapters/src/six.rs`): `Hash` 16 MB (the console's default, bench's and the figures'), one
//! thread, the stage's switches set one by one, `ucinewgame` (an empty table and histories),
//! then `position fen` and `go depth N`. The `nodes` of the last `info` line is then the
//! figure's `stats.nodes`, node for node.

pub mod request;
mod search;

use request::{MAX_DEPTH, MAX_MOVETIME_MS, SearchRequest};
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Searches at once, all pages together: the machine's cores are the reader's.
pub const MAX_SEARCHES: usize = 4;

/// How often a stream with nothing to say writes a comment, to find out whether the page is
/// still there.
pub const HEARTBEAT: Duration = Duration::from_millis(250);

/// How long a page's new search waits for its old one to end.
const REPLACE_WAIT: Duration = Duration::from_secs(3);

/// The engine the panels use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineState {
    /// `cargo build --release -p cb2026` is running.
    Building,
    /// The binary to run.
    Ready(PathBuf),
    /// Why there is none.
    Failed(String),
}

/// The live half of the server: the engine and the searches running.
#[derive(Debug)]
pub struct Live {
    engine: Mutex<EngineState>,
    /// Page token -> the flag that asks its search to end.
    running: Mutex<BTreeMap<String, Arc<AtomicBool>>>,
}

/// Locks a mutex, taking the data of a poisoned one (a panicked request thread leaves the map
/// consistent: every change to it is one call).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poison| poison.into_inner())
}

impl Live {
    pub fn new(engine: EngineState) -> Live {
        Live {
            engine: Mutex::new(engine),
            running: Mutex::new(BTreeMap::new()),
        }
    }

    /// Records the end of the engine's build.
    pub fn set_engine(&self, engine: EngineState) {
        *lock(&self.engine) = engine;
    }

    /// How many searches run now.
    pub fn running(&self) -> usize {
        lock(&self.running).len()
    }

    /// The answer to `/__engine/hello`.
    pub fn hello(&self) -> String {
        let (state, message) = match &*lock(&self.engine) {
            EngineState::Building => ("building", String::new()),
            EngineState::Ready(_) => ("ready", String::new()),
            EngineState::Failed(why) => ("failed", why.clone()),
        };
        format!(
            "{{\"engine\":\"{state}\",\"message\":{},\"running\":{},\"max_searches\":{MAX_SEARCHES},\
             \"max_depth\":{MAX_DEPTH},\"max_movetime_ms\":{MAX_MOVETIME_MS}}}",
            json_string(&message),
            self.running()
        )
    }

    /// Answers a request whose target starts with `/__engine/`.
    pub fn respond(&self, method: &str, target: &str, stream: &mut TcpStream) -> io::Result<()> {
        let (path, query) = target.split_once('?').unwrap_or((target, ""));
        if method != "GET" {
            return refuse(
                stream,
                "405 Method Not Allowed",
                "the engine answers GET only",
            );
        }
        match path {
            "/__engine/hello" => crate::serve::send(
                stream,
                "200 OK",
                "application/json",
                self.hello().into_bytes(),
            ),
            "/__engine/search" => self.search(query, stream),
            _ => refuse(
                stream,
                "404 Not Found",
                "the engine answers /__engine/hello and /__engine/search only",
            ),
        }
    }

    /// `/__engine/search`: checks the request, then streams the search.
    fn search(&self, query: &str, stream: &mut TcpStream) -> io::Result<()> {
        let request = match SearchRequest::parse(query) {
            Ok(request) => request,
            Err(why) => return refuse(stream, "400 Bad Request", &format!("bad request: {why}")),
        };
        let engine = match &*lock(&self.engine) {
            EngineState::Ready(path) => path.clone(),
            EngineState::Building => {
                return refuse(
                    stream,
                    "503 Service Unavailable",
                    "the engine is still being built",
                );
            }
            EngineState::Failed(why) => {
                return refuse(
                    stream,
                    "503 Service Unavailable",
                    &format!("no engine: {why}"),
                );
            }
        };
        let claim = match self.claim(&request.page) {
            Ok(claim) => claim,
            Err(why) => return refuse(stream, "503 Service Unavailable", &why),
        };
        search::run(&engine, &request, &claim.cancel, stream)
    }

    /// Makes room for a search of `page`: ends the page's running search, then takes a place
    /// if one of the [`MAX_SEARCHES`] is free.
    fn claim(&self, page: &str) -> Result<Claim<'_>, String> {
        if let Some(old) = lock(&self.running).get(page) {
            old.store(true, Ordering::SeqCst);
        }
        let waited = Instant::now();
        while lock(&self.running).contains_key(page) {
            if waited.elapsed() > REPLACE_WAIT {
                return Err("this page's previous search did not end".to_string());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let mut running = lock(&self.running);
        if running.len() >= MAX_SEARCHES {
            return Err(format!(
                "busy: {} searches are running, the most this server runs at once",
                running.len()
            ));
        }
        let cancel = Arc::new(AtomicBool::new(false));
        running.insert(page.to_string(), Arc::clone(&cancel));
        Ok(Claim {
            live: self,
            page: page.to_string(),
            cancel,
        })
    }
}

/// A page's place among the running searches, given back when dropped.
#[derive(Debug)]
struct Claim<'a> {
    live: &'a Live,
    page: String,
    /// Set when the page starts another search.
    cancel: Arc<AtomicBool>,
}

impl Drop for Claim<'_> {
    fn drop(&mut self) {
        let mut running = lock(&self.live.running);
        if running
            .get(&self.page)
            .is_some_and(|flag| Arc::ptr_eq(flag, &self.cancel))
        {
            running.remove(&self.page);
        }
    }
}

/// An error answer in plain text, which the panel shows as it is.
fn refuse(stream: &mut TcpStream, status: &str, message: &str) -> io::Result<()> {
    crate::serve::send(
        stream,
        status,
        "text/plain; charset=utf-8",
        format!("{message}\n").into_bytes(),
    )
}

/// `text` as a JSON string.
fn json_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// One server-sent event: `event: NAME`, `data: TEXT`, a blank line. `text` is one line (a
/// line break would start another field, so any is turned into a space).
pub fn event(name: &str, text: &str) -> String {
    format!(
        "event: {name}\ndata: {}\n\n",
        text.replace(['\r', '\n'], " ")
    )
}

/// Writes and flushes `text` to the page: an error means the page went away.
fn write_to(stream: &mut TcpStream, text: &str) -> io::Result<()> {
    stream.write_all(text.as_bytes())?;
    stream.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_is_one_data_line() {
        assert_eq!(
            event("info", "info depth 1 nodes 20"),
            "event: info\ndata: info depth 1 nodes 20\n\n"
        );
        assert_eq!(event("error", "a\nb"), "event: error\ndata: a b\n\n");
    }

    #[test]
    fn hello_says_the_state_and_the_limits() {
        let live = Live::new(EngineState::Failed("cargo \"build\" failed".into()));
        assert_eq!(
            live.hello(),
            "{\"engine\":\"failed\",\"message\":\"cargo \\\"build\\\" failed\",\"running\":0,\
             \"max_searches\":4,\"max_depth\":30,\"max_movetime_ms\":60000}"
        );
    }

    #[test]
    fn a_page_has_one_search_and_the_machine_a_few() {
        let live = Live::new(EngineState::Building);
        let first = live.claim("a").unwrap();
        // A second search of page `a` asks the first to end, and waits for it.
        std::thread::scope(|scope| {
            let second = scope.spawn(|| live.claim("a").map(|claim| claim.page.clone()));
            while !first.cancel.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(5));
            }
            drop(first);
            assert_eq!(second.join().unwrap().unwrap(), "a");
        });
        assert_eq!(live.running(), 0);
        let claims: Vec<_> = (0..MAX_SEARCHES)
            .map(|i| live.claim(&format!("p{i}")).unwrap())
            .collect();
        assert!(live.claim("one-more").unwrap_err().starts_with("busy"));
        drop(claims);
        assert_eq!(live.running(), 0);
    }
}
