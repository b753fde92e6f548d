//! `cargo xtask perf cpu [--runs N] [--depth D] [--store]`: what the processor's instructions are
//! worth (M16).
//!
//! **What is compared.** The same source built twice: as cargo builds it here, for the
//! `x86-64-v2` level `.cargo/config.toml` names (with the POPCNT instruction), and for Rust's
//! default `x86-64` (without it), into `target/baseline-cpu`. Each runs `bench D` (our fifty
//! positions, one thread, the table emptied before each) as a process of its own, timed by its
//! CPU time less its start-up's, exactly as `cargo xtask perf bench` times us against Ethereal
//! (its doc comment says why CPU time and why start-up is left out). The two builds run in
//! turns, the order swapped every run, so that a change in the machine's load falls on both;
//! the figures are medians.
//!
//! **Determinism.** Both builds must count the same nodes, in every run: the instructions differ,
//! the search may not. A difference stops the command with an error.
//!
//! **What `--store` writes.** `snapshots/measured/m16-cpu-d<D>.yaml`, one file per depth (bench's
//! own depth 8 spends much of its time emptying the table before each of its short searches;
//! a deeper bench is mostly search), keys `m16.perf.cpu.d<D>.*`: `v2_knps` and `baseline_knps`
//! (thousands of nodes per CPU second, start-up excluded), `speedup` (the first over the
//! second), `nodes`, `runs`, and the load average before and after (`load_before`,
//! `load_after`).

use std::path::Path;

use arena::bench::load_average;

use crate::perf_bench::{Contender, Side, Summary, print_run};
use crate::tools::write_measured;
use xtask::release::{BASELINE_CPU, build_cb2026, build_cb2026_for_baseline_cpu};

/// Where `--store` writes for bench at `depth`, relative to the repository.
fn stored(depth: u32) -> String {
    format!("snapshots/measured/m16-cpu-d{depth}.yaml")
}

/// The command line of `cargo xtask perf cpu`.
#[derive(clap::Args, Debug)]
pub struct PerfCpuArgs {
    /// Runs of each build's bench; the medians are reported.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    runs: u32,
    /// The bench depth (bench's own default if not given).
    #[arg(long, default_value_t = cb2026::bench::DEFAULT_DEPTH)]
    depth: u32,
    /// Write the medians to snapshots/measured/m16-cpu-d<DEPTH>.yaml for the book.
    #[arg(long)]
    store: bool,
}

/// `cargo xtask perf cpu`.
pub fn run(root: &Path, args: &PerfCpuArgs) -> Result<(), String> {
    let usual = build_cb2026(root)?;
    let baseline = build_cb2026_for_baseline_cpu(root)?;
    let load_before = load_average().unwrap_or(f64::NAN);
    let mut v2 = Contender::new(Side::Ours, usual, args.depth);
    let mut old = Contender::new(Side::Ours, baseline, args.depth);
    for run in 0..args.runs {
        // Taking turns: the usual build first on even runs, the baseline first on odd ones.
        let order = if run % 2 == 0 {
            [(&mut v2, "x86-64-v2"), (&mut old, BASELINE_CPU)]
        } else {
            [(&mut old, BASELINE_CPU), (&mut v2, "x86-64-v2")]
        };
        for (build, label) in order {
            let result = build.run_once()?;
            print_run(run, label, &result);
        }
    }
    let load_after = load_average().unwrap_or(f64::NAN);
    let (a, b) = (v2.summary(), old.summary());
    if a.nodes != b.nodes {
        return Err(format!(
            "the two builds searched different trees ({} and {} nodes): the instructions may \
             change the speed, never the search",
            a.nodes, b.nodes
        ));
    }
    println!(
        "\nmedians of {} runs, bench {}: {} nodes in both builds\n\
         x86-64-v2 {:>9.1} k nodes/s\n\
         {BASELINE_CPU:<9} {:>9.1} k nodes/s\n\
         speed-up  {:>9.2}\n\
         load average {load_before:.2} before, {load_after:.2} after",
        args.runs,
        args.depth,
        a.nodes,
        a.knps(),
        b.knps(),
        a.knps() / b.knps()
    );
    if args.store {
        let program = format!(
            "cb2026 `bench {}` (release) built for x86-64-v2 and for {BASELINE_CPU}, one process \
             per run, timed by the CPU time of the bench process less that of the engine's \
             start-up (uci, quit), medians of {} alternating runs",
            args.depth, args.runs
        );
        write_measured(
            root,
            &stored(args.depth),
            &format!(
                "cargo xtask perf cpu --runs {} --depth {} --store",
                args.runs, args.depth
            ),
            &program,
            &stored_figures(&a, &b, args, load_before, load_after),
        )?;
    }
    Ok(())
}

/// The figures `--store` writes, as sorted `key: value` lines.
fn stored_figures(
    v2: &Summary,
    baseline: &Summary,
    args: &PerfCpuArgs,
    load_before: f64,
    load_after: f64,
) -> String {
    let key = |name: &str| format!("m16.perf.cpu.d{}.{name}", args.depth);
    // Already in sorted order, as every stored measurement is.
    let lines = [
        format!("{}: {:.1}", key("baseline_knps"), baseline.knps()),
        format!("{}: {load_after:.2}", key("load_after")),
        format!("{}: {load_before:.2}", key("load_before")),
        format!("{}: {}", key("nodes"), v2.nodes),
        format!("{}: {}", key("runs"), args.runs),
        format!("{}: {:.2}", key("speedup"), v2.knps() / baseline.knps()),
        format!("{}: {:.1}", key("v2_knps"), v2.knps()),
    ];
    lines.iter().map(|line| format!("{line}\n")).collect()
}
