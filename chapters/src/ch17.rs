//! Chapter 17, threads and lock-free entries: what the shared table's slots do when several
//! threads search at once.
//!
//! - [`figures`] (pinned by `cargo test`): the slot's layout (its bytes, the bits of the key
//!   check), how many threads a search may use, and bench, which runs one thread.
//! - [`measured`] (`cargo xtask measure ch17`): the six positions searched with 1, 2 and 8
//!   threads in a 1 MB and a 16 MB table, with the table counting the torn slots its probes
//!   meet (`TranspositionTable::set_torn_read_counting`): how many it rejected, and how many a
//!   table without the XOR would have served. Threaded searches differ from run to run, so
//!   these are measurements of one machine, stored with its load, never pinned.
//!
//! Time to depth, nodes per second and stop latency with threads are measured through the real
//! binary by `cargo xtask perf threads --store` (`snapshots/measured/ch17-threads.yaml`, keys
//! `ch17.threads.*`); the games by `cargo xtask match` (`games.ch17-threads.*`).

use crate::ch01::position;
use crate::ch02::load_average;
use crate::{Chapter, Figure, Figures};
use cb2026::bench;
use cb2026::search::{MAX_THREADS, Searcher};
use cb2026::switches::Switches;
use cb2026::tt::{Geometry, KEY_CHECK_BITS, TtCounters};

/// Chapter 17 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "ch17",
    title: "Threads and lock-free entries",
    bin: "ch17-threads",
    figures,
    measured: Some(measured),
    deep: None,
    print_tables,
};

/// The depth of the torn-slot searches: `cargo xtask perf threads`'s, where threads pay.
const DEPTH: u32 = 12;

/// Threads of the torn-slot searches: one, where no slot can tear (the control), the machine's
/// two cores, and eight threads on them.
const THREADS: [usize; 3] = [1, 2, 8];

/// Table sizes of the torn-slot searches, in MB: a small table, where threads meet in the same
/// slots most often, and the default.
const SIZES_MB: [usize; 2] = [1, 16];

/// Chapter 17's cheap figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("ch17");
    f.add("ch17.slot_bytes", Geometry::OneSlot.bytes())
        .add("ch17.check_bits", KEY_CHECK_BITS)
        .add("ch17.check_passes_one_in", 1u64 << KEY_CHECK_BITS)
        .add("ch17.max_threads", MAX_THREADS);
    let bench = bench::run(
        bench::DEFAULT_DEPTH,
        Switches::default(),
        &mut std::io::sink(),
    )
    .expect("writing to a sink cannot fail");
    f.add("ch17.bench.nodes", bench.nodes);
    f
}

/// What the table counted over the six positions in one configuration.
#[derive(Clone, Copy, Debug)]
struct TornRun {
    threads: usize,
    mb: usize,
    /// Nodes of every thread.
    nodes: u64,
    counters: TtCounters,
}

impl TornRun {
    fn key(&self) -> String {
        format!("ch17.measured.torn.t{}.{}mb", self.threads, self.mb)
    }

    /// Torn slots per million probes, to three decimals.
    fn torn_per_million(&self) -> Figure {
        Figure::fixed(
            self.counters.torn as f64 * 1e6 / self.counters.probes.max(1) as f64,
            3,
        )
    }
}

/// Searches the six positions to [`DEPTH`] with `threads` threads in a table of `mb` MB that
/// counts torn slots, each from an empty table, and sums what the table counted.
fn torn_run(threads: usize, mb: usize) -> TornRun {
    let mut searcher = Searcher::new(mb);
    searcher
        .set_threads(threads)
        .expect("the chapter's thread counts are in range");
    searcher.set_torn_read_counting(true);
    let mut run = TornRun {
        threads,
        mb,
        nodes: 0,
        counters: TtCounters::default(),
    };
    for six in bench::six_positions() {
        searcher.clear();
        let outcome = searcher.search_depth(&position(six.fen), DEPTH);
        let counters = searcher.tt().counters();
        run.nodes += outcome.nodes;
        run.counters.add(&counters);
    }
    run
}

fn torn_runs() -> Vec<TornRun> {
    let mut runs = Vec::new();
    for mb in SIZES_MB {
        for threads in THREADS {
            eprintln!(
                "ch17: the six to depth {DEPTH}, {threads} threads, {mb} MB, counting torn slots"
            );
            runs.push(torn_run(threads, mb));
        }
    }
    runs
}

/// Chapter 17's heavy figures: the torn-slot searches, with the machine's load before and
/// after (eight threads on two cores are the load; what else ran is the question).
pub fn measured() -> Figures {
    let mut f = Figures::new("ch17");
    f.add("ch17.measured.load_before", load_average())
        .add("ch17.measured.depth", DEPTH);
    for run in torn_runs() {
        let key = run.key();
        f.add(&format!("{key}.nodes"), run.nodes)
            .add(&format!("{key}.probes"), run.counters.probes)
            .add(&format!("{key}.torn"), run.counters.torn)
            .add(&format!("{key}.would_serve"), run.counters.torn_would_serve)
            .add(&format!("{key}.per_million"), run.torn_per_million());
    }
    f.add("ch17.measured.load_after", load_average());
    f
}

fn print_tables() {
    println!("Chapter 17: the six positions to depth {DEPTH}, the table counting torn slots.");
    println!(
        "{:>7} {:>6} {:>12} {:>12} {:>8} {:>12} {:>10}",
        "threads", "MB", "nodes", "probes", "torn", "per million", "plain use"
    );
    for run in torn_runs() {
        println!(
            "{:>7} {:>6} {:>12} {:>12} {:>8} {:>12} {:>10}",
            run.threads,
            run.mb,
            run.nodes,
            run.counters.probes,
            run.counters.torn,
            run.torn_per_million().to_string(),
            run.counters.torn_would_serve
        );
    }
    println!(
        "\n(plain use: torn slots a table without the XOR would have served as the probed \
         position's.)\n"
    );
    print!("{}", figures().to_yaml());
}
