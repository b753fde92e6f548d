//! One UCI engine as a child process: start it, shake hands, set options, ask for moves, and end it.
//!
//! A reader thread turns the engine's standard output into a channel of lines, each stamped with
//! the instant it arrived, so the arena can wait with a deadline (a hung engine loses on time instead
//! of hanging the match) and measure thinking time from the moment `go` was written to the moment
//! `bestmove` was read. End of file on that channel means the process died: a crash.
//!
//! Engines run in their own process group, so the Ctrl-C a user types at the terminal reaches only
//! the arena, which then ends the engines itself (instead of every engine dying at once and being
//! scored as crashed).

use crate::process;
use crate::spec::EngineSpec;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How long an engine may take to answer `uci` or `isready` before the arena gives up on it.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(15);

/// How often a waiting arena looks at the stop flag.
const POLL: Duration = Duration::from_millis(20);

/// What went wrong talking to an engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineError {
    /// The process could not be started (no such file, not executable...).
    Spawn(String),
    /// The process closed its output or its input: it exited or crashed.
    Exited,
    /// No answer before the deadline.
    Timeout,
    /// The match was stopped while waiting.
    Aborted,
    /// The engine answered something the arena cannot use (e.g. an option it does not have).
    Protocol(String),
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Spawn(why) => write!(f, "could not start: {why}"),
            EngineError::Exited => write!(f, "the engine exited"),
            EngineError::Timeout => write!(f, "no answer in time"),
            EngineError::Aborted => write!(f, "stopped"),
            EngineError::Protocol(why) => write!(f, "{why}"),
        }
    }
}

/// A score as engines report it in `info ... score cp X` or `score mate N`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the engine's side to move.
    Cp(i32),
    /// Mate in N moves (negative: the engine is being mated).
    Mate(i32),
}

impl Score {
    /// The score as centipawns, mates as ±100000 minus the distance, for comparisons with
    /// adjudication thresholds.
    pub fn as_cp(self) -> i32 {
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n > 0 => 100_000 - n,
            Score::Mate(n) => -100_000 - n,
        }
    }
}

/// The engine's answer to one `go`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// The move text after `bestmove`, unchecked.
    pub bestmove: String,
    /// From writing `go` to reading `bestmove`.
    pub elapsed: Duration,
    /// The last score and depth the engine reported before `bestmove`.
    pub score: Option<Score>,
    pub depth: Option<u32>,
    /// The last `nodes` and `time` (ms) it reported: with several threads, all of them.
    pub nodes: Option<u64>,
    pub time_ms: Option<u64>,
}

/// What `info` lines said, the last value of each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Reported {
    score: Option<Score>,
    depth: Option<u32>,
    nodes: Option<u64>,
    time_ms: Option<u64>,
}

/// A running UCI engine.
#[derive(Debug)]
pub struct UciEngine {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<(Instant, String)>,
    /// `id name` from the handshake.
    pub id_name: Option<String>,
    /// The option names the engine advertised in its `uci` answer.
    pub advertised: Vec<String>,
    /// What the engine got wrong in the protocol so far (see [`ProtocolCounts`]).
    pub protocol: ProtocolCounts,
}

/// Faults of the protocol that do not end a game but would trouble a GUI, counted per engine
/// over a match (the soak's figures).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ProtocolCounts {
    /// Lines that are not a UCI message an engine may send (`id`, `uciok`, `readyok`,
    /// `bestmove`, `copyprotection`, `registration`, `info`, `option`), and `info string
    /// error` lines, with which cb2026 reports a command it could not carry out.
    pub errors: u64,
    /// Commands never answered: a `uci` without `uciok` or an `isready` without `readyok` in
    /// [`HANDSHAKE_TIMEOUT`], a `go` still without `bestmove` a second after `stop`.
    pub unanswered: u64,
}

impl ProtocolCounts {
    pub fn add(&mut self, other: ProtocolCounts) {
        self.errors += other.errors;
        self.unanswered += other.unanswered;
    }
}

/// Whether a line from an engine breaks the protocol: a message UCI does not define, or an
/// error the engine reports about a command it was sent. Blank lines are harmless.
pub fn is_protocol_error(line: &str) -> bool {
    const ENGINE_MESSAGES: [&str; 8] = [
        "id",
        "uciok",
        "readyok",
        "bestmove",
        "copyprotection",
        "registration",
        "info",
        "option",
    ];
    let mut words = line.split_whitespace();
    match words.next() {
        None => false,
        Some("info") => words.next() == Some("string") && words.next() == Some("error:"),
        Some(first) => !ENGINE_MESSAGES.contains(&first),
    }
}

impl UciEngine {
    /// Starts the engine and completes the `uci` / `uciok` handshake.
    pub fn start(spec: &EngineSpec) -> Result<Self, EngineError> {
        let mut engine = UciEngine::spawn(spec)?;
        engine.handshake()?;
        Ok(engine)
    }

    /// Starts the engine and says nothing to it: for a caller that holds the conversation
    /// itself from the first line (the engine's own session tests).
    pub fn spawn(spec: &EngineSpec) -> Result<Self, EngineError> {
        let mut child = process::engine_command(&spec.cmd, &spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| EngineError::Spawn(format!("`{}`: {e}", spec.cmd)))?;
        let stdin = child.stdin.take().ok_or(EngineError::Exited)?;
        let stdout = child.stdout.take().ok_or(EngineError::Exited)?;
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send((Instant::now(), line)).is_err() {
                    break;
                }
            }
        });
        Ok(UciEngine {
            name: spec.name.clone(),
            child,
            stdin,
            lines,
            id_name: None,
            advertised: Vec::new(),
            protocol: ProtocolCounts::default(),
        })
    }

    /// The engine's name in the match (from its spec).
    pub fn name(&self) -> &str {
        &self.name
    }

    fn handshake(&mut self) -> Result<(), EngineError> {
        self.send("uci")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        loop {
            let (_, line) = self.next_answer_line(deadline, None)?;
            if let Some(name) = line.strip_prefix("id name ") {
                self.id_name = Some(name.trim().to_string());
            } else if let Some(option) = line.strip_prefix("option name ") {
                let name = option.split(" type ").next().unwrap_or(option).trim();
                self.advertised.push(name.to_string());
            } else if line.trim() == "uciok" {
                return Ok(());
            }
        }
    }

    /// Whether the engine advertised an option of this name (UCI option names are case-insensitive).
    pub fn advertises(&self, option: &str) -> bool {
        self.advertised
            .iter()
            .any(|name| name.eq_ignore_ascii_case(option))
    }

    /// Sets options with `setoption`, refusing any the engine did not advertise (a typo in a spec
    /// would otherwise be ignored silently and the match would measure nothing), then waits until
    /// the engine is ready.
    pub fn configure(&mut self, options: &[(String, String)]) -> Result<(), EngineError> {
        for (name, value) in options {
            if !self.advertises(name) {
                return Err(EngineError::Protocol(format!(
                    "engine {} has no option `{name}` (it offers: {})",
                    self.name,
                    self.advertised.join(", ")
                )));
            }
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        self.sync(None)
    }

    /// `isready` / `readyok`: waits until the engine has processed everything sent so far.
    pub fn sync(&mut self, abort: Option<&AtomicBool>) -> Result<(), EngineError> {
        self.send("isready")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        loop {
            if self.next_answer_line(deadline, abort)?.1.trim() == "readyok" {
                return Ok(());
            }
        }
    }

    /// Prepares for a new game: `ucinewgame`, then `isready`.
    pub fn new_game(&mut self, abort: &AtomicBool) -> Result<(), EngineError> {
        self.send("ucinewgame")?;
        self.sync(Some(abort))
    }

    /// Sends `position` and `go`, and waits for `bestmove` until `limit` has passed since `go` was
    /// written. Lines left over from an earlier search are discarded first.
    pub fn go(
        &mut self,
        position: &str,
        go: &str,
        limit: Duration,
        abort: &AtomicBool,
    ) -> Result<Reply, EngineError> {
        let sent = self.start_search(position, go)?;
        self.bestmove(sent, sent + limit, abort)
    }

    /// Sends `position` and `go` after dropping what an earlier search left unread; returns
    /// when `go` was written, from which the move's time is counted.
    fn start_search(&mut self, position: &str, go: &str) -> Result<Instant, EngineError> {
        self.drain();
        self.send(position)?;
        self.send(go)?;
        Ok(Instant::now())
    }

    /// Sends `position` and `go` (`go infinite`, say), `stop` once `run_for` has passed, and
    /// waits up to `limit` after `stop` for `bestmove`. Returns the reply and how long after
    /// `stop` was written the `bestmove` was read: how fast a stop reaches every thread.
    pub fn go_then_stop(
        &mut self,
        position: &str,
        go: &str,
        run_for: Duration,
        limit: Duration,
        abort: &AtomicBool,
    ) -> Result<(Reply, Duration), EngineError> {
        let sent = self.start_search(position, go)?;
        std::thread::sleep(run_for);
        self.send("stop")?;
        let stopped = Instant::now();
        let reply = self.bestmove(sent, stopped + limit, abort)?;
        let after_stop = (sent + reply.elapsed).saturating_duration_since(stopped);
        Ok((reply, after_stop))
    }

    /// Reads lines until `bestmove`, keeping what the `info` lines report.
    fn bestmove(
        &mut self,
        sent: Instant,
        deadline: Instant,
        abort: &AtomicBool,
    ) -> Result<Reply, EngineError> {
        let mut reported = Reported::default();
        loop {
            let (at, line) = self.next_line(deadline, Some(abort))?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("info") => parse_info(&line, &mut reported),
                Some("bestmove") => {
                    let bestmove = words.next().unwrap_or("").to_string();
                    return Ok(Reply {
                        bestmove,
                        elapsed: at.saturating_duration_since(sent),
                        score: reported.score,
                        depth: reported.depth,
                        nodes: reported.nodes,
                        time_ms: reported.time_ms,
                    });
                }
                _ => {}
            }
        }
    }

    /// The process's id, for reading its CPU time ([`crate::process::process_cpu_time`]).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends `command` (any line: `perft 6`, `go perft 5`, `bench`) and returns every line the
    /// engine answers up to and including the first that starts with `last`, which must come
    /// within `limit`.
    pub fn command_until(
        &mut self,
        command: &str,
        last: &str,
        limit: Duration,
    ) -> Result<Vec<String>, EngineError> {
        self.drain();
        self.send(command)?;
        self.read_until(|line| line.starts_with(last), limit)
    }

    /// After a `go` that ran out of time: sends `stop` and waits up to `grace` for the
    /// `bestmove` every search owes. Returns whether it came; if not, the `go` counts as
    /// unanswered.
    pub fn stop_and_collect(&mut self, grace: Duration) -> bool {
        if self.send("stop").is_err() {
            return false;
        }
        let deadline = Instant::now() + grace;
        while let Ok((_, line)) = self.next_line(deadline, None) {
            if line.split_whitespace().next() == Some("bestmove") {
                return true;
            }
        }
        self.protocol.unanswered += 1;
        false
    }

    /// Writes bytes as they are, a line's end included or not (a test of what bad input gets).
    pub fn send_bytes(&mut self, bytes: &[u8]) -> Result<(), EngineError> {
        self.stdin
            .write_all(bytes)
            .and_then(|()| self.stdin.flush())
            .map_err(|_| EngineError::Exited)
    }

    /// The lines the engine sends up to and including the first for which `last` holds, which
    /// must come within `limit`.
    pub fn read_until(
        &mut self,
        last: impl Fn(&str) -> bool,
        limit: Duration,
    ) -> Result<Vec<String>, EngineError> {
        let deadline = Instant::now() + limit;
        let mut lines = Vec::new();
        loop {
            let (_, line) = self.next_answer_line(deadline, None)?;
            let done = last(&line);
            lines.push(line);
            if done {
                return Ok(lines);
            }
        }
    }

    /// The next line the engine sends, if one comes within `wait` (`Ok(None)`: none yet), for
    /// a caller that passes the engine's lines on as they come: the book's Run it here panels
    /// (`cargo xtask serve`), which must notice between lines that the page went away.
    pub fn line_within(&mut self, wait: Duration) -> Result<Option<String>, EngineError> {
        match self.next_line(Instant::now() + wait, None) {
            Ok((_, line)) => Ok(Some(line)),
            Err(EngineError::Timeout) => Ok(None),
            Err(error) => Err(error),
        }
    }

    /// Sends `quit` and waits up to `limit` for the process to end; its exit status, or
    /// `None` if it did not end in time (it is killed when dropped).
    pub fn quit(mut self, limit: Duration) -> Option<std::process::ExitStatus> {
        let _ = self.send("quit");
        let deadline = Instant::now() + limit;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        None
    }

    /// Writes one line to the engine (a command whose answer, if any, the caller reads).
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|_| EngineError::Exited)
    }

    /// [`Self::next_line`] for an answer that must come: a timeout counts as unanswered.
    fn next_answer_line(
        &mut self,
        deadline: Instant,
        abort: Option<&AtomicBool>,
    ) -> Result<(Instant, String), EngineError> {
        let line = self.next_line(deadline, abort);
        if matches!(line, Err(EngineError::Timeout)) {
            self.protocol.unanswered += 1;
        }
        line
    }

    /// Reads and forgets what the engine sent since the last answer was read (a late `info`
    /// of an earlier search), watching it for protocol errors.
    fn drain(&mut self) {
        while let Ok((_, line)) = self.lines.try_recv() {
            self.watch(&line);
        }
    }

    /// Counts a line that breaks the protocol.
    fn watch(&mut self, line: &str) {
        if is_protocol_error(line) {
            self.protocol.errors += 1;
        }
    }

    /// The next line before `deadline`, checking `abort` while waiting; each line read is
    /// watched for protocol errors.
    fn next_line(
        &mut self,
        deadline: Instant,
        abort: Option<&AtomicBool>,
    ) -> Result<(Instant, String), EngineError> {
        loop {
            if abort.is_some_and(|a| a.load(Ordering::Relaxed)) {
                return Err(EngineError::Aborted);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(EngineError::Timeout);
            }
            match self.lines.recv_timeout(left.min(POLL)) {
                Ok(line) => {
                    self.watch(&line.1);
                    return Ok(line);
                }
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => return Err(EngineError::Exited),
            }
        }
    }
}

/// Reads `score cp X` / `score mate N` and `depth D` from an `info` line, keeping earlier values
/// when the line has none (e.g. `info string ...` or `info currmove ...`). Bound scores
/// (`lowerbound`/`upperbound`) are taken as they are. Lines of a second or later principal variation
/// (`multipv 2` ...) are skipped: their score is not the engine's evaluation of the position (Stockfish
/// at limited strength searches four lines and reports all of them).
fn parse_info(line: &str, reported: &mut Reported) {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.get(1) == Some(&"string") {
        return;
    }
    let multipv = words.windows(2).find(|w| w[0] == "multipv").map(|w| w[1]);
    if multipv.is_some_and(|n| n != "1") {
        return;
    }
    let r = reported;
    for (i, word) in words.iter().enumerate() {
        match (*word, words.get(i + 1), words.get(i + 2)) {
            ("depth", Some(d), _) => r.depth = d.parse().ok().or(r.depth),
            ("nodes", Some(n), _) => r.nodes = n.parse().ok().or(r.nodes),
            ("time", Some(t), _) => r.time_ms = t.parse().ok().or(r.time_ms),
            ("score", Some(&"cp"), Some(v)) => r.score = v.parse().ok().map(Score::Cp).or(r.score),
            ("score", Some(&"mate"), Some(v)) => {
                r.score = v.parse().ok().map(Score::Mate).or(r.score)
            }
            _ => {}
        }
    }
}

impl Drop for UciEngine {
    /// Asks the engine to quit, gives it a moment, then kills it: a hung engine must not outlive
    /// the arena.
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush());
        let until = Instant::now() + Duration::from_millis(200);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_give_the_last_score_depth_nodes_and_time() {
        let mut r = Reported::default();
        parse_info(
            "info depth 7 seldepth 9 score cp -35 nodes 1000 nps 5 time 12 pv e2e4",
            &mut r,
        );
        assert_eq!(
            (r.score, r.depth, r.nodes, r.time_ms),
            (Some(Score::Cp(-35)), Some(7), Some(1000), Some(12))
        );
        parse_info("info currmove e2e4 currmovenumber 1", &mut r);
        assert_eq!((r.score, r.depth), (Some(Score::Cp(-35)), Some(7)));
        parse_info("info depth 9 score mate -3 pv e2e4", &mut r);
        assert_eq!((r.score, r.depth), (Some(Score::Mate(-3)), Some(9)));
        parse_info("info string score cp 999 nodes 5", &mut r);
        assert_eq!((r.score, r.nodes), (Some(Score::Mate(-3)), Some(1000)));
        parse_info("info depth 10 multipv 2 score cp 640 pv d2d4", &mut r);
        assert_eq!((r.score, r.depth), (Some(Score::Mate(-3)), Some(9)));
        parse_info("info depth 11 multipv 1 score cp 12 pv d2d4", &mut r);
        assert_eq!((r.score, r.depth), (Some(Score::Cp(12)), Some(11)));
    }

    #[test]
    fn protocol_errors_are_lines_uci_does_not_define() {
        for fine in [
            "id name cb2026",
            "uciok",
            "readyok",
            "bestmove e2e4 ponder e7e5",
            "info depth 3 score cp 20 pv e2e4",
            "info string NNUE evaluation enabled",
            "option name Hash type spin default 16 min 1 max 1024",
            "",
        ] {
            assert!(!is_protocol_error(fine), "{fine:?}");
        }
        for wrong in [
            "info string error: unknown command: frobnicate",
            "Illegal move: e2e5",
            "thinking...",
            "bestmov e2e4",
        ] {
            assert!(is_protocol_error(wrong), "{wrong:?}");
        }
    }

    #[test]
    fn mates_compare_beyond_any_centipawn_score() {
        assert!(Score::Mate(5).as_cp() > Score::Cp(5000).as_cp());
        assert!(Score::Mate(-5).as_cp() < Score::Cp(-5000).as_cp());
        assert!(Score::Mate(1).as_cp() > Score::Mate(3).as_cp());
    }
}
