//! The search (chapters 7 to 14): which move to play, found by looking ahead.
//!
//! Iterative deepening runs a depth-1 search, then depth 2, and so on until a limit is reached,
//! each iteration reporting its best line ([`SearchInfo`]). Each iteration is a negamax
//! alpha-beta search (`negamax.rs`) that ends in a quiescence search (`quiescence.rs`), orders
//! its moves (`ordering.rs`, `see.rs`), prunes, reduces and extends (`pruning.rs`), and keeps
//! what it learns in the transposition table (`crate::tt`). Every feature from chapter 8 on has
//! a switch (`crate::switches`), and what the search did is counted ([`SearchStats`]).
//!
//! The interface the UCI layer and the chapter programs use is [`Searcher::search`], with
//! [`Limits`] saying when to stop.

pub mod correction;
pub mod evalcache;
mod negamax;
pub mod ordering;
pub mod picker;
mod pool;
pub mod pruning;
pub mod pv;
mod quiescence;
pub mod see;
pub mod stats;

pub use stats::SearchStats;

use crate::moves::Move;
use crate::position::Position;
use crate::switches::{SwitchError, Switches};
use crate::time::{self, Budget, Heed, Progress};
use crate::tt::{TableSizeError, TranspositionTable};
use crate::{eval, eval2};
use negamax::Node;
use ordering::{Heuristics, PieceTo};
use pool::{HelperPool, SharedSearch};
use pruning::{LmrTable, Params};
use pv::PvTable;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// The deepest ply a search reaches, quiescence included; also the longest line it reports.
pub const MAX_PLY: usize = 128;
/// The deepest iteration iterative deepening starts.
pub const MAX_DEPTH: u32 = 100;
/// Larger than any score: the initial window is (-INFINITY, INFINITY).
pub const INFINITY: i32 = 32_001;
/// The score of giving mate now; mate in `n` plies scores `MATE - n` (CPW "Checkmate").
pub const MATE: i32 = 32_000;
/// Scores beyond ±`MATE_BOUND` are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// The score of a draw.
pub const DRAW: i32 = 0;
/// A stop flag nobody sets.
static NEVER_STOP: AtomicBool = AtomicBool::new(false);

/// No static evaluation at this ply (the side to move was in check).
const NO_EVAL: i32 = -INFINITY;
/// The most threads a search may use (UCI `Threads`).
pub const MAX_THREADS: usize = 256;
/// A helper thread's stack: generous, as each ply of the search's recursion keeps a move list
/// (the UCI worker that runs the main thread's search has as much).
const HELPER_STACK_BYTES: usize = 32 << 20;

/// How often a thread gives way when the search has more threads than cores
/// ([`Worker::give_way`]), in its own nodes: a few tenths of a millisecond of one thread's
/// search, so that with four threads to a core a thread that has just woken waits about a
/// millisecond at most. A `sched_yield` costs about a microsecond: the search loses well under
/// one per cent. Chapter 17 measures the time from `stop` to `bestmove` with it.
const GIVE_WAY_NODES: u64 = 256;

/// When to stop searching. With nothing set the search runs to [`MAX_DEPTH`].
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// The last iteration to search.
    pub depth: Option<u32>,
    /// Stop (mid-iteration) once this many nodes are searched.
    pub nodes: Option<u64>,
    /// Start no new iteration after this instant.
    pub soft_deadline: Option<Instant>,
    /// Stop mid-iteration at this instant (checked every 1,024 nodes).
    pub hard_deadline: Option<Instant>,
    /// UCI's `go infinite`: having searched everything it may, the search waits for `stop`
    /// (or the hard deadline) before it returns.
    pub infinite: bool,
}

impl Limits {
    // ANCHOR: with_fixed_share
    /// These limits with the two deadlines replaced by one, the fixed share of the budget they
    /// came from ([`time::fixed_share`]), counted from `start`: chapter 15's switch `timeman`
    /// off. Limits without both deadlines (a depth, a node count, `infinite`) are unchanged.
    pub fn with_fixed_share(&self, start: Instant) -> Limits {
        let (Some(soft), Some(hard)) = (self.soft_deadline, self.hard_deadline) else {
            return self.clone();
        };
        let share = time::fixed_share(Budget {
            soft: soft.saturating_duration_since(start),
            hard: hard.saturating_duration_since(start),
        });
        Limits {
            soft_deadline: start.checked_add(share.soft),
            hard_deadline: start.checked_add(share.hard),
            ..self.clone()
        }
    }
    // ANCHOR_END: with_fixed_share

    /// Search to `depth` plies.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Search `nodes` nodes.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }
}

/// A score as UCI reports it: centipawns, or mate in a number of moves (negative: being
/// mated).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    Mate(i32),
}

impl Score {
    /// The reported form of an internal score.
    pub fn from_internal(value: i32) -> Score {
        if value >= MATE_BOUND {
            Score::Mate((MATE - value + 1) / 2)
        } else if value <= -MATE_BOUND {
            Score::Mate(-(MATE + value) / 2)
        } else {
            Score::Cp(value)
        }
    }
}

impl fmt::Display for Score {
    /// UCI's form: `cp 25` or `mate -3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(moves) => write!(f, "mate {moves}"),
        }
    }
}

/// What an iteration found, reported when it completes.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Move>,
    /// The table's fill in thousandths (UCI `hashfull`).
    pub hashfull: u32,
    /// What M4's time measures read from the iterations so far, this one included (whether or
    /// not a clock heeds them).
    pub progress: Progress,
}

/// What a search returns.
#[derive(Clone, Debug)]
pub struct SearchOutcome {
    /// The move to play: `None` only when there is no legal move.
    pub best_move: Option<Move>,
    /// The expected reply (the second move of the principal variation).
    pub ponder: Option<Move>,
    pub score: Score,
    /// The last completed iteration (0 if none completed).
    pub depth: u32,
    /// The principal variation of the last completed iteration.
    pub pv: Vec<Move>,
    /// What the main thread did (with one thread, the whole search).
    pub stats: SearchStats,
    /// The nodes of every thread together: `stats.nodes` plus the helpers'.
    pub nodes: u64,
}

/// The searcher and everything it keeps between searches: the transposition table, the
/// move-ordering histories and the switches.
#[derive(Debug)]
pub struct Searcher {
    /// The table, shared with the helper threads while a search runs (chapter 17) and held by
    /// the searcher alone between searches.
    tt: Arc<TranspositionTable>,
    heuristics: Box<Heuristics>,
    /// The helper threads, with a set of killers and histories each (chapter 17): with
    /// `Threads` at 1 there are none, and the search runs on the caller's thread alone.
    helpers: HelperPool,
    switches: Switches,
    params: Params,
    lmr: Arc<LmrTable>,
}

/// Why `Threads` cannot be set to a number.
#[derive(Debug)]
pub enum ThreadsError {
    /// Not from 1 to [`MAX_THREADS`].
    OutOfRange(usize),
    /// The system would not start a thread: the searcher keeps the helpers it started.
    NotStarted {
        wanted: usize,
        running: usize,
        error: std::io::Error,
    },
}

impl fmt::Display for ThreadsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ThreadsError::OutOfRange(threads) => {
                write!(
                    f,
                    "{threads} threads: a search uses from 1 to {MAX_THREADS}"
                )
            }
            ThreadsError::NotStarted {
                wanted,
                running,
                error,
            } => write!(
                f,
                "{wanted} threads: the system would not start more than {running} ({error})"
            ),
        }
    }
}

impl std::error::Error for ThreadsError {}

impl Searcher {
    /// A searcher with a table of `hash_mb` megabytes (at least 1) and default switches.
    pub fn new(hash_mb: usize) -> Searcher {
        let mut searcher = Searcher {
            tt: Arc::new(TranspositionTable::new(hash_mb.max(1))),
            heuristics: Box::default(),
            helpers: HelperPool::default(),
            switches: Switches::default(),
            params: Params::DEFAULT,
            lmr: Arc::new(LmrTable::new()),
        };
        // The table's own settings follow the switches, in one place.
        searcher.set_switches(Switches::default());
        searcher
    }

    /// Forgets everything learnt: the table is emptied and its generation reset, histories and
    /// killers cleared. After `clear` a search gives the same result as in a new searcher.
    pub fn clear(&mut self) {
        self.tt_mut().clear();
        self.heuristics.clear();
        self.helpers.clear();
    }

    /// How many threads a search uses: the caller's and the helpers.
    pub fn threads(&self) -> usize {
        1 + self.helpers.len()
    }

    /// How many helper threads are running, searching or waiting for the next search: always
    /// `threads() - 1`, as a smaller `Threads` ends and joins the helpers it no longer needs.
    pub fn helper_threads_running(&self) -> usize {
        self.helpers.running_threads()
    }

    /// Makes searches use `threads` threads (chapter 17): the caller's, which decides when to
    /// stop and what to play, and `threads - 1` helpers that search the same root with the
    /// same table. The helpers are started here, not at each search, and new ones start with
    /// empty histories.
    pub fn set_threads(&mut self, threads: usize) -> Result<(), ThreadsError> {
        if !(1..=MAX_THREADS).contains(&threads) {
            return Err(ThreadsError::OutOfRange(threads));
        }
        self.helpers
            .resize(threads - 1)
            .map_err(|error| ThreadsError::NotStarted {
                wanted: threads,
                running: self.threads(),
                error,
            })
    }

    /// The table, to change it: only between searches, when no helper holds it.
    fn tt_mut(&mut self) -> &mut TranspositionTable {
        Arc::get_mut(&mut self.tt).expect("the helpers hand the table back before a search returns")
    }

    /// Makes the table count torn slots (chapter 17's measurement; see
    /// [`TranspositionTable::set_torn_read_counting`]).
    pub fn set_torn_read_counting(&mut self, on: bool) {
        self.tt_mut().set_torn_read_counting(on);
    }

    /// Resizes the table (emptying it).
    pub fn set_hash(&mut self, mb: usize) -> Result<(), TableSizeError> {
        self.tt_mut().resize(mb)
    }

    /// The current switches.
    pub fn switches(&self) -> Switches {
        self.switches
    }

    /// Replaces every switch.
    pub fn set_switches(&mut self, switches: Switches) {
        self.switches = switches;
        let tt = self.tt_mut();
        tt.set_geometry(switches.tt_geometry());
        tt.set_keep_deeper_same_key(switches.ttkeepdeep);
    }

    /// Replaces the selective search's parameters (a chapter's sweep, a tuner); the default is
    /// [`Params::DEFAULT`].
    pub fn set_params(&mut self, params: Params) {
        self.params = params;
        self.lmr = Arc::new(LmrTable::with(&params));
    }

    /// The selective search's parameters.
    pub fn params(&self) -> Params {
        self.params
    }

    /// Sets one switch by name.
    pub fn set_switch(&mut self, name: &str, on: bool) -> Result<(), SwitchError> {
        let mut switches = self.switches;
        switches.set(name, on)?;
        self.set_switches(switches);
        Ok(())
    }

    /// The transposition table, for its fill and counters.
    pub fn tt(&self) -> &TranspositionTable {
        &self.tt
    }

    /// Lookups and hits of the main thread's pawn table (chapter 18's evaluation) since the
    /// last [`Searcher::clear`].
    pub fn pawn_table_counters(&self) -> (u64, u64) {
        self.heuristics.pawns.counters()
    }

    /// What M7's correction history of the main thread holds for `pos` (centipawns, for the
    /// side to move), and how many of its slots hold anything: what the searches since the
    /// last [`Searcher::clear`] taught it.
    pub fn correction(&self, pos: &Position) -> (i32, usize) {
        let table = &self.heuristics.correction;
        (table.correction(pos), table.filled())
    }

    /// The static evaluation of `pos` and its quiescence score (the full window), both for the
    /// side to move. Chapter 19's tuning data keeps a position only when the two agree: then no
    /// capture changes the verdict, and the game's result can be blamed on the evaluation.
    pub fn static_and_quiescence(&mut self, pos: &Position) -> (i32, i32) {
        let limits = Limits::default();
        let context = Context {
            tt: &self.tt,
            lmr: &self.lmr,
            params: self.params,
            switches: self.switches,
        };
        let mut worker = Worker::new(pos, context, &mut self.heuristics, &limits);
        let static_eval = worker.evaluate();
        (static_eval, worker.quiescence(-INFINITY, INFINITY, 0))
    }

    /// Searches `pos` to `depth` with no other limit and no reports: for tests and chapters.
    pub fn search_depth(&mut self, pos: &Position, depth: u32) -> SearchOutcome {
        self.search(pos, &Limits::depth(depth), &Arc::default(), &mut |_| {})
    }

    /// Searches `pos` within `limits`, calling `on_info` after each completed iteration, until
    /// a limit is reached or `stop` is set. Returns a legal move whenever one exists, even when
    /// stopped before the first iteration completed. `stop` is shared (an [`Arc`]) because
    /// every thread of the search watches it, chapter 17's helpers among them.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &Arc<AtomicBool>,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchOutcome {
        let start = Instant::now();
        let fixed_share;
        let limits = if self.switches.timeman {
            limits
        } else {
            fixed_share = limits.with_fixed_share(start);
            &fixed_share
        };
        self.tt.new_search();
        self.heuristics.prepare_for_search();
        let root_moves = pos.legal_moves();
        let mut outcome = SearchOutcome {
            best_move: root_moves.first().copied(),
            ponder: None,
            score: Score::Cp(DRAW),
            depth: 0,
            pv: Vec::new(),
            stats: SearchStats::default(),
            nodes: 0,
        };
        if root_moves.is_empty() {
            outcome.score = Score::from_internal(if pos.in_check() { -MATE } else { DRAW });
            return outcome;
        }
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        // ANCHOR: lazy_smp
        // Chapter 17's Lazy SMP: the helpers search the same root with the same table until
        // the main thread, on the caller's thread, is done.
        let oversubscribed = self.helpers.len() + 1 > machine_cores();
        let running = self.helpers.start(&SharedSearch {
            position: pos,
            tt: &self.tt,
            lmr: &self.lmr,
            params: self.params,
            switches: self.switches,
            limits: Limits {
                depth: limits.depth,
                ..Limits::default()
            },
            last_depth: max_depth,
            stop,
            oversubscribed,
        });
        let helper_nodes = self.helpers.node_count();
        let context = Context {
            tt: &self.tt,
            lmr: &self.lmr,
            params: self.params,
            switches: self.switches,
        };
        let mut main = Worker::new(pos, context, &mut self.heuristics, limits);
        main.stops = [stop, &NEVER_STOP];
        main.oversubscribed = oversubscribed;
        let completed = main.deepen(1, max_depth, &mut |worker, completed| {
            on_info(&SearchInfo {
                depth: completed.depth,
                seldepth: worker.stats.seldepth,
                score: Score::from_internal(completed.score),
                nodes: worker.stats.nodes + helper_nodes.load(Ordering::Relaxed),
                elapsed: start.elapsed(),
                pv: completed.pv.clone(),
                hashfull: worker.tt.hashfull(),
                progress: completed.progress,
            });
        });
        if limits.infinite {
            wait_for_stop(stop, limits.hard_deadline);
        }
        // The helpers are told to stop and make way at once (with more threads than cores they
        // take turns with the main thread); their results come back with their histories.
        let main_stats = main.stats;
        let helpers = self.helpers.finish(running);
        let helper_nodes = self.helpers.nodes();
        // ANCHOR_END: lazy_smp
        let chosen = if self.switches.smpvote {
            vote(completed, helpers)
        } else {
            deepest(completed, helpers)
        };
        if let Some(best) = chosen.root_best {
            outcome.best_move = Some(best);
        }
        if chosen.depth > 0 {
            outcome.best_move = chosen.pv.first().copied().or(outcome.best_move);
            outcome.ponder = chosen.pv.get(1).copied();
            outcome.score = Score::from_internal(chosen.score);
            outcome.depth = chosen.depth;
            outcome.pv = chosen.pv;
        }
        outcome.nodes = main_stats.nodes + helper_nodes;
        outcome.stats = main_stats;
        outcome
    }
}

/// What every thread of a search shares, besides the position and the stop flag.
#[derive(Clone, Copy)]
struct Context<'a> {
    tt: &'a TranspositionTable,
    lmr: &'a LmrTable,
    params: Params,
    switches: Switches,
}

/// What one thread's iterative deepening completed.
#[derive(Clone, Debug, Default)]
struct Completed {
    /// The last iteration completed, 0 if none.
    depth: u32,
    /// Its score and principal variation.
    score: i32,
    pv: Vec<Move>,
    /// With no iteration completed: the root move that last raised alpha, if any.
    root_best: Option<Move>,
    /// M4's measures after this iteration.
    progress: Progress,
}

// ANCHOR: deepest
/// The result to play: the deepest iteration any thread completed, the main thread's when
/// helpers are no deeper. A deeper iteration saw more, and each searched the same root with the
/// same table, so its move is at least as well founded (the rule of many Lazy SMP engines;
/// Stockfish instead lets the threads vote, weighted by depth and score).
fn deepest(main: Completed, helpers: Vec<Completed>) -> Completed {
    helpers
        .into_iter()
        .filter(|helper| !helper.pv.is_empty())
        .fold(main, |best, helper| {
            if helper.depth > best.depth {
                helper
            } else {
                best
            }
        })
}
// ANCHOR_END: deepest

// ANCHOR: vote
/// The other rule chapter 17 measures (switch `smpvote`): the threads vote for their moves, each
/// thread's vote weighted by the depth it completed and by how much better its score is than
/// the worst thread's, and the move with the most votes is played, with the deepest result any
/// thread found for it. A move several threads agree on wins over one thread's deeper but
/// isolated choice. Stockfish chooses its move this way (`Thread::get_best_thread`); the weights
/// here are ours.
fn vote(main: Completed, helpers: Vec<Completed>) -> Completed {
    if main.pv.is_empty() && helpers.iter().all(|thread| thread.pv.is_empty()) {
        // No thread completed an iteration: the main thread's partial result is all there is.
        return main;
    }
    let mut voters: Vec<Completed> = std::iter::once(main)
        .chain(helpers)
        .filter(|thread| !thread.pv.is_empty())
        .collect();
    let worst = voters.iter().map(|thread| thread.score).min().unwrap_or(0);
    let weight = |thread: &Completed| (thread.score - worst + 1) as i64 * thread.depth as i64;
    let votes_for = |candidate: Move| -> i64 {
        voters
            .iter()
            .filter(|thread| thread.pv[0] == candidate)
            .map(weight)
            .sum()
    };
    // The main thread votes first, so it wins ties, both between moves and between the
    // threads that chose the winning move.
    let mut chosen = 0;
    for (i, thread) in voters.iter().enumerate() {
        let better_move = votes_for(thread.pv[0]) > votes_for(voters[chosen].pv[0]);
        let deeper_same_move =
            thread.pv[0] == voters[chosen].pv[0] && thread.depth > voters[chosen].depth;
        if better_move || deeper_same_move {
            chosen = i;
        }
    }
    voters.swap_remove(chosen)
}
// ANCHOR_END: vote

/// How many threads the machine runs at once (its cores, or hardware threads); 1 if it cannot
/// say. Asked once: the answer does not change while the engine runs.
fn machine_cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Blocks until `stop` is set or the deadline passes (`go infinite` may not answer before).
fn wait_for_stop(stop: &AtomicBool, deadline: Option<Instant>) {
    while !stop.load(Ordering::Relaxed) && deadline.is_none_or(|t| Instant::now() < t) {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// The state of one search in progress: the position being searched (moves are made and
/// unmade on it), the shared tables, and the counters.
struct Worker<'a> {
    pos: Position,
    tt: &'a TranspositionTable,
    heuristics: &'a mut Heuristics,
    lmr: &'a LmrTable,
    params: Params,
    switches: Switches,
    limits: &'a Limits,
    /// The flags that end the search when set: `stop` for the main thread; for a helper, the
    /// main thread's "done" and `stop` too, so that helpers make way at once for the main
    /// thread, which must answer (with more threads than cores they take turns).
    stops: [&'a AtomicBool; 2],
    stats: SearchStats,
    pv: PvTable,
    /// Whether the move made at each ply was a null move (no two in a row).
    null_played: [bool; MAX_PLY + 1],
    /// The move made at each ply (when it was not a null move), for M1's counter-moves.
    played: [Option<Move>; MAX_PLY + 1],
    /// The piece moved at each ply and where to, for M2's continuation histories.
    moved: [Option<PieceTo>; MAX_PLY + 1],
    /// The static evaluation of the node at each ply of the current line, [`NO_EVAL`] where
    /// there is none (in check): M3's "improving" compares a node's with its grandparent's.
    evals: [i32; MAX_PLY + 1],
    /// The root move that last raised alpha in the current iteration.
    root_best: Option<Move>,
    /// The nodes searched below each root move in the current iteration (M4's node share).
    root_move_nodes: Vec<(Move, u64)>,
    /// When the worker was made, at the start of the search: M4 scales the soft limit from it.
    started: Instant,
    /// Set when a limit or `stop` ends the search mid-iteration: every node then returns at
    /// once and the iteration's results are discarded.
    aborted: bool,
    /// The depth of the current iteration.
    root_depth: i32,
    /// Where a helper thread adds its node count for the main thread's reports.
    node_sink: Option<&'a AtomicU64>,
    /// Whether the search has more threads than the machine has cores: then each thread gives
    /// way to the others now and then (chapter 17, [`Worker::give_way`]).
    oversubscribed: bool,
    /// The part of `stats.nodes` already added to `node_sink`.
    published_nodes: u64,
}

impl<'a> Worker<'a> {
    /// A thread's search of `pos` within `limits`, with its own killers and histories. It
    /// heeds no stop flag until the caller sets `stops` (see [`Searcher::search`]).
    fn new(
        pos: &Position,
        context: Context<'a>,
        heuristics: &'a mut Heuristics,
        limits: &'a Limits,
    ) -> Worker<'a> {
        heuristics.evals.prepare(context.switches);
        Worker {
            pos: pos.clone(),
            tt: context.tt,
            heuristics,
            lmr: context.lmr,
            params: context.params,
            switches: context.switches,
            limits,
            stops: [&NEVER_STOP, &NEVER_STOP],
            stats: SearchStats::default(),
            pv: PvTable::default(),
            null_played: [false; MAX_PLY + 1],
            played: [None; MAX_PLY + 1],
            moved: [None; MAX_PLY + 1],
            evals: [NO_EVAL; MAX_PLY + 1],
            root_best: None,
            root_move_nodes: Vec::new(),
            started: Instant::now(),
            aborted: false,
            root_depth: 0,
            node_sink: None,
            oversubscribed: false,
            published_nodes: 0,
        }
    }

    // ANCHOR: iterative_deepening
    /// Iterative deepening: searches depth `first`, then one ply deeper each time, up to `last`
    /// or until a limit ends it, calling `report` after each iteration it completes. An
    /// iteration cut short is thrown away: its score is only a bound of a search that did not
    /// look at every move.
    fn deepen(
        &mut self,
        first: u32,
        last: u32,
        report: &mut dyn FnMut(&Worker, &Completed),
    ) -> Completed {
        let mut completed = Completed::default();
        let mut previous_score = 0;
        let mut progress = Progress::default();
        for depth in first..=last {
            if depth > first && self.past_soft_limit(&progress) {
                break;
            }
            self.root_best = None;
            self.root_move_nodes.clear();
            let score = self.aspiration(depth as i32, previous_score);
            if self.aborted {
                if completed.depth == 0 {
                    completed.root_best = self.root_best;
                }
                break;
            }
            let pv = self.pv.root_line();
            progress = self.progress(&progress, &completed, score, &pv);
            previous_score = score;
            completed = Completed {
                depth,
                score,
                pv,
                root_best: None,
                progress,
            };
            report(self, &completed);
        }
        completed
    }
    // ANCHOR_END: iterative_deepening

    // ANCHOR: m4_progress
    /// Whether the soft limit ([`soft_deadline`], below) has passed. Without a clock, never.
    fn past_soft_limit(&self, progress: &Progress) -> bool {
        soft_deadline(self.limits, self.started, &self.switches, progress)
            .is_some_and(|deadline| Instant::now() >= deadline)
    }

    /// What the iteration just completed, with `score` and principal variation `pv`, adds to
    /// `before` (the progress after the previous one, `previous`).
    fn progress(
        &self,
        before: &Progress,
        previous: &Completed,
        score: i32,
        pv: &[Move],
    ) -> Progress {
        let best = pv.first().copied();
        let stable = previous.depth > 0 && previous.pv.first().copied() == best;
        let total: u64 = self.root_move_nodes.iter().map(|&(_, n)| n).sum();
        let below_best = self
            .root_move_nodes
            .iter()
            .filter(|&&(m, _)| Some(m) == best)
            .map(|&(_, n)| n)
            .sum::<u64>();
        Progress {
            stable_iterations: if stable {
                before.stable_iterations + 1
            } else {
                0
            },
            score_drop: if previous.depth > 0 {
                previous.score - score
            } else {
                0
            },
            best_move_node_pct: (below_best * 100).checked_div(total).unwrap_or(0) as u32,
        }
    }

    /// Adds `nodes` to the root move `m`'s count for this iteration.
    fn count_root_move_nodes(&mut self, m: Move, nodes: u64) {
        match self
            .root_move_nodes
            .iter_mut()
            .find(|(listed, _)| *listed == m)
        {
            Some((_, count)) => *count += nodes,
            None => self.root_move_nodes.push((m, nodes)),
        }
    }
    // ANCHOR_END: m4_progress

    // ANCHOR: publish_nodes
    /// Adds the nodes searched since the last call to the helpers' shared count. One
    /// `fetch_add` every 1,024 nodes: an atomic read-modify-write of a line every thread
    /// writes costs tens of cycles, too much for every node and nothing every thousand.
    fn publish_nodes(&mut self) {
        if let Some(sink) = self.node_sink {
            sink.fetch_add(self.stats.nodes - self.published_nodes, Ordering::Relaxed);
            self.published_nodes = self.stats.nodes;
        }
    }
    // ANCHOR_END: publish_nodes

    // ANCHOR: should_stop
    /// Whether to stop now. The node limit is checked at every node, so a node-limited search
    /// stops at exactly the same node every run; so are the stop flags, as reading a flag no
    /// thread has written costs a load from the core's own cache. The clock is read every
    /// 1,024 nodes, as reading it costs more than a node's share of time. Neither the clock
    /// nor `stop` ends the first iteration: it takes a millisecond or less, and without it the
    /// move played would be one nobody searched (a GUI's second `go` sent at once, a clock
    /// already run out). Only a node limit, which asks for an exact count, cuts it short.
    #[inline]
    fn should_stop(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.limits.nodes.is_some_and(|n| self.stats.nodes >= n) {
            self.aborted = true;
        } else if self.root_depth > 1 {
            let mut past_hard = false;
            if self.stats.nodes.is_multiple_of(1024) {
                past_hard = self
                    .limits
                    .hard_deadline
                    .is_some_and(|t| Instant::now() >= t);
                self.publish_nodes();
            }
            self.give_way();
            let stopped = self.stops.iter().any(|s| s.load(Ordering::Relaxed));
            self.aborted = stopped || past_hard;
        }
        self.aborted
    }
    // ANCHOR_END: should_stop

    // ANCHOR: give_way
    /// With more threads than cores, gives the core to another waiting thread every
    /// [`GIVE_WAY_NODES`] nodes. Linux's scheduler (EEVDF, since 6.6) lets a running thread
    /// finish its time slice before a thread that has just woken gets the core, and with several
    /// threads to a core that thread waits a tick or two (milliseconds): the session's thread
    /// woken by `stop` has to run before any search thread can see the flag. A thread that
    /// yields makes the scheduler choose at once. With no more threads than cores it never
    /// yields, so one thread's search, `bench` among them, is untouched.
    #[inline]
    fn give_way(&self) {
        if self.oversubscribed && self.stats.nodes.is_multiple_of(GIVE_WAY_NODES) {
            std::thread::yield_now();
        }
    }
    // ANCHOR_END: give_way

    /// Counts a node at `ply`.
    #[inline]
    fn count_node(&mut self, ply: usize) {
        self.stats.nodes += 1;
        self.stats.seldepth = self.stats.seldepth.max(ply as u32);
    }

    // ANCHOR: static_eval
    /// The static evaluation, from the side to move's point of view.
    #[inline]
    fn evaluate(&mut self) -> i32 {
        if self.switches.eval2 {
            eval2::evaluate(
                &self.pos,
                &mut self.heuristics.pawns,
                self.switches.weight_set(),
                self.switches.king_danger(),
            )
        } else if self.switches.evalterms {
            eval::evaluate(&self.pos)
        } else {
            eval::evaluate_material_and_tables(&self.pos)
        }
    }
    // ANCHOR_END: static_eval

    // ANCHOR: m18_cached_eval
    /// The static evaluation, looked up in the thread's evaluation cache if the position was
    /// evaluated lately, computed and kept there if not (M18, switch `evalcache`). The
    /// evaluation is a function of the position alone, so the cache changes no score and no
    /// node: only the time a node takes.
    fn cached_eval(&mut self) -> i32 {
        if !self.switches.evalcache {
            return self.evaluate();
        }
        let key = self.pos.key();
        self.stats.eval_cache_probes += 1;
        if let Some(eval) = self.heuristics.evals.probe(key) {
            self.stats.eval_cache_hits += 1;
            return eval;
        }
        let eval = self.evaluate();
        self.heuristics.evals.store(key, eval);
        eval
    }
    // ANCHOR_END: m18_cached_eval

    // ANCHOR: m7_corrected
    /// The static evaluation `raw` with M7's correction history added (switch `corrhist`):
    /// what the search has found this pawn structure's evaluations to be off by, kept short
    /// of the mate scores.
    fn corrected_eval(&self, raw: i32) -> i32 {
        if !self.switches.corrhist {
            return raw;
        }
        let correction = self.heuristics.correction.correction(&self.pos);
        (raw + correction).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }
    // ANCHOR_END: m7_corrected

    /// Whether the position `ply` plies below the root is drawn by the fifty-move rule, by
    /// repetition ([`Position::is_search_repetition`]: once inside the search, twice before
    /// it), or because neither side has the material to mate.
    fn is_draw(&self, ply: usize) -> bool {
        self.pos.halfmove_clock() >= 100
            || self.pos.is_search_repetition(ply)
            || self.pos.insufficient_material()
    }

    // ANCHOR: aspiration
    /// Searches the root at `depth` inside an aspiration window around the previous
    /// iteration's score, widening the side that fails until the score falls inside (CPW
    /// "Aspiration Windows"). Early iterations, and the switch off, use the full window.
    fn aspiration(&mut self, depth: i32, previous: i32) -> i32 {
        self.root_depth = depth;
        if !self.switches.aspiration || depth < self.params.aspiration_min_depth {
            return self.negamax(-INFINITY, INFINITY, depth, 0, Node::Pv, None);
        }
        let mut delta = self.params.aspiration_delta;
        let mut alpha = (previous - delta).max(-INFINITY);
        let mut beta = (previous + delta).min(INFINITY);
        loop {
            let score = self.negamax(alpha, beta, depth, 0, Node::Pv, None);
            if self.aborted {
                return score;
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
            } else {
                return score;
            }
            self.stats.aspiration_researches += 1;
            delta += delta / 2;
        }
    }
    // ANCHOR_END: aspiration
}

// ANCHOR: mate_scores
/// A mate score made relative to the node at `ply` before it goes into the table: "mate in n
/// from the root" becomes "mate in n - ply from here", which holds wherever the position is met
/// again (CPW "Transposition Table", mate scores). Other scores are unchanged.
#[inline]
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`score_to_tt`], for a score read back at `ply`.
#[inline]
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}
// ANCHOR_END: mate_scores

// ANCHOR: m4_soft_deadline
/// The soft limit of a search that started at `started`: chapter 15's (half the target), or with
/// M4's switches the target scaled by what the iterations so far say
/// ([`time::target_scale_pct`]). Without a clock, none.
///
/// A soft limit that is the hard one is a budget of one limit, as chapter 15 reads it too
/// ([`time::fixed_share`]): `go movetime`'s ([`time::movetime_budget`]), or a clock's whose
/// limits were both capped. A fixed time has nothing to save for later moves, so it is spent
/// whole, and M4's judgement of the iterations does not shorten it.
fn soft_deadline(
    limits: &Limits,
    started: Instant,
    switches: &Switches,
    progress: &Progress,
) -> Option<Instant> {
    let soft = limits.soft_deadline?;
    let heed = Heed {
        stability: switches.stability,
        score_drop: switches.scoredrop,
        node_share: switches.nodeshare,
    };
    let scaled = heed != Heed::default() || switches.timeplus;
    let fixed_time = limits.hard_deadline == Some(soft);
    if !switches.timeman || !scaled || fixed_time {
        return Some(soft);
    }
    // Chapter 15's soft limit is half the target: 50 %.
    let mut pct = if heed == Heed::default() {
        50
    } else {
        time::target_scale_pct(progress, heed)
    };
    if switches.timeplus {
        pct = pct * time::TIME_PLUS_PCT / 100;
    }
    Some(time::scaled_soft_deadline(
        started,
        soft,
        limits.hard_deadline,
        pct,
    ))
}
// ANCHOR_END: m4_soft_deadline

#[cfg(test)]
mod tests {
    use super::*;

    /// A thread's result: `depth` plies, `score`, a line starting with `first`.
    fn completed(depth: u32, score: i32, first: Move) -> Completed {
        Completed {
            depth,
            score,
            pv: vec![first],
            root_best: None,
            progress: Progress::default(),
        }
    }

    #[test]
    fn the_deepest_result_wins_but_agreeing_threads_outvote_it() {
        let moves = Position::startpos().legal_moves();
        let (a, b) = (moves[0], moves[1]);
        let main = completed(11, 40, a);
        let helpers = vec![completed(10, 50, b), completed(10, 60, b)];
        let deeper = deepest(main.clone(), helpers.clone());
        assert_eq!((deeper.pv[0], deeper.depth), (a, 11));
        // Votes: a (40 - 40 + 1) × 11 = 11; b (11 + 21) × 10 = 320. b's deepest voter, then
        // the first of equal depth, is played: the helper that scored 50.
        let voted = vote(main, helpers);
        assert_eq!((voted.pv[0], voted.depth, voted.score), (b, 10, 50));
    }

    #[test]
    fn the_vote_keeps_the_main_thread_on_ties_and_without_results() {
        let moves = Position::startpos().legal_moves();
        let (a, b) = (moves[0], moves[1]);
        let voted = vote(completed(8, 30, a), vec![completed(8, 30, b)]);
        assert_eq!(voted.pv[0], a, "equal votes: the main thread's move");
        let unfinished = Completed {
            root_best: Some(b),
            ..Completed::default()
        };
        let voted = vote(unfinished, vec![Completed::default()]);
        assert_eq!((voted.depth, voted.root_best), (0, Some(b)));
        let voted = vote(Completed::default(), vec![completed(3, 0, a)]);
        assert_eq!(voted.pv, vec![a], "a helper's result beats none");
    }

    #[test]
    fn a_stable_search_stops_early_on_a_clock_but_spends_a_fixed_time_whole() {
        let start = Instant::now();
        let ms = Duration::from_millis;
        let settled = Progress {
            stable_iterations: 4,
            score_drop: 0,
            best_move_node_pct: 90,
        };
        // M4's three measures alone: `timeplus` lengthens every soft limit by half, which can
        // take a settled search's back past the unscaled one.
        let switches = Switches {
            timeplus: false,
            ..Switches::default()
        };
        let clock = Limits {
            soft_deadline: Some(start + ms(1_000)),
            hard_deadline: Some(start + ms(6_000)),
            ..Limits::default()
        };
        let on_the_clock = soft_deadline(&clock, start, &switches, &settled).expect("a clock");
        assert!(
            on_the_clock < start + ms(1_000),
            "M4 stops a settled search early"
        );
        let movetime = Limits {
            soft_deadline: Some(start + ms(1_000)),
            hard_deadline: Some(start + ms(1_000)),
            ..Limits::default()
        };
        assert_eq!(
            soft_deadline(&movetime, start, &switches, &settled),
            Some(start + ms(1_000)),
            "go movetime's time is spent whole"
        );
        assert_eq!(
            soft_deadline(&Limits::depth(9), start, &switches, &settled),
            None
        );
    }

    #[test]
    fn the_fixed_share_replaces_both_deadlines_by_one() {
        let start = Instant::now();
        let ms = Duration::from_millis;
        let clock = Limits {
            soft_deadline: Some(start + ms(1_000)),
            hard_deadline: Some(start + ms(6_000)),
            ..Limits::default()
        };
        let fixed = clock.with_fixed_share(start);
        assert_eq!(fixed.soft_deadline, Some(start + ms(2_000)));
        assert_eq!(fixed.hard_deadline, Some(start + ms(2_000)));
        // Capped: the soft limit already equals the hard one, which stays.
        let capped = Limits {
            soft_deadline: Some(start + ms(25)),
            hard_deadline: Some(start + ms(25)),
            ..Limits::default()
        };
        assert_eq!(
            capped.with_fixed_share(start).hard_deadline,
            Some(start + ms(25))
        );
        // Without a clock nothing changes.
        let depth = Limits::depth(9).with_fixed_share(start);
        assert_eq!((depth.depth, depth.hard_deadline), (Some(9), None));
    }

    #[test]
    fn mate_scores_report_moves_with_sign() {
        assert_eq!(Score::from_internal(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_internal(MATE - 3), Score::Mate(2));
        assert_eq!(Score::from_internal(-(MATE - 2)), Score::Mate(-1));
        assert_eq!(Score::from_internal(-(MATE - 4)), Score::Mate(-2));
        assert_eq!(Score::from_internal(37), Score::Cp(37));
        assert_eq!(Score::Mate(-2).to_string(), "mate -2");
    }

    #[test]
    fn mate_scores_are_made_relative_to_the_stored_node() {
        for ply in [0, 1, 7, 40] {
            for score in [MATE - 9, -(MATE - 12), 150, -3] {
                assert_eq!(score_from_tt(score_to_tt(score, ply), ply), score);
            }
        }
        // Mate in 9 plies from the root, stored at ply 4: mate in 5 from the stored node.
        assert_eq!(score_to_tt(MATE - 9, 4), MATE - 5);
    }

    #[test]
    fn stopped_search_still_returns_a_legal_move() {
        let pos = Position::startpos();
        let mut searcher = Searcher::new(1);
        // Stopped before it starts (a second `go` at once): the first iteration still
        // completes, and the second ends at its first node, so the move is a searched one:
        // the one a search to depth 1 finds.
        let stop = Arc::new(AtomicBool::new(true));
        let outcome = searcher.search(&pos, &Limits::default(), &stop, &mut |_| {});
        let best = outcome.best_move.expect("a move");
        assert_eq!(outcome.depth, 1);
        let searched = Searcher::new(1).search_depth(&pos, 1);
        assert_eq!(Some(best), searched.best_move);
        assert_ne!(Some(best), pos.legal_moves().first().copied());

        let outcome = searcher.search(
            &pos,
            &Limits::nodes(5),
            &Arc::new(AtomicBool::new(false)),
            &mut |_| {},
        );
        assert!(
            pos.legal_moves()
                .contains(&outcome.best_move.expect("a move"))
        );
        assert_eq!(outcome.stats.nodes, 5);
    }

    #[test]
    fn no_legal_move_means_no_best_move() {
        let mut searcher = Searcher::new(1);
        let mated = Position::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").expect("valid");
        let outcome = searcher.search_depth(&mated, 3);
        assert_eq!((outcome.best_move, outcome.score), (None, Score::Mate(0)));
        let stalemate = Position::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").expect("valid");
        let outcome = searcher.search_depth(&stalemate, 3);
        assert_eq!((outcome.best_move, outcome.score), (None, Score::Cp(0)));
    }

    #[test]
    fn info_is_reported_once_per_iteration() {
        let mut searcher = Searcher::new(1);
        let mut depths = Vec::new();
        let stop = Arc::new(AtomicBool::new(false));
        let outcome = searcher.search(
            &Position::startpos(),
            &Limits::depth(5),
            &stop,
            &mut |info| {
                assert!(!info.pv.is_empty());
                depths.push(info.depth);
            },
        );
        assert_eq!(depths, vec![1, 2, 3, 4, 5]);
        assert_eq!(outcome.depth, 5);
    }
}
