//! The helper threads of chapter 17, started once and kept across searches.
//!
//! A search on `Threads` N runs the main thread's iterative deepening on the caller's thread and
//! N − 1 helpers beside it. Starting and joining threads at every search would add their cost
//! to every move, which a search of a few milliseconds (a bullet game's move, `go depth 1`)
//! feels; so the helpers are started when `Threads` is set and then wait, parked on a channel,
//! for the next search's job. Stockfish's `ThreadPool` keeps its threads the same way.
//!
//! A kept thread cannot borrow from the caller's stack as a scoped one can: whatever a job needs
//! beyond its own search is owned or shared through an [`Arc`] — the table, the reduction table,
//! the stop flag and the node count. Each helper's killers and histories travel with its job
//! and come back with its result, so the [`Searcher`](super::Searcher) owns them between
//! searches (and `ucinewgame` can clear them) while no two threads ever share them.

use super::ordering::Heuristics;
use super::pruning::{LmrTable, Params};
use super::{Completed, Context, HELPER_STACK_BYTES, Limits, Worker};
use crate::position::Position;
use crate::switches::Switches;
use crate::tt::TranspositionTable;
use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::{self, JoinHandle};

/// The helper threads and their killers and histories.
#[derive(Debug, Default)]
pub(super) struct HelperPool {
    helpers: Vec<Helper>,
    /// Tells the helpers of the running search to stop: set by the main thread when it is done.
    stop: Arc<AtomicBool>,
    /// Where the helpers add their nodes, for the main thread's `info` lines.
    nodes: Arc<AtomicU64>,
    /// How many helper threads are running: each adds one when started and takes it back when
    /// it ends, so a test can see that a smaller `Threads` left no thread behind.
    running: Arc<AtomicUsize>,
}

/// One kept thread: the sending end of its job queue, and its heuristics while it is idle.
#[derive(Debug)]
struct Helper {
    jobs: Option<Sender<Job>>,
    thread: Option<JoinHandle<()>>,
    heuristics: Box<Heuristics>,
}

/// What a search asks of one helper.
struct Job {
    position: Position,
    tt: Arc<TranspositionTable>,
    lmr: Arc<LmrTable>,
    params: Params,
    switches: Switches,
    limits: Limits,
    first_depth: u32,
    last_depth: u32,
    index: usize,
    heuristics: Box<Heuristics>,
    /// The pool's flag, set when the main thread is done, and the search's `stop`: a helper
    /// watches both, so that on `stop` it makes way at once for the main thread, which must
    /// answer (with more threads than cores they take turns).
    stops: [Arc<AtomicBool>; 2],
    nodes: Arc<AtomicU64>,
    done: Sender<Done>,
    oversubscribed: bool,
}

/// What a helper hands back: its deepest completed iteration and its heuristics.
struct Done {
    index: usize,
    completed: Completed,
    heuristics: Box<Heuristics>,
}

/// What every helper of one search shares: the search's settings, by value or [`Arc`].
pub(super) struct SharedSearch<'a> {
    pub position: &'a Position,
    pub tt: &'a Arc<TranspositionTable>,
    pub lmr: &'a Arc<LmrTable>,
    pub params: Params,
    pub switches: Switches,
    pub limits: Limits,
    pub last_depth: u32,
    /// The search's own stop flag (UCI `stop`).
    pub stop: &'a Arc<AtomicBool>,
    /// More threads than cores: each gives way now and then (`Worker::give_way`).
    pub oversubscribed: bool,
}

/// The helpers of one search under way: their results arrive on `done`.
pub(super) struct Running {
    done: Receiver<Done>,
}

impl HelperPool {
    /// How many helpers the pool keeps.
    pub fn len(&self) -> usize {
        self.helpers.len()
    }

    /// How many helper threads are running now.
    pub fn running_threads(&self) -> usize {
        self.running.load(Ordering::SeqCst)
    }

    /// Keeps `count` helpers: starts the missing ones, with empty heuristics, or ends and joins
    /// the extra ones. If the system refuses a thread, the pool keeps the ones it has and says
    /// why.
    pub fn resize(&mut self, count: usize) -> io::Result<()> {
        self.helpers.truncate(count);
        while self.helpers.len() < count {
            let helper = Helper::start(&self.running)?;
            self.helpers.push(helper);
        }
        Ok(())
    }

    /// Empties every helper's killers and histories.
    pub fn clear(&mut self) {
        for helper in &mut self.helpers {
            helper.heuristics.clear();
        }
    }

    /// Where the helpers of the running search add their nodes.
    pub fn node_count(&self) -> &AtomicU64 {
        &self.nodes
    }

    /// The nodes the helpers of the last search searched.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::SeqCst)
    }

    // ANCHOR: start_helpers
    /// Sends every helper its job for a search. With `smpoffset`, half of the helpers start one
    /// ply ahead of the main thread (depth offsets), so the threads are not all at the same node
    /// at the same time; each then deepens until the main thread sets the pool's stop flag.
    pub fn start(&mut self, search: &SharedSearch) -> Running {
        self.stop.store(false, Ordering::SeqCst);
        self.nodes.store(0, Ordering::SeqCst);
        let (done, results) = mpsc::channel();
        for (index, helper) in self.helpers.iter_mut().enumerate() {
            let ahead = search.switches.smpoffset && index % 2 == 0;
            let first_depth = if ahead { 2 } else { 1 };
            let job = Job {
                position: search.position.clone(),
                tt: Arc::clone(search.tt),
                lmr: Arc::clone(search.lmr),
                params: search.params,
                switches: search.switches,
                limits: search.limits.clone(),
                first_depth,
                last_depth: search.last_depth,
                index,
                heuristics: std::mem::take(&mut helper.heuristics),
                stops: [Arc::clone(&self.stop), Arc::clone(search.stop)],
                nodes: Arc::clone(&self.nodes),
                done: done.clone(),
                oversubscribed: search.oversubscribed,
            };
            helper.send(job);
        }
        Running { done: results }
    }
    // ANCHOR_END: start_helpers

    /// Stops the helpers of `running` and waits for each one's result, taking its heuristics
    /// back. When this returns no helper holds the table: it may be resized or cleared.
    pub fn finish(&mut self, running: Running) -> Vec<Completed> {
        self.stop.store(true, Ordering::SeqCst);
        // The channel ends when every job's sender is gone: each helper answers once, and a
        // helper that died drops its job, sender included, as it unwinds.
        running
            .done
            .into_iter()
            .map(|done| {
                if let Some(helper) = self.helpers.get_mut(done.index) {
                    helper.heuristics = done.heuristics;
                }
                done.completed
            })
            .collect()
    }
}

impl Drop for HelperPool {
    /// Stops any helper still searching (a search that panicked never finished its helpers)
    /// before the helpers are joined.
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

impl Helper {
    /// Starts a thread that runs the jobs it is sent until its queue is closed.
    fn start(running: &Arc<AtomicUsize>) -> io::Result<Helper> {
        let (jobs, queue) = mpsc::channel::<Job>();
        running.fetch_add(1, Ordering::SeqCst);
        let thread = thread::Builder::new()
            .name("cb2026 helper".to_string())
            .stack_size(HELPER_STACK_BYTES)
            .spawn({
                let counted = CountedThread(Arc::clone(running));
                move || {
                    for job in queue {
                        job.run();
                    }
                    drop(counted);
                }
            });
        // A thread the system refused dropped its closure, and with it the count.
        Ok(Helper {
            jobs: Some(jobs),
            thread: Some(thread?),
            heuristics: Box::default(),
        })
    }

    /// Queues a job. A helper whose thread has died (it cannot, short of a bug) drops the job,
    /// and the search goes on with one helper fewer.
    fn send(&mut self, job: Job) {
        if let Some(jobs) = &self.jobs {
            let _ = jobs.send(job);
        }
    }
}

/// Takes a helper's count back when its thread ends, however it ends.
struct CountedThread(Arc<AtomicUsize>);

impl Drop for CountedThread {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Drop for Helper {
    /// Closes the queue, so the thread's loop ends, and joins the thread: a smaller `Threads`
    /// or a dropped searcher leaves no thread behind.
    fn drop(&mut self) {
        self.jobs = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Job {
    /// Searches the job's position on this thread and sends back what it completed.
    fn run(mut self) {
        self.heuristics.prepare_for_search();
        let context = Context {
            tt: &self.tt,
            lmr: &self.lmr,
            params: self.params,
            switches: self.switches,
        };
        let mut helper = Worker::new(&self.position, context, &mut self.heuristics, &self.limits);
        helper.stops = [&self.stops[0], &self.stops[1]];
        helper.node_sink = Some(&self.nodes);
        helper.oversubscribed = self.oversubscribed;
        let completed = helper.deepen(self.first_depth, self.last_depth, &mut |_, _| {});
        helper.publish_nodes();
        drop(helper);
        // The table's Arc goes before the answer does: when the main thread has every answer,
        // it holds the table alone again.
        let Job {
            tt,
            index,
            heuristics,
            done,
            ..
        } = self;
        drop(tt);
        let _ = done.send(Done {
            index,
            completed,
            heuristics,
        });
    }
}
