//! `cargo xtask perf threads [--runs N] [--depth D] [--store]`: what threads buy on this
//! machine (chapter 17).
//!
//! **Time to depth.** The release engine, one process per thread count, searches each of the
//! six positions to a fixed depth from an empty table (`ucinewgame` before each) with
//! `Threads` 1, 2 and 4, in turns whose order changes every run, so that a change in the
//! machine's load falls on every count alike. The time of a search is the `time` of the last
//! `info` line before `bestmove` (the engine's own clock, from `go`), the nodes its `nodes`
//! (every thread's). Per thread count: the median over the runs of the six searches' total
//! time, the speed-up (one thread's median time over this one's) and the nodes per second
//! (the six's total nodes over their total time, median over the runs).
//!
//! **The helpers' depth offsets.** The same searches with 2 and 4 threads and the switch
//! `smpoffset` off (every helper starts at depth 1 like the main thread), in the same turns:
//! the speed-up with and without the offsets is the measurement that chooses the default.
//!
//! **Stop.** `Threads` 1, 2, 4 and 8, `go infinite` on the first of the six, `stop` after
//! 300 ms: the time from writing `stop` to reading `bestmove`, median and slowest over `--stops`
//! tries each. On two cores eight threads take turns, so eight is the slowest case a GUI will
//! meet; the smaller counts show how the time grows with the threads waiting for a core.
//!
//! **Start.** `go depth 1` on the start position, `Threads` 1 and 8, the median time from
//! writing `go` to reading `bestmove` over 50 tries: the difference is what handing seven helper
//! threads their jobs and collecting their answers costs a search (the threads themselves are
//! kept from one search to the next).
//!
//! These are measurements of one machine at one moment, never pinned: `--store` writes
//! `snapshots/measured/ch17-threads.yaml` with the machine, the load average before and after,
//! and the commit, and the book quotes that file.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use arena::EngineSpec;
use arena::bench::load_average;
use arena::uci::{Reply, UciEngine};
use cb2026::bench::six_positions;
use cb2026::measure::{median, median_duration};

use crate::tools::{build_cb2026, write_measured};

/// Where `--store` writes, relative to the repository.
const STORED: &str = "snapshots/measured/ch17-threads.yaml";

/// The settings of the time-to-depth table: a thread count, and whether half of the helpers
/// start a ply deeper (the switch `smpoffset`).
const SETTINGS: [Setting; 5] = [
    Setting {
        threads: 1,
        offset: true,
    },
    Setting {
        threads: 2,
        offset: true,
    },
    Setting {
        threads: 4,
        offset: true,
    },
    Setting {
        threads: 2,
        offset: false,
    },
    Setting {
        threads: 4,
        offset: false,
    },
];

/// One row of the time-to-depth table.
#[derive(Clone, Copy, Debug)]
struct Setting {
    threads: usize,
    offset: bool,
}

impl Setting {
    /// The row's key: `t2`, or `t2.nooffset` with the offsets off.
    fn key(self) -> String {
        let t = self.threads;
        if self.offset {
            format!("t{t}")
        } else {
            format!("t{t}.nooffset")
        }
    }
}

/// The thread counts whose stop is timed.
const STOP_THREADS: [usize; 4] = [1, 2, 4, 8];

/// The table size of every search, in MB.
const HASH_MB: u32 = 64;

/// The command line of `cargo xtask perf threads`.
#[derive(clap::Args, Debug)]
pub struct PerfThreadsArgs {
    /// Runs of the six searches per thread count; medians are reported.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    runs: u32,
    /// The depth each of the six is searched to.
    #[arg(long, default_value_t = 12)]
    depth: u32,
    /// Tries of the stop latency at each thread count.
    #[arg(long, default_value_t = 10)]
    stops: u32,
    /// Write the medians to snapshots/measured/ch17-threads.yaml for the book.
    #[arg(long)]
    store: bool,
}

/// One run of the six searches at one thread count.
#[derive(Clone, Copy, Debug)]
struct SixRun {
    nodes: u64,
    time: Duration,
}

/// Starts the engine with `threads` threads and the table size of every measurement, the
/// helpers' depth offsets on (the default) or off.
fn engine(program: &str, threads: usize, offset: bool) -> Result<UciEngine, String> {
    let spec = EngineSpec::new("cb2026", program);
    let mut engine = UciEngine::start(&spec).map_err(|e| format!("cb2026: {e}"))?;
    let options = [
        ("Threads".to_string(), threads.to_string()),
        ("Hash".to_string(), HASH_MB.to_string()),
        ("smpoffset".to_string(), offset.to_string()),
    ];
    engine
        .configure(&options)
        .map_err(|e| format!("cb2026: {e}"))?;
    Ok(engine)
}

/// The time and nodes of the last `info` line of a reply.
fn time_and_nodes(reply: &Reply) -> Result<(Duration, u64), String> {
    match (reply.time_ms, reply.nodes) {
        (Some(ms), Some(nodes)) => Ok((Duration::from_millis(ms), nodes)),
        _ => Err(format!("no info line with time and nodes before {reply:?}")),
    }
}

/// The six positions searched to `depth` with one setting, each from an empty table.
fn six_run(program: &str, setting: Setting, depth: u32) -> Result<SixRun, String> {
    let never = AtomicBool::new(false);
    let mut engine = engine(program, setting.threads, setting.offset)?;
    let mut run = SixRun {
        nodes: 0,
        time: Duration::ZERO,
    };
    for p in six_positions() {
        engine.new_game(&never).map_err(|e| e.to_string())?;
        let position = format!("position fen {}", p.fen);
        let go = format!("go depth {depth}");
        let reply = engine
            .go(&position, &go, Duration::from_secs(600), &never)
            .map_err(|e| format!("{}: {e}", p.id))?;
        let (time, nodes) = time_and_nodes(&reply)?;
        run.time += time;
        run.nodes += nodes;
    }
    Ok(run)
}

/// The time from `stop` to `bestmove` with `threads` threads searching `go infinite`.
fn stop_latency(program: &str, threads: usize, tries: u32) -> Result<Vec<Duration>, String> {
    let never = AtomicBool::new(false);
    let mut engine = engine(program, threads, true)?;
    let position = format!("position fen {}", six_positions()[0].fen);
    let mut latencies = Vec::new();
    for _ in 0..tries {
        engine.new_game(&never).map_err(|e| e.to_string())?;
        let (_, after_stop) = engine
            .go_then_stop(
                &position,
                "go infinite",
                Duration::from_millis(300),
                Duration::from_secs(10),
                &never,
            )
            .map_err(|e| format!("stop with {threads} threads: {e}"))?;
        latencies.push(after_stop);
    }
    Ok(latencies)
}

/// The median time from `go depth 1` to `bestmove` with `threads` threads.
fn depth_one_time(program: &str, threads: usize) -> Result<Duration, String> {
    let never = AtomicBool::new(false);
    let mut engine = engine(program, threads, true)?;
    engine.new_game(&never).map_err(|e| e.to_string())?;
    let mut times = Vec::new();
    for _ in 0..50 {
        let reply = engine
            .go(
                "position startpos",
                "go depth 1",
                Duration::from_secs(10),
                &never,
            )
            .map_err(|e| e.to_string())?;
        times.push(reply.elapsed);
    }
    Ok(median_duration(&times))
}

pub fn run(root: &Path, args: &PerfThreadsArgs) -> Result<(), String> {
    let binary = build_cb2026(root)?;
    let program = binary.display().to_string();
    let load_before = load_average();
    let mut runs: Vec<Vec<SixRun>> = vec![Vec::new(); SETTINGS.len()];
    for run in 0..args.runs {
        let mut order: Vec<usize> = (0..SETTINGS.len()).collect();
        order.rotate_left(run as usize % SETTINGS.len());
        for i in order {
            let setting = SETTINGS[i];
            let result = six_run(&program, setting, args.depth)?;
            println!(
                "run {}: {:>12}: {:>9} nodes in {:>7.3} s",
                run + 1,
                setting.key(),
                result.nodes,
                result.time.as_secs_f64()
            );
            runs[i].push(result);
        }
    }
    let mut stops = Vec::new();
    for threads in STOP_THREADS {
        stops.push((threads, stop_latency(&program, threads, args.stops)?));
    }
    let start_one = depth_one_time(&program, 1)?;
    let start_eight = depth_one_time(&program, 8)?;
    let load_after = load_average();

    let median_time =
        |i: usize| median_duration(&runs[i].iter().map(|r| r.time).collect::<Vec<_>>());
    let median_knps = |i: usize| {
        median(
            &runs[i]
                .iter()
                .map(|r| r.nodes as f64 / r.time.as_secs_f64() / 1000.0)
                .collect::<Vec<_>>(),
        )
    };
    let one = median_time(0).as_secs_f64();
    let mut figures = Vec::new();
    println!(
        "\nthe six at depth {}, medians of {} runs:",
        args.depth, args.runs
    );
    println!("     setting   time (s)   speed-up   knps");
    for (i, setting) in SETTINGS.iter().enumerate() {
        let time = median_time(i).as_secs_f64();
        let speedup = one / time;
        let knps = median_knps(i);
        let key = setting.key();
        println!("{key:>12} {time:>10.3} {speedup:>10.2} {knps:>6.0}");
        figures.push(format!("ch17.threads.{key}.time_s: {time:.3}"));
        figures.push(format!("ch17.threads.{key}.speedup: {speedup:.2}"));
        figures.push(format!("ch17.threads.{key}.knps: {knps:.0}"));
    }
    for (threads, times) in &stops {
        let median_ms = median_duration(times).as_secs_f64() * 1000.0;
        let slowest = times.iter().max().copied().unwrap_or_default();
        let slowest_ms = slowest.as_secs_f64() * 1000.0;
        println!(
            "stop with {threads} thread(s): median {median_ms:.1} ms, slowest {slowest_ms:.1} ms \
             of {}",
            times.len()
        );
        figures.push(format!(
            "ch17.threads.stop{threads}.median_ms: {median_ms:.1}"
        ));
        figures.push(format!(
            "ch17.threads.stop{threads}.slowest_ms: {slowest_ms:.1}"
        ));
    }
    let (ms1, ms8) = (
        start_one.as_secs_f64() * 1000.0,
        start_eight.as_secs_f64() * 1000.0,
    );
    println!("go depth 1: {ms1:.2} ms with 1 thread, {ms8:.2} ms with 8");
    figures.push(format!("ch17.threads.depth: {}", args.depth));
    figures.push(format!("ch17.threads.runs: {}", args.runs));
    figures.push(format!("ch17.threads.stop.tries: {}", args.stops));
    figures.push(format!("ch17.threads.go_depth1.t1_ms: {ms1:.2}"));
    figures.push(format!("ch17.threads.go_depth1.t8_ms: {ms8:.2}"));
    if let (Some(before), Some(after)) = (load_before, load_after) {
        println!("load average: {before:.2} before, {after:.2} after");
        figures.push(format!("ch17.threads.load_before: {before:.2}"));
        figures.push(format!("ch17.threads.load_after: {after:.2}"));
    }
    if args.store {
        figures.sort();
        let command = format!(
            "cargo xtask perf threads --runs {} --depth {} --stops {} --store",
            args.runs, args.depth, args.stops
        );
        let program = format!(
            "cb2026 (release) over UCI: the six to depth {} with Threads 1, 2 and 4, and 2 and 4 \
             with smpoffset off (the engine's own time and nodes, medians of {} runs in turns), \
             stop with Threads 1, 2, 4 and 8 after 300 ms of go infinite, go depth 1 with \
             Threads 1 and 8",
            args.depth, args.runs
        );
        let lines: String = figures.iter().map(|line| format!("{line}\n")).collect();
        write_measured(root, STORED, &command, &program, &lines)?;
    }
    Ok(())
}
