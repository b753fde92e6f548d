//! The session: what the GUI has told the engine, and the UCI commands that change it.

use super::go::{Go, search_limits};
use super::options::Settings;
use super::output::Output;
use super::worker::{self, Job, JobKind};
use super::{CommandError, input_error, shorten};
use crate::position::Position;
use crate::search::{Score, Searcher};
use std::io::{self, Write};
use std::sync::atomic::Ordering;
use std::time::Instant;

/// What the caller should do after a line was handled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// `quit` was received: stop.
    Quit,
}

/// The engine's state between commands.
#[derive(Debug)]
pub struct Session {
    /// The position of the last good `position` command (the start position before any).
    /// `None` after a `position` that was refused: the GUI meant another position, and a move
    /// for the old one would be illegal or absurd in it.
    pub(super) position: Option<Position>,
    pub(super) out: Output,
    pub(super) settings: Settings,
    /// The searcher while no search runs (a running search holds it). Made when first needed.
    pub(super) searcher: Option<Searcher>,
    /// The job running on the worker thread, or the last one until it is waited for.
    pub(super) job: Option<Job>,
}

impl Session {
    /// A session at the start position, answering on `out`.
    pub fn new(out: Output) -> Session {
        Session {
            position: Some(Position::startpos()),
            out,
            settings: Settings::default(),
            searcher: None,
            job: None,
        }
    }

    /// The current position: `None` after a `position` command that was refused.
    pub fn position(&self) -> Option<&Position> {
        self.position.as_ref()
    }

    /// Whether a search is running: it has not answered `bestmove` yet.
    pub fn searching(&self) -> bool {
        self.job
            .as_ref()
            .is_some_and(|j| j.is_search() && j.running())
    }

    // ANCHOR: handle
    /// Handles one line of input. Errors in the input are answered on the output; only a
    /// failure to write is returned as an error.
    pub fn handle(&mut self, line: &str) -> io::Result<Flow> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            return Ok(Flow::Continue);
        };
        let result = match command {
            "uci" => self.uci(),
            "debug" => self.debug(args),
            "isready" => self.is_ready(),
            "register" => Ok(()),
            "setoption" => self.set_option(args),
            "ucinewgame" => self.new_game(),
            "position" => self.set_position(args),
            "go" => self.go(args),
            "stop" => self.stop(),
            "ponderhit" => self.ponder_hit(),
            "quit" => {
                self.end_job(true);
                return Ok(Flow::Quit);
            }
            _ => self.console(command, args),
        };
        match result {
            Ok(()) => Ok(Flow::Continue),
            Err(CommandError::Input(message)) => {
                self.out.line(&format!("info string error: {message}"))?;
                Ok(Flow::Continue)
            }
            Err(CommandError::Io(error)) => Err(error),
        }
    }
    // ANCHOR_END: handle

    /// Ends the session when the input ends: a job that ends by itself is waited for (so
    /// `echo "go depth 8" | cb2026` prints its move), a search that waits for `stop` is stopped.
    pub fn finish(&mut self) {
        let infinite = self
            .job
            .as_ref()
            .is_some_and(|j| matches!(j.kind, JobKind::Search { infinite: true, .. }));
        self.end_job(infinite);
    }

    /// `uci`: identify, list the options, then `uciok`.
    fn uci(&mut self) -> Result<(), CommandError> {
        let mut lines = vec![
            format!("id name cb2026 {}", env!("CARGO_PKG_VERSION")),
            "id author the cb2026 authors".to_string(),
        ];
        lines.extend(super::options::option_lines());
        lines.push("uciok".to_string());
        self.out.line(&lines.join("\n"))?;
        Ok(())
    }

    /// `debug on|off`: accepted, and changes nothing: the engine has no more to say in debug
    /// mode than its `info` lines already do.
    fn debug(&mut self, args: &[&str]) -> Result<(), CommandError> {
        match args {
            ["on" | "off"] => Ok(()),
            _ => input_error("debug: expected 'debug on' or 'debug off'"),
        }
    }

    /// `isready`: answered at once, even while a job runs. With no job holding it, the searcher
    /// is made first if it was not: GUIs send `isready` after the options and before the first
    /// `go`, so the table is allocated before the clock runs.
    fn is_ready(&mut self) -> Result<(), CommandError> {
        if self.searcher.is_none() && !self.job.as_ref().is_some_and(Job::is_search) {
            self.searcher = Some(self.settings.searcher());
        }
        self.out.line("readyok")?;
        Ok(())
    }

    /// `ucinewgame`: forget the previous game (table and histories), so a game does not depend
    /// on the ones before it.
    fn new_game(&mut self) -> Result<(), CommandError> {
        self.idle_searcher("ucinewgame")?.clear();
        Ok(())
    }

    // ANCHOR: set_position
    /// `position startpos|fen <FEN> [moves <move>...]`. A position that does not parse, or a
    /// move that is not legal, is refused, and the session then has no position until a good
    /// `position` comes: a GUI that sent it plays from that position, not from the last one.
    fn set_position(&mut self, args: &[&str]) -> Result<(), CommandError> {
        let parsed = parse_position(args);
        self.position = parsed.as_ref().ok().cloned();
        parsed.map(drop).map_err(|e| {
            CommandError::Input(format!("position: {e}; no position until a good one"))
        })
    }
    // ANCHOR_END: set_position

    // ANCHOR: go
    /// `go ...`: answered by exactly one `bestmove`, whatever its arguments. A job still
    /// running is ended first (a GUI should have sent `stop`; the search it started answers
    /// before this one). A `go` that cannot be read, or with no position to search, is
    /// answered at once with the error and `bestmove 0000`; so is a position without a legal
    /// move, with the reason (`score mate 0` or `cp 0`) as Stockfish gives it.
    fn go(&mut self, args: &[&str]) -> Result<(), CommandError> {
        let start = Instant::now();
        self.end_job(true);
        let Some(position) = self.position.clone() else {
            return self.refuse_go("no position (the last 'position' was refused)");
        };
        let (go, warnings) = match Go::parse(args) {
            Ok(parsed) => parsed,
            Err(error) => return self.refuse_go(&error),
        };
        for warning in &warnings {
            self.out.line(&format!("info string warning: {warning}"))?;
        }
        let side = position.side_to_move();
        if let Some(name) = go.missing_clock(side) {
            self.out.line(&format!(
                "info string warning: go: {name} is missing for the side to move; counting it as 0"
            ))?;
        }
        if position.legal_moves().is_empty() {
            let score = if position.in_check() {
                Score::Mate(0)
            } else {
                Score::Cp(0)
            };
            self.out
                .line(&format!("info depth 0 score {score}\nbestmove 0000"))?;
            return Ok(());
        }
        self.start_search(position, go, start);
        Ok(())
    }
    // ANCHOR_END: go

    /// Answers a `go` that cannot be searched: the error, then `bestmove 0000`, together.
    fn refuse_go(&mut self, message: &str) -> Result<(), CommandError> {
        let mut writer = self.out.lock();
        writeln!(writer, "info string error: {message}")?;
        writeln!(writer, "bestmove 0000")?;
        writer.flush()?;
        Ok(())
    }

    /// Starts searching `position` as `go` says, the clock having started at `start`.
    fn start_search(&mut self, position: Position, go: Go, start: Instant) {
        let mut searcher = match self.searcher.take() {
            Some(searcher) => searcher,
            None => self.settings.searcher(),
        };
        if searcher.threads() != self.settings.threads {
            searcher
                .set_threads(self.settings.threads)
                .expect("Threads is checked when it is set");
        }
        if searcher.switches() != self.settings.switches {
            searcher.set_switches(self.settings.switches);
        }
        let budget = go.budget(position.side_to_move(), self.settings.move_overhead);
        let limits = search_limits(&go, budget, start);
        let mate = (!limits.infinite).then_some(go.mate).flatten();
        let ponder = go.ponder.then(|| {
            let go = Go {
                ponder: false,
                ..go.clone()
            };
            Box::new((position.clone(), go))
        });
        self.job = worker::start_search(searcher, position, limits, mate, ponder, &self.out);
    }

    /// `stop`: the job ends; a search answers `bestmove` (a ponder search too: its move was
    /// not played). Without a job, nothing to do.
    fn stop(&mut self) -> Result<(), CommandError> {
        if let Some(job) = &mut self.job {
            job.stop();
        }
        Ok(())
    }

    // ANCHOR: ponder_hit
    /// `ponderhit`: the opponent played the expected move, so the position being pondered is
    /// the real one and the engine's clock now runs. The ponder search is stopped without a
    /// `bestmove` and a search with the real time limits starts on the same position. What the
    /// ponder search found is not lost: it is in the transposition table, where the new search
    /// finds it, so its first iterations end almost at once on table cutoffs.
    fn ponder_hit(&mut self) -> Result<(), CommandError> {
        let Some(job) = self.job.as_mut().filter(|j| j.running()) else {
            return Ok(()); // Not pondering: nothing to do.
        };
        let JobKind::Search { ponder, .. } = &mut job.kind else {
            return Ok(());
        };
        let Some(pondered) = ponder.take() else {
            return Ok(());
        };
        let (position, go) = *pondered;
        let start = Instant::now();
        job.control.silent.store(true, Ordering::Release);
        job.control.stop.store(true, Ordering::Release);
        self.join_job();
        self.start_search(position, go, start);
        Ok(())
    }
    // ANCHOR_END: ponder_hit

    /// Refuses `command` while a search holds the searcher; waits for one that has answered.
    pub(super) fn ensure_idle(&mut self, command: &str) -> Result<(), CommandError> {
        if let Some(job) = &self.job
            && job.is_search()
        {
            if job.running() {
                return input_error(format!("{command}: not while searching (send stop first)"));
            }
            self.join_job();
        }
        Ok(())
    }

    /// Refuses `command` while any job runs (one at a time: they would share the cores and
    /// the output); waits for one that is done.
    pub(super) fn ensure_no_job(&mut self, command: &str) -> Result<(), CommandError> {
        if let Some(job) = &self.job {
            if job.running() {
                let doing = job.doing();
                return input_error(format!("{command}: not while {doing} (send stop first)"));
            }
            self.join_job();
        }
        Ok(())
    }

    /// The searcher, once no search runs (see [`Session::ensure_idle`]); made if there is none.
    pub(super) fn idle_searcher(&mut self, command: &str) -> Result<&mut Searcher, CommandError> {
        self.ensure_idle(command)?;
        Ok(self
            .searcher
            .get_or_insert_with(|| self.settings.searcher()))
    }

    /// Stops the running job if `stop`, and waits for it.
    pub(super) fn end_job(&mut self, stop: bool) {
        if stop && let Some(job) = &mut self.job {
            job.stop();
        }
        self.join_job();
    }

    /// Waits for the job's thread and takes the searcher back if it had it. A job that failed
    /// (a bug) is reported, and a search that failed leaves no searcher: a new one is made
    /// when next needed.
    fn join_job(&mut self) {
        let Some(job) = self.job.take() else {
            return;
        };
        let doing = job.doing();
        match job.join() {
            Ok(searcher) => self.searcher = searcher.or(self.searcher.take()),
            Err(()) => {
                let _ = self
                    .out
                    .line(&format!("info string error: failed while {doing}"));
            }
        }
    }

    /// The position, for a command that needs one.
    pub(super) fn current_position(&self, command: &str) -> Result<&Position, CommandError> {
        match &self.position {
            Some(position) => Ok(position),
            None => input_error(format!(
                "{command}: no position (the last 'position' was refused)"
            )),
        }
    }
}

/// The position `position startpos|fen <FEN> [moves <move>...]` describes, or why there is none.
fn parse_position(args: &[&str]) -> Result<Position, String> {
    let moves_at = args.iter().position(|&word| word == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &[][..]),
    };
    let mut position = match setup.split_first() {
        Some((&"startpos", [])) => Position::startpos(),
        Some((&"startpos", extra)) => {
            return Err(format!("unexpected '{}' after startpos", shorten(extra[0])));
        }
        Some((&"fen", fields)) => {
            Position::from_fen(&fields.join(" ")).map_err(|e| format!("bad FEN: {e}"))?
        }
        _ => return Err("expected 'startpos' or 'fen <FEN>'".to_string()),
    };
    for text in moves {
        let m = position.parse_uci_move(text).map_err(|e| e.to_string())?;
        position.make_move(m);
    }
    Ok(position)
}
