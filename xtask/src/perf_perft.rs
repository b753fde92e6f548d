//! `cargo xtask perf perft [--runs N] [--store]`: our perft speed against Stockfish's.
//!
//! Both engines count the same trees: the start position to depth 6 and Kiwipete to depth 5,
//! each several times, the two engines taking turns (first one, then the other, the order
//! swapped every run) so that a change in the machine's load falls on both. Both count the
//! last ply without making its moves (bulk counting), so the comparison is like for like.
//!
//! **How it is timed.** Each engine runs as one long-lived UCI process: ours takes `perft N`,
//! Stockfish `go perft N`. A run is timed from writing the command to reading the
//! `Nodes searched:` line, inside the running process, so neither engine's start-up is
//! counted: our attack tables' set-up and Stockfish's network loading happen before an
//! `isready` answered with `readyok`, and are printed apart. Two clocks are read: the wall
//! clock, and the CPU time the engine's process used (`utime + stime` of `/proc/<pid>/stat`, in
//! ticks of 1/100 s, which count threads that have ended: cb2026 runs each perft on a job thread
//! that ends with it). The figures use CPU time where Linux
//! gives it: on a shared machine other processes take the cores for a while, which stretches
//! the wall clock of whichever engine is running, not the work it does. The wall clock is
//! printed beside it.
//!
//! **What `--store` writes.** `snapshots/measured/ch05-perft-speed.yaml`, in the format of
//! every stored measurement (a header with the command, machine, date and commit, then
//! `key: value` lines), which `cargo xtask verify` reads like the others. Keys, for each
//! case (`startpos.d6`, `kiwipete.d5`): `ch05.perf.<case>.ours_mnps` and
//! `ch05.perf.<case>.stockfish_mnps` (medians, millions of nodes per CPU second),
//! `ch05.perf.<case>.ratio` (ours ÷ Stockfish, of those medians) and
//! `ch05.perf.<case>.wall_ratio` (the same by the wall clock); also `ch05.perf.runs` and
//! `ch05.perf.stockfish` (the version that answered `uci`).

use std::path::Path;
use std::time::{Duration, Instant};

use arena::EngineSpec;
use arena::process::process_cpu_time;
use arena::uci::{EngineError, UciEngine};
use cb2026::measure::median;

use crate::tools::{build_cb2026, debian_engine, write_measured};

/// Where `--store` writes, relative to the repository.
const STORED: &str = "snapshots/measured/ch05-perft-speed.yaml";

/// Debian's Stockfish (package `stockfish`).
const STOCKFISH: &str = "/usr/games/stockfish";

/// The command line of `cargo xtask perf perft`.
#[derive(clap::Args, Debug)]
pub struct PerfPerftArgs {
    /// Runs of each engine on each position; the medians are reported.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    runs: u32,
    /// Write the medians to snapshots/measured/ch05-perft-speed.yaml for the book.
    #[arg(long)]
    store: bool,
}

/// A position and depth both engines count.
#[derive(Clone, Copy, Debug)]
struct Case {
    /// The key's part: `startpos.d6`.
    key: &'static str,
    /// The UCI `position` command's argument.
    position: &'static str,
    depth: u32,
    /// The published count (CPW: Perft Results), checked on every run.
    nodes: u64,
}

const CASES: [Case; 2] = [
    Case {
        key: "startpos.d6",
        position: "startpos",
        depth: 6,
        nodes: 119_060_324,
    },
    Case {
        key: "kiwipete.d5",
        position: "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        depth: 5,
        nodes: 193_690_690,
    },
];

/// One timed perft.
#[derive(Clone, Copy, Debug)]
struct Sample {
    wall: Duration,
    /// `None` where the process's CPU time cannot be read (not Linux).
    cpu: Option<Duration>,
}

/// A UCI engine kept running between perfts, spoken to through the arena's driver.
struct Engine {
    /// The name it gave in `id name`.
    name: String,
    /// How it is asked for a perft of depth N (`perft N` or `go perft N`).
    perft_command: &'static str,
    uci: UciEngine,
    /// From starting the process to its first `readyok`.
    startup: Duration,
}

/// The longest a perft of the cases may take before the engine counts as hung.
const PERFT_LIMIT: Duration = Duration::from_secs(600);

impl Engine {
    /// Starts `program`, says `uci` and waits for `readyok`.
    fn start(program: &Path, perft_command: &'static str) -> Result<Engine, String> {
        let started = Instant::now();
        let shown = program.display().to_string();
        let spec = EngineSpec::new("perft", shown.as_str());
        let mut uci = UciEngine::start(&spec).map_err(|e| format!("{shown}: {e}"))?;
        uci.send("position startpos")
            .and_then(|()| uci.sync(None))
            .map_err(|e| format!("{shown}: {e}"))?;
        Ok(Engine {
            name: uci.id_name.clone().unwrap_or(shown),
            perft_command,
            uci,
            startup: started.elapsed(),
        })
    }

    /// The CPU time the process has used so far, all threads together, ended ones included
    /// (cb2026 runs each perft on a thread that ends with it).
    fn cpu_time(&self) -> Option<Duration> {
        process_cpu_time(self.uci.pid())
    }

    /// Sets up `case`, then times its perft and checks the count.
    fn time_perft(&mut self, case: &Case) -> Result<Sample, String> {
        let failed = |e: EngineError| format!("{}: {e}", self.name);
        self.uci
            .send(&format!("position {}", case.position))
            .and_then(|()| self.uci.sync(None))
            .map_err(failed)?;
        let cpu_before = self.cpu_time();
        let started = Instant::now();
        let command = format!("{} {}", self.perft_command, case.depth);
        let lines = self
            .uci
            .command_until(&command, "Nodes searched:", PERFT_LIMIT)
            .map_err(failed)?;
        let wall = started.elapsed();
        let cpu = cpu_before
            .zip(self.cpu_time())
            .map(|(before, after)| after - before);
        let nodes = lines
            .last()
            .and_then(|line| line.strip_prefix("Nodes searched:"))
            .and_then(|n| n.trim().parse::<u64>().ok());
        if nodes != Some(case.nodes) {
            return Err(format!(
                "{} counted {nodes:?} nodes for {} (expected {})",
                self.name, case.key, case.nodes
            ));
        }
        Ok(Sample { wall, cpu })
    }
}

/// Millions of nodes per second.
fn mnps(nodes: u64, time: Duration) -> f64 {
    nodes as f64 / time.as_secs_f64().max(1e-9) / 1e6
}

/// Both engines' samples on one case.
struct CaseResult {
    case: Case,
    ours: Vec<Sample>,
    theirs: Vec<Sample>,
}

/// The medians of one case, in millions of nodes per second.
#[derive(Clone, Copy, Debug)]
struct Medians {
    ours_wall: f64,
    theirs_wall: f64,
    /// `None` when a CPU time was missing.
    ours_cpu: Option<f64>,
    theirs_cpu: Option<f64>,
}

impl CaseResult {
    fn medians(&self) -> Medians {
        let nodes = self.case.nodes;
        let wall = |samples: &[Sample]| {
            median(
                &samples
                    .iter()
                    .map(|s| mnps(nodes, s.wall))
                    .collect::<Vec<_>>(),
            )
        };
        let cpu = |samples: &[Sample]| {
            let rates: Option<Vec<f64>> = samples
                .iter()
                .map(|s| s.cpu.map(|cpu| mnps(nodes, cpu)))
                .collect();
            rates.map(|rates| median(&rates))
        };
        Medians {
            ours_wall: wall(&self.ours),
            theirs_wall: wall(&self.theirs),
            ours_cpu: cpu(&self.ours),
            theirs_cpu: cpu(&self.theirs),
        }
    }
}

/// `cargo xtask perf perft`.
pub fn run(root: &Path, args: &PerfPerftArgs) -> Result<(), String> {
    let ours_binary = build_cb2026(root)?;
    let stockfish_binary = debian_engine(STOCKFISH, "stockfish")?;
    let mut ours = Engine::start(&ours_binary, "perft")?;
    let mut theirs = Engine::start(&stockfish_binary, "go perft")?;
    println!(
        "start-up to the first readyok (not counted below): {} {:.3} s, {} {:.3} s",
        ours.name,
        ours.startup.as_secs_f64(),
        theirs.name,
        theirs.startup.as_secs_f64()
    );

    let mut results = Vec::new();
    for case in CASES {
        let mut result = CaseResult {
            case,
            ours: Vec::new(),
            theirs: Vec::new(),
        };
        for run in 0..args.runs {
            // Taking turns: ours first on even runs, Stockfish first on odd ones.
            for ours_now in [run % 2 == 0, run % 2 == 1] {
                let (engine, samples) = if ours_now {
                    (&mut ours, &mut result.ours)
                } else {
                    (&mut theirs, &mut result.theirs)
                };
                let sample = engine.time_perft(&case)?;
                print_sample(&case, run, &engine.name, sample);
                samples.push(sample);
            }
        }
        results.push(result);
    }
    print_table(&results, &ours.name, &theirs.name, args.runs);
    if args.store {
        store(root, &results, &theirs.name, args.runs)?;
    }
    Ok(())
}

fn print_sample(case: &Case, run: u32, engine: &str, sample: Sample) {
    let cpu = match sample.cpu {
        Some(cpu) => format!(
            "{:6.3} s CPU {:7.1} M nodes/s",
            cpu.as_secs_f64(),
            mnps(case.nodes, cpu)
        ),
        None => "CPU time unavailable".to_string(),
    };
    println!(
        "{:<12} run {} {engine:<16} {:6.3} s wall {:7.1} M nodes/s | {cpu}",
        case.key,
        run + 1,
        sample.wall.as_secs_f64(),
        mnps(case.nodes, sample.wall)
    );
}

fn print_table(results: &[CaseResult], ours: &str, theirs: &str, runs: u32) {
    println!("\nmedians of {runs} runs, millions of nodes per second (CPU time | wall clock):");
    println!(
        "{:<12} {:>18} {:>18} {:>18}",
        "case", ours, theirs, "ours ÷ theirs"
    );
    let show = |value: Option<f64>, places: usize| {
        value.map_or_else(|| "-".to_string(), |v| format!("{v:.places$}"))
    };
    for result in results {
        let m = result.medians();
        let cpu_ratio = m.ours_cpu.zip(m.theirs_cpu).map(|(a, b)| a / b);
        println!(
            "{:<12} {:>8} | {:>7.1} {:>8} | {:>7.1} {:>8} | {:>7.2}",
            result.case.key,
            show(m.ours_cpu, 1),
            m.ours_wall,
            show(m.theirs_cpu, 1),
            m.theirs_wall,
            show(cpu_ratio, 2),
            m.ours_wall / m.theirs_wall
        );
    }
}

/// The figures `--store` writes, as `key: value` lines.
fn stored_figures(results: &[CaseResult], stockfish_name: &str, runs: u32) -> String {
    let mut lines = vec![
        format!("ch05.perf.runs: {runs}"),
        format!(
            "ch05.perf.stockfish: \"{}\"",
            stockfish_name.replace('"', "'")
        ),
    ];
    for result in results {
        let m = result.medians();
        // CPU time where the machine gives it, else the wall clock (the header says which).
        let ours = m.ours_cpu.unwrap_or(m.ours_wall);
        let theirs = m.theirs_cpu.unwrap_or(m.theirs_wall);
        let key = format!("ch05.perf.{}", result.case.key);
        lines.push(format!("{key}.ours_mnps: {ours:.1}"));
        lines.push(format!("{key}.stockfish_mnps: {theirs:.1}"));
        lines.push(format!("{key}.ratio: {:.2}", ours / theirs));
        lines.push(format!(
            "{key}.wall_ratio: {:.2}",
            m.ours_wall / m.theirs_wall
        ));
    }
    lines.sort();
    lines.iter().map(|line| format!("{line}\n")).collect()
}

/// Writes [`STORED`].
fn store(
    root: &Path,
    results: &[CaseResult],
    stockfish_name: &str,
    runs: u32,
) -> Result<(), String> {
    let cpu_timed = results
        .iter()
        .all(|r| r.medians().ours_cpu.is_some() && r.medians().theirs_cpu.is_some());
    let clock = if cpu_timed {
        "CPU time of the engine's process"
    } else {
        "wall clock"
    };
    let program = format!(
        "cb2026 `perft N` (release) and {stockfish_name} `go perft N` (Debian), one UCI process each, \
         timed by the {clock} from the command to `Nodes searched:`, medians of {runs} alternating runs"
    );
    write_measured(
        root,
        STORED,
        &format!("cargo xtask perf perft --runs {runs} --store"),
        &program,
        &stored_figures(results, stockfish_name, runs),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_figures_are_sorted_keys_with_medians_and_ratios() {
        let sample = |wall_ms, cpu_ms| Sample {
            wall: Duration::from_millis(wall_ms),
            cpu: Some(Duration::from_millis(cpu_ms)),
        };
        let case = CASES[0];
        let result = CaseResult {
            case,
            // 119,060,324 nodes: 1000 ms of CPU is 119.1 M nodes/s.
            ours: vec![sample(2000, 1000), sample(1500, 900), sample(3000, 1100)],
            theirs: vec![sample(1000, 500), sample(1000, 500), sample(1000, 500)],
        };
        let text = stored_figures(&[result], "Stockfish 15.1", 3);
        assert_eq!(
            text,
            "ch05.perf.runs: 3\n\
             ch05.perf.startpos.d6.ours_mnps: 119.1\n\
             ch05.perf.startpos.d6.ratio: 0.50\n\
             ch05.perf.startpos.d6.stockfish_mnps: 238.1\n\
             ch05.perf.startpos.d6.wall_ratio: 0.50\n\
             ch05.perf.stockfish: \"Stockfish 15.1\"\n"
        );
        let document = xtask::figures::parse_document(&text).expect("our YAML reads back");
        assert_eq!(document.body.len(), 6);
    }
}
