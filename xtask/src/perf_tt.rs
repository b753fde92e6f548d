//! `cargo xtask perf tt`: what a probe or a store of the transposition table costs the caches,
//! buckets on and off (M5).
//!
//! The driver `crates/engine/examples/tt_probe.rs` works on a 256 MB table. It runs under
//! valgrind's cachegrind, which simulates the caches and counts every miss: the same counts on
//! every run and on every machine, unlike timings on a shared one. Each case runs once with
//! [`COUNT`] operations and is compared with a run that fills the table the same way and does
//! none: the difference, divided by [`COUNT`], is the cost of one operation alone.
//!
//! Two cache geometries are simulated: 64-byte lines (most x86-64 processors, this machine's)
//! and 128-byte lines (Apple Silicon, which the bucket is sized for). Then the driver times
//! the operations natively (the fastest of many short rounds, alternating on and off), and if
//! `perf stat` can read the processor's own counters here, it runs under that too.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Operations counted in each run.
const COUNT: u64 = 500_000;

/// The operations the driver knows, by the names it takes.
const OPERATIONS: [&str; 3] = ["miss", "hit", "store"];

/// A simulated cache hierarchy: 32 KB 8-way L1 and a 32 MB 16-way last level (this machine's
/// sizes, an AMD EPYC), with lines of the given size.
struct Geometry {
    line: u32,
}

impl Geometry {
    fn cachegrind_args(&self) -> Vec<String> {
        let line = self.line;
        vec![
            format!("--I1=32768,8,{line}"),
            format!("--D1=32768,8,{line}"),
            format!("--LL=33554432,16,{line}"),
        ]
    }
}

/// What cachegrind counted over a whole run.
#[derive(Clone, Copy, Debug, Default)]
struct Counts {
    instructions: f64,
    data_refs: f64,
    d1_misses: f64,
    ll_misses: f64,
}

impl Counts {
    /// The cost of one operation: a run's counts less the baseline's, over [`COUNT`].
    fn per_operation(baseline: Counts, run: Counts) -> Counts {
        let n = COUNT as f64;
        Counts {
            instructions: (run.instructions - baseline.instructions) / n,
            data_refs: (run.data_refs - baseline.data_refs) / n,
            d1_misses: (run.d1_misses - baseline.d1_misses) / n,
            ll_misses: (run.ll_misses - baseline.ll_misses) / n,
        }
    }
}

/// Runs the measurements and prints them. `line` limits cachegrind to one line size (64 or
/// 128); both when `None`.
pub fn run(root: &Path, mb: usize, line: Option<u32>) -> Result<(), String> {
    require_valgrind()?;
    let driver = build_driver(root)?;
    let lines = match line {
        None => vec![64, 128],
        Some(line @ (64 | 128)) => vec![line],
        Some(other) => return Err(format!("--line must be 64 or 128, not {other}")),
    };
    println!("cachegrind, {mb} MB table, per operation (runs of {COUNT} less a run of none):");
    println!(
        "{:>5} {:>6} {:>7}  {:>8} {:>8} {:>9} {:>9}",
        "line", "op", "tt", "instr", "D refs", "D1 miss", "LLd miss"
    );
    for line in lines {
        let geometry = Geometry { line };
        let mut costs = Vec::new();
        for mode in ["off", "on"] {
            let baseline = cachegrind(&driver, &geometry, mode, "miss", 0, mb)?;
            for operation in OPERATIONS {
                let counted = cachegrind(&driver, &geometry, mode, operation, COUNT, mb)?;
                costs.push((mode, operation, Counts::per_operation(baseline, counted)));
            }
        }
        for operation in OPERATIONS {
            let cost = |wanted: &str| {
                costs
                    .iter()
                    .find(|(mode, op, _)| *mode == wanted && *op == operation)
                    .map(|(_, _, cost)| *cost)
                    .unwrap_or_default()
            };
            let (off, on) = (cost("off"), cost("on"));
            for (mode, c) in [("off", off), ("on", on)] {
                println!(
                    "{line:>5} {operation:>6} {mode:>7}  {:>8.1} {:>8.1} {:>9.3} {:>9.3}",
                    c.instructions, c.data_refs, c.d1_misses, c.ll_misses
                );
            }
            println!(
                "{line:>5} {operation:>6} {:>7}  {:>8.2} {:>8.2} {:>9.2} {:>9.2}",
                "on/off",
                on.instructions / off.instructions,
                on.data_refs / off.data_refs,
                on.d1_misses / off.d1_misses,
                on.ll_misses / off.ll_misses
            );
        }
    }
    time_natively(&driver, mb)?;
    perf_stat(&driver, mb);
    Ok(())
}

/// The driver's own timing: the fastest of many short rounds, on and off alternating.
fn time_natively(driver: &Path, mb: usize) -> Result<(), String> {
    println!("\ntimed on this machine (fastest round; shared machines vary, ratios vary less):");
    let status = Command::new(driver)
        .args(["time", &mb.to_string()])
        .status()
        .map_err(|e| format!("cannot run {}: {e}", driver.display()))?;
    if status.success() {
        Ok(())
    } else {
        Err("tt_probe time failed".to_string())
    }
}

fn require_valgrind() -> Result<(), String> {
    match Command::new("valgrind").arg("--version").output() {
        Ok(output) if output.status.success() => Ok(()),
        _ => Err("valgrind is not installed (Debian: apt-get install valgrind)".to_string()),
    }
}

/// Builds the driver in release (optimised as the engine plays) and returns its path.
fn build_driver(root: &Path) -> Result<PathBuf, String> {
    crate::tools::build_release(root, &["--example", "tt_probe"])
}

/// Runs the driver once under cachegrind and reads the totals it prints.
fn cachegrind(
    driver: &Path,
    geometry: &Geometry,
    mode: &str,
    operation: &str,
    count: u64,
    mb: usize,
) -> Result<Counts, String> {
    let output = Command::new("valgrind")
        .args([
            "--tool=cachegrind",
            "--cache-sim=yes",
            "--cachegrind-out-file=/dev/null",
        ])
        .args(geometry.cachegrind_args())
        .arg(driver)
        .args([mode, operation, &count.to_string(), &mb.to_string()])
        .output()
        .map_err(|e| format!("cannot run valgrind: {e}"))?;
    let report = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        return Err(format!(
            "tt_probe {mode} {operation} {count} failed under cachegrind:\n{report}"
        ));
    }
    let total = |label: &str| {
        summary_total(&report, label)
            .ok_or_else(|| format!("no {label:?} line in cachegrind's summary:\n{report}"))
    };
    Ok(Counts {
        instructions: total("I refs:")?,
        data_refs: total("D refs:")?,
        d1_misses: total("D1 misses:")?,
        ll_misses: total("LLd misses:")?,
    })
}

/// The first number after `label` in cachegrind's summary (lines like
/// `==42== D1  misses:      1,234,567  (  1,000,000 rd   +   234,567 wr)`); spaces inside
/// the label are not significant.
fn summary_total(report: &str, label: &str) -> Option<f64> {
    let wanted: String = label.split_whitespace().collect();
    report.lines().find_map(|line| {
        let text = line.split("==").last()?.trim_start();
        let colon = text.find(':')?;
        let name: String = text[..=colon].split_whitespace().collect();
        if name != wanted {
            return None;
        }
        let number = text[colon + 1..].split_whitespace().next()?;
        number.replace(',', "").parse().ok()
    })
}

/// The processor's own counters, when this machine lets `perf stat` read them (a virtual
/// machine often does not); otherwise says so.
fn perf_stat(driver: &Path, mb: usize) {
    let events = "instructions,L1-dcache-load-misses,LLC-load-misses";
    let probe = Command::new("perf")
        .args(["stat", "-x,", "-e", events, "true"])
        .output();
    let usable = match &probe {
        Ok(output) => {
            let text = String::from_utf8_lossy(&output.stderr);
            output.status.success() && !text.contains("<not supported>")
        }
        Err(_) => false,
    };
    if !usable {
        println!("\nperf stat: the processor's counters are not available here; cachegrind only.");
        return;
    }
    println!("\nperf stat (whole runs of {COUNT} operations, the table's setup included):");
    for operation in OPERATIONS {
        for mode in ["off", "on"] {
            let output = Command::new("perf")
                .args(["stat", "-x,", "-e", events])
                .arg(driver)
                .args([mode, operation, &COUNT.to_string(), &mb.to_string()])
                .output();
            let Ok(output) = output else { continue };
            let text = String::from_utf8_lossy(&output.stderr);
            let counts: Vec<String> = text
                .lines()
                .filter_map(|line| {
                    let fields: Vec<&str> = line.split(',').collect();
                    Some(format!("{} {}", fields.get(2)?, fields.first()?))
                })
                .collect();
            println!("  {operation:>5} {mode:>3}: {}", counts.join(", "));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::summary_total;

    #[test]
    fn reads_cachegrinds_summary_lines() {
        let report = "==7== I refs:        12,345\n\
                      ==7== D refs:         1,000  (  800 rd   + 200 wr)\n\
                      ==7== D1  misses:        77  (   70 rd   +   7 wr)\n\
                      ==7== LLd misses:         5  (    4 rd   +   1 wr)\n\
                      ==7== LL refs:           90\n";
        assert_eq!(summary_total(report, "I refs:"), Some(12_345.0));
        assert_eq!(summary_total(report, "D refs:"), Some(1_000.0));
        assert_eq!(summary_total(report, "D1 misses:"), Some(77.0));
        assert_eq!(summary_total(report, "LLd misses:"), Some(5.0));
        assert_eq!(summary_total(report, "LLi misses:"), None);
    }
}
