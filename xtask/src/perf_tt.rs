//! `cargo xtask perf tt`: what a probe of the transposition table costs the caches, buckets
//! on and off (M5).
//!
//! The driver `crates/engine/examples/tt_probe.rs` probes a 256 MB table. It runs under
//! valgrind's cachegrind, which simulates the caches and counts every miss: the same counts on
//! every run and on every machine, unlike timings on a shared one. Each case runs twice, with
//! two numbers of probes; the difference of the counts, divided by the difference of the
//! probes, is the cost of one probe alone, the table's allocation and filling cancelled out.
//!
//! Two cache geometries are simulated: 64-byte lines (most x86-64 processors, this machine's)
//! and 128-byte lines (Apple Silicon, which the bucket is sized for). If `perf stat` can read
//! the processor's own counters here, the driver is also run under it.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The two numbers of probes each case runs with.
const FEWER: u64 = 100_000;
const MORE: u64 = 600_000;

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
    /// The cost of one probe: the difference of two runs over the difference of their probes.
    fn per_probe(fewer: Counts, more: Counts) -> Counts {
        let probes = (MORE - FEWER) as f64;
        Counts {
            instructions: (more.instructions - fewer.instructions) / probes,
            data_refs: (more.data_refs - fewer.data_refs) / probes,
            d1_misses: (more.d1_misses - fewer.d1_misses) / probes,
            ll_misses: (more.ll_misses - fewer.ll_misses) / probes,
        }
    }
}

/// Runs the measurement and prints a table of misses per probe.
pub fn run(root: &Path, mb: usize) -> Result<(), String> {
    require_valgrind()?;
    let driver = build_driver(root)?;
    println!("cachegrind, {mb} MB table, per probe ({MORE} − {FEWER} probes):");
    println!(
        "{:>5} {:>5} {:>4}  {:>8} {:>8} {:>9} {:>9}",
        "line", "kind", "tt", "instr", "D refs", "D1 miss", "LLd miss"
    );
    for geometry in [Geometry { line: 64 }, Geometry { line: 128 }] {
        for kind in ["miss", "hit"] {
            let mut by_mode = Vec::new();
            for mode in ["off", "on"] {
                let fewer = cachegrind(&driver, &geometry, mode, kind, FEWER, mb)?;
                let more = cachegrind(&driver, &geometry, mode, kind, MORE, mb)?;
                let cost = Counts::per_probe(fewer, more);
                println!(
                    "{:>5} {kind:>5} {mode:>4}  {:>8.1} {:>8.1} {:>9.3} {:>9.3}",
                    geometry.line, cost.instructions, cost.data_refs, cost.d1_misses, cost.ll_misses
                );
                by_mode.push(cost);
            }
            let (off, on) = (by_mode[0], by_mode[1]);
            println!(
                "{:>5} {kind:>5} on/off  {:>8.2} {:>8.2} {:>9.2} {:>9.2}",
                geometry.line,
                on.instructions / off.instructions,
                on.data_refs / off.data_refs,
                on.d1_misses / off.d1_misses,
                on.ll_misses / off.ll_misses
            );
        }
    }
    perf_stat(&driver, mb);
    Ok(())
}

fn require_valgrind() -> Result<(), String> {
    match Command::new("valgrind").arg("--version").output() {
        Ok(output) if output.status.success() => Ok(()),
        _ => Err("valgrind is not installed (Debian: apt-get install valgrind)".to_string()),
    }
}

/// Builds the driver in release (optimised as the engine plays) and returns its path.
fn build_driver(root: &Path) -> Result<PathBuf, String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .current_dir(root)
        .args(["build", "--release", "-p", "cb2026", "--example", "tt_probe"])
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err("building the tt_probe example failed".to_string());
    }
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
    let target = if target.is_absolute() { target } else { root.join(target) };
    Ok(target.join("release/examples/tt_probe"))
}

/// Runs the driver once under cachegrind and reads the totals it prints.
fn cachegrind(
    driver: &Path,
    geometry: &Geometry,
    mode: &str,
    kind: &str,
    probes: u64,
    mb: usize,
) -> Result<Counts, String> {
    let output = Command::new("valgrind")
        .args(["--tool=cachegrind", "--cache-sim=yes", "--cachegrind-out-file=/dev/null"])
        .args(geometry.cachegrind_args())
        .arg(driver)
        .args([mode, kind, &probes.to_string(), &mb.to_string()])
        .output()
        .map_err(|e| format!("cannot run valgrind: {e}"))?;
    let report = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        return Err(format!("tt_probe {mode} {kind} {probes} failed under cachegrind:\n{report}"));
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
    let probe = Command::new("perf").args(["stat", "-x,", "-e", events, "true"]).output();
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
    println!("\nperf stat (whole runs of {MORE} probes, table setup included):");
    for kind in ["miss", "hit"] {
        for mode in ["off", "on"] {
            let output = Command::new("perf")
                .args(["stat", "-x,", "-e", events])
                .arg(driver)
                .args([mode, kind, &MORE.to_string(), &mb.to_string()])
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
            println!("  {kind:>4} {mode:>3}: {}", counts.join(", "));
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
