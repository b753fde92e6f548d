//! The worker: the thread on which long commands run while the session keeps reading.
//!
//! `go`, and the console's `perft` and `bench`, run on a thread of their own, so that `isready`
//! is answered at once and `stop`, `ponderhit` and `quit` reach them. One job runs at a time.
//! A search job owns the [`Searcher`] while it runs and gives it back when it ends; perft and
//! bench need none (bench makes its own, as its counts require a fresh one).

use super::go::Go;
use super::output::Output;
use crate::bench;
use crate::moves::Move;
use crate::perft;
use crate::position::Position;
use crate::search::{Limits, Score, SearchInfo, Searcher};
use crate::switches::Switches;
use std::io::Write;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{self, JoinHandle};
use std::time::Duration;

// ANCHOR: control
/// What the session and a running job share.
#[derive(Debug, Default)]
pub(super) struct Control {
    /// Tells the job to end (`stop`, `quit`, a new `go`, `ponderhit`, a `mate` found).
    pub(super) stop: Arc<AtomicBool>,
    /// Set under the output lock just before the job's last line (`bestmove`) is written: from
    /// then on the thread only returns, so a command that needs it ended may wait for it.
    pub(super) done: AtomicBool,
    /// Set by `ponderhit`: the ponder search ends without a `bestmove`, the real one replaces it.
    pub(super) silent: AtomicBool,
}
// ANCHOR_END: control

/// What a job is.
#[derive(Debug)]
pub(super) enum JobKind {
    Search {
        /// Whether it waits for `stop` (`go infinite`, `go ponder`).
        infinite: bool,
        /// For `go ponder`: the position and the `go` to search for real when `ponderhit` comes
        /// (boxed: a position is large, and most jobs are not ponder searches).
        ponder: Option<Box<(Position, Go)>>,
    },
    Perft,
    Bench,
}

/// A job running on its thread. The thread returns the searcher if the job had it.
#[derive(Debug)]
pub(super) struct Job {
    pub(super) kind: JobKind,
    pub(super) control: Arc<Control>,
    thread: JoinHandle<Option<Searcher>>,
}

/// The worker's stack: generous, as each ply of the search's recursion keeps a move list.
const STACK_BYTES: usize = 32 << 20;

impl Job {
    /// Starts `work` on a new thread, or returns why the system would not give one.
    fn spawn(
        kind: JobKind,
        work: impl FnOnce(&Control) -> Option<Searcher> + Send + 'static,
    ) -> std::io::Result<Job> {
        let control = Arc::new(Control::default());
        let shared = Arc::clone(&control);
        let thread = thread::Builder::new()
            .name("worker".to_string())
            .stack_size(STACK_BYTES)
            .spawn(move || work(&shared))?;
        Ok(Job {
            kind,
            control,
            thread,
        })
    }

    /// Whether the job still works: it has not written its last line, and its thread has not
    /// ended (a job ends without its last line only if it failed).
    pub(super) fn running(&self) -> bool {
        !self.control.done.load(Ordering::Acquire) && !self.thread.is_finished()
    }

    /// Whether the job holds the searcher.
    pub(super) fn is_search(&self) -> bool {
        matches!(self.kind, JobKind::Search { .. })
    }

    /// What the job is doing, for the error that refuses a command meanwhile.
    pub(super) fn doing(&self) -> &'static str {
        match self.kind {
            JobKind::Search { .. } => "searching",
            JobKind::Perft => "perft runs",
            JobKind::Bench => "bench runs",
        }
    }

    /// Asks the job to end; a ponder search will then answer, as its move was not played.
    pub(super) fn stop(&mut self) {
        if let JobKind::Search { ponder, .. } = &mut self.kind {
            *ponder = None;
        }
        self.control.stop.store(true, Ordering::Release);
    }

    /// Waits for the thread: `Ok` with the searcher it gives back (if it had it), `Err` if it
    /// panicked, which only a bug makes it do.
    pub(super) fn join(self) -> Result<Option<Searcher>, ()> {
        self.thread.join().map_err(drop)
    }
}

/// Starts searching `position` within `limits`, stopping early when a mate in `mate` moves or
/// fewer is found. If no thread can be had, the error and a legal move are written at once.
pub(super) fn start_search(
    searcher: Searcher,
    position: Position,
    limits: Limits,
    mate: Option<u32>,
    ponder: Option<Box<(Position, Go)>>,
    out: &Output,
) -> Option<Job> {
    let kind = JobKind::Search {
        infinite: limits.infinite,
        ponder,
    };
    let fallback = position.legal_moves().first().copied();
    let thread_out = out.clone();
    let spawned = Job::spawn(kind, move |control| {
        search(searcher, &position, &limits, mate, control, &thread_out)
    });
    spawned
        .map_err(|error| {
            let _ = out.line(&format!(
                "info string error: cannot start the search thread: {error}"
            ));
            let _ = out.line(&bestmove_line(fallback, None));
        })
        .ok()
}

/// Starts the console's `perft depth` from `position`.
pub(super) fn start_perft(position: Position, depth: u32, out: &Output) -> std::io::Result<Job> {
    let out = out.clone();
    Job::spawn(JobKind::Perft, move |control| {
        let mut position = position;
        let mut writer = out.line_writer();
        let counted = perft::print_moves_until(&mut position, depth, &control.stop, &mut writer);
        let last = match counted {
            Ok(Some(total)) => perft::summary(total),
            Ok(None) => "info string perft stopped\n".to_string(),
            Err(error) => format!("info string error: perft: {error}\n"),
        };
        finish_console_job(&last, control, &out);
        None
    })
}

/// Starts the console's `bench depth` with `switches`.
pub(super) fn start_bench(depth: u32, switches: Switches, out: &Output) -> std::io::Result<Job> {
    let out = out.clone();
    Job::spawn(JobKind::Bench, move |control| {
        let mut writer = out.line_writer();
        let result = bench::run_until(depth, switches, &mut writer, &control.stop);
        let last = match result {
            Ok(Some(result)) => bench::total_line(&result),
            Ok(None) => "info string bench stopped".to_string(),
            Err(error) => format!("info string error: bench: {error}"),
        };
        finish_console_job(&format!("{last}\n"), control, &out);
        None
    })
}

/// Writes a console job's last text and marks the job done under one lock, as [`answer`] does
/// for `bestmove`: whoever reads that text and sends a command finds the job over.
fn finish_console_job(last: &str, control: &Control, out: &Output) {
    let mut writer = out.lock();
    control.done.store(true, Ordering::Release);
    let _ = writer.write_all(last.as_bytes());
    let _ = writer.flush();
}

// ANCHOR: search_job
/// The search job: searches, reports each iteration, waits for `stop` if the search is
/// infinite, then answers `bestmove` (unless `ponderhit` silenced it) and returns the searcher.
/// A search that panics (a bug) still answers, with the first legal move, and gives back no
/// searcher, whose tables it may have left half written: the session makes a new one.
fn search(
    mut searcher: Searcher,
    position: &Position,
    limits: &Limits,
    mate: Option<u32>,
    control: &Control,
    out: &Output,
) -> Option<Searcher> {
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
        let outcome = searcher.search(position, limits, &control.stop, &mut |info| {
            let _ = out.line(&info_line(info));
            if let (Some(moves), Score::Mate(found)) = (mate, info.score)
                && found > 0
                && found.unsigned_abs() <= moves
            {
                control.stop.store(true, Ordering::Release);
            }
        });
        // The search may end before `stop` (a depth reached); UCI still wants `stop` first.
        while limits.infinite && !control.stop.load(Ordering::Acquire) {
            thread::sleep(Duration::from_millis(1));
        }
        (outcome.best_move, outcome.ponder)
    }));
    let (best, ponder) = match &outcome {
        Ok(moves) => *moves,
        Err(_) => {
            let _ = out.line("info string error: the search failed; the tables are cleared");
            // The first legal move: better than none for a GUI whose clock runs.
            (position.legal_moves().first().copied(), None)
        }
    };
    answer(best, ponder, control, out);
    outcome.is_ok().then_some(searcher)
}
// ANCHOR_END: search_job

// ANCHOR: answer
/// Writes `bestmove` unless `ponderhit` silenced it, marking the job done under the same lock.
fn answer(best: Option<Move>, ponder: Option<Move>, control: &Control, out: &Output) {
    let mut writer = out.lock();
    control.done.store(true, Ordering::Release);
    if !control.silent.load(Ordering::Acquire) {
        let _ = writeln!(writer, "{}", bestmove_line(best, ponder));
        let _ = writer.flush();
    }
}
// ANCHOR_END: answer

/// The `info` line of a completed iteration.
pub fn info_line(info: &SearchInfo) -> String {
    let millis = info.elapsed.as_millis();
    let nps = u128::from(info.nodes) * 1000 / millis.max(1);
    let mut line = format!(
        "info depth {} seldepth {} score {} nodes {} nps {nps} hashfull {} time {millis}",
        info.depth, info.seldepth, info.score, info.nodes, info.hashfull
    );
    if !info.pv.is_empty() {
        line.push_str(" pv");
        for m in &info.pv {
            line.push_str(&format!(" {m}"));
        }
    }
    line
}

/// `bestmove X [ponder Y]`, or `bestmove 0000` when there is no move to give (UCI's null move).
pub fn bestmove_line(best: Option<Move>, ponder: Option<Move>) -> String {
    match (best, ponder) {
        (Some(best), Some(ponder)) => format!("bestmove {best} ponder {ponder}"),
        (Some(best), None) => format!("bestmove {best}"),
        (None, _) => "bestmove 0000".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_have_every_field() {
        let info = SearchInfo {
            depth: 3,
            seldepth: 7,
            score: Score::Mate(-2),
            nodes: 5000,
            elapsed: Duration::from_millis(20),
            pv: Position::startpos().legal_moves()[..2].to_vec(),
            hashfull: 12,
            progress: Default::default(),
        };
        let line = info_line(&info);
        assert!(line.starts_with("info depth 3 seldepth 7 score mate -2 nodes 5000 nps 250000 hashfull 12 time 20 pv "), "{line}");
        assert_eq!(
            line.split(" pv ").nth(1).map(|pv| pv.split(' ').count()),
            Some(2)
        );
    }
}
