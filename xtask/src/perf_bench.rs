//! `cargo xtask perf bench [--runs N] [--store]`: our bench speed against Ethereal's.
//!
//! **What is compared.** Each engine runs its own `bench` as OpenBench runs it, a process of
//! its own: `cb2026 bench 8` (depth 8) and Debian's `ethereal-chess bench 13 1 16` (Ethereal's
//! default: depth 13, one thread, a 16 MB table; its arguments are depth, threads and table
//! size). Both search the same fifty positions in the same order (`data/suites/bench-50.csv`
//! is Ethereal's set; the run checks the FENs each engine prints), one thread, emptying the
//! table before each position. The engines run in turns, the order swapped every run, so that a
//! change in the machine's load falls on both; the figures are medians.
//!
//! **What it is not.** The two engines search different trees: different depths, pruning,
//! move ordering and evaluation. Nodes per second says how much work each does per node it
//! visits (a heavier evaluation, more pruning tests, a slower move generator all cost nodes
//! per second), not how strong either is: an engine that prunes more searches fewer, costlier
//! nodes and may play better for it. Strength is measured by games (`cargo xtask match`).
//!
//! **How it is timed.** By the CPU time of the engine's process, not the wall clock: on a
//! shared machine other processes take the cores for a while, which stretches the wall clock
//! of whichever engine is running, not the work it does. A process's CPU time is read when it
//! has exited but before it is reaped (a zombie still has its `/proc/<pid>` entry): the sum of
//! its threads' run time in `/proc/<pid>/task/*/schedstat`, in nanoseconds, or the coarser
//! `utime + stime` of `/proc/<pid>/stat` (in clock ticks, which also count threads that ended
//! earlier) when that is larger. **Start-up is not counted**: our magic-number search (about a
//! tenth of a second) and Ethereal's table set-up would otherwise count as search. Each run
//! also starts each engine, says `uci` and `quit`, and takes that process's CPU time as the
//! engine's start-up; the speed is the nodes divided by the median CPU time of the bench
//! process less the median start-up. The engines' own figures (the `nps` each prints, by its
//! wall clock, start-up excluded) and the whole process's wall clock are printed beside it.
//!
//! **Determinism.** Each engine's node count must be the same in every run: bench is a fixed
//! search, and a count that moves means the comparison is of nothing fixed. A difference stops
//! the command with an error.
//!
//! **What `--store` writes.** `snapshots/measured/ch16-bench-speed.yaml`, in the format of
//! every stored measurement (a header, then `key: value` lines), keys `ch16.perf.bench.*`:
//! `ours_knps` and `ethereal_knps` (thousands of nodes per CPU second, start-up excluded),
//! `ratio` (ours ÷ Ethereal of those), `ours_nodes`, `ethereal_nodes`, `ours_depth`,
//! `ethereal_depth`, `ours_reported_knps`, `ethereal_reported_knps` and `reported_ratio` (the
//! engines' own figures), `ours_startup_ms`, `ethereal_startup_ms`, `runs` and `ethereal` (the
//! version that answered `uci`).

use std::path::{Path, PathBuf};
use std::time::Duration;

use arena::process::{self, Finished};
use cb2026::measure::{median, median_duration};

use crate::tools::{build_cb2026, debian_engine, write_measured};

/// Where `--store` writes, relative to the repository.
const STORED: &str = "snapshots/measured/ch16-bench-speed.yaml";

/// Debian's Ethereal: the package and its binary.
const ETHEREAL_PACKAGE: &str = "ethereal-chess";
const ETHEREAL: &str = "/usr/games/ethereal-chess";

/// Ethereal's default bench depth, passed explicitly so the command says what it runs.
const ETHEREAL_DEPTH: u32 = 13;

/// The command line of `cargo xtask perf bench`.
#[derive(clap::Args, Debug)]
pub struct PerfBenchArgs {
    /// Runs of each engine's bench; the medians are reported.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    runs: u32,
    /// Write the medians to snapshots/measured/ch16-bench-speed.yaml for the book.
    #[arg(long)]
    store: bool,
}

/// Which engine, and so how its bench is called and read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Side {
    Ours,
    Ethereal,
}

/// What one bench printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BenchReport {
    pub(crate) nodes: u64,
    /// The engine's own nodes per second, by its own wall clock.
    nps: u64,
    /// The positions searched, in order.
    fens: Vec<String>,
}

/// Reads our bench: a line per position ending with its FEN (six fields), then `N nodes N nps`.
fn parse_ours(output: &str) -> Result<BenchReport, String> {
    let mut fens = Vec::new();
    let mut summary = None;
    for line in output.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let words: Vec<&str> = line.split_whitespace().collect();
        if line.starts_with("position") {
            if let Some(fen) = words.len().checked_sub(6).map(|start| &words[start..]) {
                fens.push(fen.join(" "));
            }
        } else if let [nodes, "nodes", nps, "nps"] = words.as_slice() {
            summary = Some((*nodes, *nps));
        }
    }
    let (nodes, nps) = summary.ok_or("cb2026 bench printed no `N nodes N nps` line")?;
    Ok(BenchReport {
        nodes: number(nodes, "cb2026 bench's node count")?,
        nps: number(nps, "cb2026 bench's nps")?,
        fens,
    })
}

/// Reads Ethereal's bench: `Position #i: FEN` before each search (its `info` lines between),
/// then `Time  : Nms`, `Nodes : N` and `NPS   : N`.
fn parse_ethereal(output: &str) -> Result<BenchReport, String> {
    let mut fens = Vec::new();
    let (mut nodes, mut nps) = (None, None);
    for line in output.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("Position #") {
            if let Some((_, fen)) = rest.split_once(':') {
                fens.push(fen.split_whitespace().collect::<Vec<_>>().join(" "));
            }
        } else if let Some((name, value)) = line.split_once(':') {
            match name.trim() {
                "Nodes" => nodes = Some(value.trim()),
                "NPS" => nps = Some(value.trim()),
                _ => {}
            }
        }
    }
    let missing = |what| format!("Ethereal's bench printed no `{what} : N` line");
    Ok(BenchReport {
        nodes: number(
            nodes.ok_or_else(|| missing("Nodes"))?,
            "Ethereal's node count",
        )?,
        nps: number(nps.ok_or_else(|| missing("NPS"))?, "Ethereal's NPS")?,
        fens,
    })
}

fn number(text: &str, what: &str) -> Result<u64, String> {
    text.parse()
        .map_err(|_| format!("{what} is not a number: {text:?}"))
}

/// Runs `program args` to its end ([`arena::process::run_to_exit`], which also takes its CPU
/// time), writing `input` (if any). A non-zero exit is an error here: a bench that failed has
/// nothing to time.
fn run_to_exit(program: &Path, args: &[String], input: Option<&str>) -> Result<Finished, String> {
    let finished = process::run_to_exit(program, args, input, None)?;
    if !finished.status.success() {
        return Err(format!(
            "{} {} failed ({}): {}",
            program.display(),
            args.join(" "),
            finished.status,
            finished.stderr.trim()
        ));
    }
    Ok(finished)
}

/// One engine under test and everything measured of it.
pub(crate) struct Contender {
    side: Side,
    program: PathBuf,
    pub(crate) depth: u32,
    /// The name it gave in `id name`.
    pub(crate) name: String,
    pub(crate) runs: Vec<Run>,
}

/// One run of one engine: its start-up, then its bench.
#[derive(Clone, Debug)]
pub(crate) struct Run {
    pub(crate) report: BenchReport,
    pub(crate) bench_cpu: Option<Duration>,
    pub(crate) bench_wall: Duration,
    pub(crate) startup_cpu: Option<Duration>,
}

impl Contender {
    pub(crate) fn new(side: Side, program: PathBuf, depth: u32) -> Contender {
        Contender {
            side,
            name: program.display().to_string(),
            program,
            depth,
            runs: Vec::new(),
        }
    }

    /// The arguments of its bench: depth, and for Ethereal one thread and a 16 MB table.
    fn bench_args(&self) -> Vec<String> {
        let mut args = vec!["bench".to_string(), self.depth.to_string()];
        if self.side == Side::Ethereal {
            args.extend(["1".to_string(), cb2026::bench::HASH_MB.to_string()]);
        }
        args
    }

    fn parse(&self, output: &str) -> Result<BenchReport, String> {
        match self.side {
            Side::Ours => parse_ours(output),
            Side::Ethereal => parse_ethereal(output),
        }
    }

    /// Starts the engine, says `uci` and `quit`: its start-up, and its name.
    fn start_up(&mut self) -> Result<Option<Duration>, String> {
        let finished = run_to_exit(&self.program, &[], Some("uci\nquit\n"))?;
        if let Some(name) = finished
            .stdout
            .lines()
            .find_map(|line| line.strip_prefix("id name "))
        {
            self.name = name.trim().to_string();
        }
        Ok(finished.cpu)
    }

    /// One run: start-up, then bench; checks the count against the first run's.
    pub(crate) fn run_once(&mut self) -> Result<Run, String> {
        let startup_cpu = self.start_up()?;
        let finished = run_to_exit(&self.program, &self.bench_args(), None)?;
        let run = Run {
            report: self.parse(&finished.stdout)?,
            bench_cpu: finished.cpu,
            bench_wall: finished.wall,
            startup_cpu,
        };
        self.runs.push(run.clone());
        same_nodes_every_run(&self.name, &self.runs)?;
        Ok(run)
    }

    pub(crate) fn summary(&self) -> Summary {
        summarize(self.depth, &self.runs)
    }
}

/// The determinism check: every run of an engine's bench counts the same nodes.
fn same_nodes_every_run(engine: &str, runs: &[Run]) -> Result<(), String> {
    let Some(first) = runs.first() else {
        return Ok(());
    };
    match runs
        .iter()
        .enumerate()
        .find(|(_, run)| run.report.nodes != first.report.nodes)
    {
        None => Ok(()),
        Some((i, run)) => Err(format!(
            "{engine}'s bench is not deterministic: {} nodes in run 1, {} in run {}; \
             a bench that moves measures nothing fixed, so no speed is reported",
            first.report.nodes,
            run.report.nodes,
            i + 1
        )),
    }
}

/// The median of durations that may be missing: `None` if any is.
fn median_time(times: impl Iterator<Item = Option<Duration>>) -> Option<Duration> {
    let times: Option<Vec<Duration>> = times.collect();
    times.map(|times| median_duration(&times))
}

/// Thousands of nodes per second.
fn knps(nodes: u64, time: Duration) -> f64 {
    nodes as f64 / time.as_secs_f64().max(1e-9) / 1e3
}

/// One engine's medians.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Summary {
    pub(crate) depth: u32,
    pub(crate) nodes: u64,
    /// The bench process's CPU time, start-up included.
    pub(crate) bench_cpu: Option<Duration>,
    pub(crate) startup_cpu: Option<Duration>,
    /// Nodes per CPU second of search: the bench's CPU time less the start-up's.
    pub(crate) cpu_knps: Option<f64>,
    /// The engine's own figure.
    pub(crate) reported_knps: f64,
    /// The bench process's wall clock, start-up included.
    pub(crate) wall: Duration,
}

impl Summary {
    /// The figure the comparison uses: by CPU time where the machine gives it, else the wall
    /// clock of the whole process.
    pub(crate) fn knps(&self) -> f64 {
        self.cpu_knps.unwrap_or_else(|| knps(self.nodes, self.wall))
    }
}

fn summarize(depth: u32, runs: &[Run]) -> Summary {
    let nodes = runs.first().map_or(0, |run| run.report.nodes);
    let bench_cpu = median_time(runs.iter().map(|run| run.bench_cpu));
    let startup_cpu = median_time(runs.iter().map(|run| run.startup_cpu));
    let cpu_knps = bench_cpu
        .zip(startup_cpu)
        .map(|(bench, startup)| knps(nodes, bench.saturating_sub(startup)));
    let reported: Vec<f64> = runs.iter().map(|run| run.report.nps as f64 / 1e3).collect();
    Summary {
        depth,
        nodes,
        bench_cpu,
        startup_cpu,
        cpu_knps,
        reported_knps: median(&reported),
        wall: median_time(runs.iter().map(|run| Some(run.bench_wall))).unwrap_or_default(),
    }
}

/// `cargo xtask perf bench`.
pub fn run(root: &Path, args: &PerfBenchArgs) -> Result<(), String> {
    let ours_binary = build_cb2026(root)?;
    let ethereal_binary = debian_engine(ETHEREAL, ETHEREAL_PACKAGE)?;
    let mut ours = Contender::new(Side::Ours, ours_binary, cb2026::bench::DEFAULT_DEPTH);
    let mut theirs = Contender::new(Side::Ethereal, ethereal_binary, ETHEREAL_DEPTH);
    for run in 0..args.runs {
        // Taking turns: ours first on even runs, Ethereal first on odd ones.
        let order = if run % 2 == 0 {
            [&mut ours, &mut theirs]
        } else {
            [&mut theirs, &mut ours]
        };
        for engine in order {
            let result = engine.run_once()?;
            print_run(run, &engine.name, &result);
        }
    }
    check_same_positions(&ours, &theirs);
    print_table(&ours, &theirs, args.runs);
    if args.store {
        store(root, &ours, &theirs, args.runs)?;
    }
    Ok(())
}

/// Says whether the two benches searched the same positions in the same order (they should:
/// both use Ethereal's fifty). A difference is reported, not fatal: the speeds still stand.
fn check_same_positions(ours: &Contender, theirs: &Contender) {
    let fens = |c: &Contender| c.runs.first().map(|run| run.report.fens.clone());
    match (fens(ours), fens(theirs)) {
        (Some(a), Some(b)) if a == b => {
            println!(
                "\nboth benches searched the same {} positions, in the same order",
                a.len()
            );
        }
        (Some(a), Some(b)) => println!(
            "\nnote: the benches searched different positions ({} and {}), or in another order",
            a.len(),
            b.len()
        ),
        _ => {}
    }
}

pub(crate) fn seconds(time: Option<Duration>, places: usize) -> String {
    time.map_or_else(
        || "-".to_string(),
        |t| format!("{:.places$}", t.as_secs_f64()),
    )
}

pub(crate) fn print_run(run: u32, engine: &str, result: &Run) {
    println!(
        "run {} {engine:<16} {:>9} nodes | bench {} s CPU, {:.3} s wall | start-up {} s CPU | own {:.1} k nodes/s",
        run + 1,
        result.report.nodes,
        seconds(result.bench_cpu, 3),
        result.bench_wall.as_secs_f64(),
        seconds(result.startup_cpu, 3),
        result.report.nps as f64 / 1e3,
    );
}

fn print_table(ours: &Contender, theirs: &Contender, runs: u32) {
    let (a, b) = (ours.summary(), theirs.summary());
    let ratio = |x: f64, y: f64| format!("{:.2}", x / y);
    let knps_cell = |v: Option<f64>| v.map_or_else(|| "-".to_string(), |v| format!("{v:.1}"));
    println!("\nmedians of {runs} runs");
    let row = |label: &str, x: String, y: String, r: String| {
        println!("{label:<38} {x:>16} {y:>16} {r:>16}");
    };
    row(
        "",
        ours.name.clone(),
        theirs.name.clone(),
        "ours ÷ theirs".into(),
    );
    row(
        "bench depth",
        a.depth.to_string(),
        b.depth.to_string(),
        String::new(),
    );
    row(
        "nodes (the same every run)",
        a.nodes.to_string(),
        b.nodes.to_string(),
        String::new(),
    );
    row(
        "bench process, CPU s",
        seconds(a.bench_cpu, 3),
        seconds(b.bench_cpu, 3),
        String::new(),
    );
    row(
        "start-up (uci, quit), CPU s",
        seconds(a.startup_cpu, 3),
        seconds(b.startup_cpu, 3),
        String::new(),
    );
    let cpu_ratio = a
        .cpu_knps
        .zip(b.cpu_knps)
        .map_or_else(|| "-".to_string(), |(x, y)| ratio(x, y));
    row(
        "k nodes/s, CPU less start-up",
        knps_cell(a.cpu_knps),
        knps_cell(b.cpu_knps),
        cpu_ratio,
    );
    row(
        "k nodes/s, the engine's own (wall)",
        format!("{:.1}", a.reported_knps),
        format!("{:.1}", b.reported_knps),
        ratio(a.reported_knps, b.reported_knps),
    );
    let (wall_a, wall_b) = (knps(a.nodes, a.wall), knps(b.nodes, b.wall));
    row(
        "k nodes/s, wall clock of the process",
        format!("{wall_a:.1}"),
        format!("{wall_b:.1}"),
        ratio(wall_a, wall_b),
    );
}

/// The figures `--store` writes, as sorted `key: value` lines.
fn stored_figures(ours: &Summary, theirs: &Summary, ethereal_name: &str, runs: u32) -> String {
    let key = |name: &str| format!("ch16.perf.bench.{name}");
    let mut lines = vec![
        format!("{}: {runs}", key("runs")),
        format!(
            "{}: \"{}\"",
            key("ethereal"),
            ethereal_name.replace('"', "'")
        ),
        format!("{}: {:.2}", key("ratio"), ours.knps() / theirs.knps()),
        format!(
            "{}: {:.2}",
            key("reported_ratio"),
            ours.reported_knps / theirs.reported_knps
        ),
    ];
    for (side, summary) in [("ours", ours), ("ethereal", theirs)] {
        let startup_ms = summary.startup_cpu.map_or(0.0, |t| t.as_secs_f64() * 1e3);
        lines.extend([
            format!("{}: {}", key(&format!("{side}_depth")), summary.depth),
            format!("{}: {}", key(&format!("{side}_nodes")), summary.nodes),
            format!("{}: {:.1}", key(&format!("{side}_knps")), summary.knps()),
            format!(
                "{}: {:.1}",
                key(&format!("{side}_reported_knps")),
                summary.reported_knps
            ),
            format!("{}: {startup_ms:.0}", key(&format!("{side}_startup_ms"))),
        ]);
    }
    lines.sort();
    lines.iter().map(|line| format!("{line}\n")).collect()
}

/// Writes [`STORED`].
fn store(root: &Path, ours: &Contender, theirs: &Contender, runs: u32) -> Result<(), String> {
    let (a, b) = (ours.summary(), theirs.summary());
    let clock = if a.cpu_knps.is_some() && b.cpu_knps.is_some() {
        "the CPU time of the bench process less that of the engine's start-up (uci, quit)"
    } else {
        "the wall clock of the bench process"
    };
    let program = format!(
        "cb2026 `bench {}` (release) and {} `bench {}` (Debian), one process per run, timed by \
         {clock}, medians of {runs} alternating runs",
        a.depth,
        theirs.name,
        theirs.bench_args()[1..].join(" "),
    );
    write_measured(
        root,
        STORED,
        &format!("cargo xtask perf bench --runs {runs} --store"),
        &program,
        &stored_figures(&a, &b, &theirs.name, runs),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The start and end of a real `cb2026 bench` (depth 8), middle positions left out.
    const OURS: &str = "\
position  1:      44886 nodes  bestmove e1g1   score cp 67  r3k2r/2pb1ppp/2pp1q2/p7/1nP1B3/1P2P3/P2N1PPP/R2QK2R w KQkq a6 0 14
position  2:      40389 nodes  bestmove e7d6   score cp -42  4rrk1/2p1b1p1/p1p3q1/4p3/2P2n1p/1P1NR2P/PB3PP1/3R1QK1 b - - 2 24
position 50:      30111 nodes  bestmove h1h8   score cp 123  2r2b2/5p2/5k2/p1r1pP2/P2pB3/1P3P2/K1P3R1/7R w - - 23 93
2713238 nodes 1009779 nps
";

    /// The start and end of a real `ethereal-chess bench` (Ethereal 12.00, Debian).
    const ETHEREAL_OUTPUT: &str = "
Position #1: r3k2r/2pb1ppp/2pp1q2/p7/1nP1B3/1P2P3/P2N1PPP/R2QK2R w KQkq a6 0 14
info depth 1 seldepth 1 multipv 1 score cp 118 time 0 nodes 5 nps 5000 tbhits 0 hashfull 0 pv e1g1 
info depth 13 seldepth 20 multipv 1 score cp 56 time 137 nodes 156309 nps 1132000 tbhits 0 hashfull 28 pv e1g1 h7h6 

Position #2: 4rrk1/2p1b1p1/p1p3q1/4p3/2P2n1p/1P1NR2P/PB3PP1/3R1QK1 b - - 2 24
info depth 1 seldepth 2 multipv 1 score cp -28 time 0 nodes 10 nps 10000 tbhits 0 hashfull 0 pv e5e4 

Position #50: 2r2b2/5p2/5k2/p1r1pP2/P2pB3/1P3P2/K1P3R1/7R w - - 23 93
info depth 13 seldepth 16 multipv 1 score cp 197 time 23 nodes 30922 nps 1288000 tbhits 0 hashfull 4 pv h1h8 f8g7 
Time  : 5900ms
Nodes : 5132900
NPS   : 869983
";

    #[test]
    fn our_bench_output_gives_its_totals_and_positions() {
        let report = parse_ours(OURS).expect("a real bench parses");
        assert_eq!(report.nodes, 2_713_238);
        assert_eq!(report.nps, 1_009_779);
        assert_eq!(report.fens.len(), 3);
        assert_eq!(
            report.fens[1],
            "4rrk1/2p1b1p1/p1p3q1/4p3/2P2n1p/1P1NR2P/PB3PP1/3R1QK1 b - - 2 24"
        );
    }

    #[test]
    fn ethereal_bench_output_gives_its_totals_not_an_info_line() {
        let report = parse_ethereal(ETHEREAL_OUTPUT).expect("a real bench parses");
        assert_eq!(report.nodes, 5_132_900);
        assert_eq!(report.nps, 869_983);
        assert_eq!(report.fens.len(), 3);
        assert_eq!(
            report.fens[2],
            "2r2b2/5p2/5k2/p1r1pP2/P2pB3/1P3P2/K1P3R1/7R w - - 23 93"
        );
    }

    #[test]
    fn both_engines_print_the_same_positions() {
        let ours = parse_ours(OURS).unwrap();
        let theirs = parse_ethereal(ETHEREAL_OUTPUT).unwrap();
        assert_eq!(ours.fens, theirs.fens);
    }

    #[test]
    fn a_bench_without_its_summary_is_an_error() {
        let cut = OURS.lines().take(3).collect::<Vec<_>>().join("\n");
        assert!(parse_ours(&cut).unwrap_err().contains("nodes N nps"));
        let cut = ETHEREAL_OUTPUT.replace("NPS   : 869983", "");
        assert!(parse_ethereal(&cut).unwrap_err().contains("NPS"));
        let bad = ETHEREAL_OUTPUT.replace("Nodes : 5132900", "Nodes : many");
        assert!(parse_ethereal(&bad).unwrap_err().contains("\"many\""));
    }

    fn run_with(nodes: u64, nps: u64, bench_ms: u64, startup_ms: u64) -> Run {
        Run {
            report: BenchReport {
                nodes,
                nps,
                fens: Vec::new(),
            },
            bench_cpu: Some(Duration::from_millis(bench_ms)),
            bench_wall: Duration::from_millis(bench_ms + 100),
            startup_cpu: Some(Duration::from_millis(startup_ms)),
        }
    }

    #[test]
    fn a_node_count_that_moves_is_an_error_naming_the_run() {
        let runs = [run_with(100, 1, 1, 0), run_with(100, 2, 1, 0)];
        assert!(same_nodes_every_run("e", &runs).is_ok());
        let runs = [runs[0].clone(), runs[1].clone(), run_with(101, 1, 1, 0)];
        let error = same_nodes_every_run("e", &runs).unwrap_err();
        assert!(error.contains("not deterministic"), "{error}");
        assert!(
            error.contains("100 nodes in run 1, 101 in run 3"),
            "{error}"
        );
    }

    #[test]
    fn speed_is_nodes_over_median_cpu_less_median_start_up() {
        // Medians: bench 2100 ms, start-up 100 ms: 2,000,000 nodes in 2 s is 1000 k nodes/s.
        let runs = [
            run_with(2_000_000, 900_000, 2100, 100),
            run_with(2_000_000, 950_000, 2500, 90),
            run_with(2_000_000, 990_000, 2000, 120),
        ];
        let summary = summarize(8, &runs);
        assert_eq!(summary.nodes, 2_000_000);
        assert!((summary.knps() - 1000.0).abs() < 1e-6, "{summary:?}");
        assert!((summary.reported_knps - 950.0).abs() < 1e-9);
    }

    #[test]
    fn stored_figures_are_sorted_keys_with_medians_and_ratios() {
        let ours = summarize(8, &[run_with(2_000_000, 1_000_000, 2100, 100)]);
        let theirs = summarize(13, &[run_with(4_000_000, 800_000, 5010, 10)]);
        let text = stored_figures(&ours, &theirs, "Ethereal 12.00", 1);
        assert_eq!(
            text,
            "ch16.perf.bench.ethereal: \"Ethereal 12.00\"\n\
             ch16.perf.bench.ethereal_depth: 13\n\
             ch16.perf.bench.ethereal_knps: 800.0\n\
             ch16.perf.bench.ethereal_nodes: 4000000\n\
             ch16.perf.bench.ethereal_reported_knps: 800.0\n\
             ch16.perf.bench.ethereal_startup_ms: 10\n\
             ch16.perf.bench.ours_depth: 8\n\
             ch16.perf.bench.ours_knps: 1000.0\n\
             ch16.perf.bench.ours_nodes: 2000000\n\
             ch16.perf.bench.ours_reported_knps: 1000.0\n\
             ch16.perf.bench.ours_startup_ms: 100\n\
             ch16.perf.bench.ratio: 1.25\n\
             ch16.perf.bench.reported_ratio: 1.25\n\
             ch16.perf.bench.runs: 1\n"
        );
        let document = xtask::figures::parse_document(&text).expect("our YAML reads back");
        assert_eq!(document.body.len(), 14);
    }

    #[test]
    fn a_failing_child_is_an_error_with_its_message() {
        let error = run_to_exit(
            Path::new("/bin/sh"),
            &["-c".to_string(), "echo broken >&2; exit 3".to_string()],
            None,
        )
        .unwrap_err();
        assert!(error.contains("broken"), "{error}");
    }
}
