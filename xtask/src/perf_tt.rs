//! `cargo xtask perf tt`: what a probe or a store of the transposition table costs the caches,
//! with one slot per key (`off`), eight-slot buckets (`on`) and four-slot buckets (`line64`), M5.
//!
//! The driver `crates/engine/examples/tt_probe.rs` works on a 256 MB table. It runs under
//! valgrind's cachegrind, which simulates the caches and counts every miss: the same counts on
//! every run and on every machine, unlike timings on a shared one. Each case runs once with
//! [`COUNT`] operations and is compared with a run that fills the table the same way and does
//! none: the difference, divided by [`COUNT`], is the cost of one operation alone.
//!
//! Two cache geometries are simulated: 64-byte lines (most x86-64 processors, this machine's)
//! and 128-byte lines (Apple Silicon, which the bucket is sized for). Then the driver times
//! the operations natively (the fastest of many short rounds, the geometries taking turns), and if
//! `perf stat` can read the processor's own counters here, it runs under that too.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use cb2026::measure;

use crate::tools::write_measured;

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

/// Where `--store` writes, relative to the repository: the figures M5's page quotes as
/// `m5.measured.criterion.*`, `m5.measured.cachegrind.*` and `m5.measured.driver.*`.
const STORED: &str = "snapshots/measured/m5-tt-cost.yaml";

/// The table size `--store` measures, in MB: the one M5's page quotes.
const STORED_MB: usize = 256;

/// The criterion groups of `crates/engine/benches/tt.rs` (its table sizes, in MB) and their
/// operations, as `--store` reads them back.
const CRITERION_GROUPS: [(&str, usize); 2] = [("tt_256mb", 256), ("tt_1mb", 1)];
const CRITERION_OPERATIONS: [&str; 3] = ["probe_hit", "probe_miss", "store"];

/// The geometries the driver takes, by name: one slot, eight, four.
const MODES: [&str; 3] = ["off", "on", "line64"];

/// One operation's cachegrind counts in one geometry, with lines of `line` bytes.
struct CacheCost {
    line: u32,
    operation: &'static str,
    mode: &'static str,
    counts: Counts,
}

/// Runs the measurements and prints them. `line` limits cachegrind to one line size (64 or
/// 128); both when `None`. `store` first runs criterion (`cargo bench -p cb2026 --bench tt`),
/// then writes criterion's medians, cachegrind's counts and the driver's timings to
/// [`STORED`] for M5's page.
pub fn run(root: &Path, mb: usize, line: Option<u32>, store: bool) -> Result<(), String> {
    if store && (mb != STORED_MB || line.is_some()) {
        return Err(format!(
            "--store measures what M5's page quotes: {STORED_MB} MB and both line sizes"
        ));
    }
    require_valgrind()?;
    let criterion = if store {
        Some(run_criterion(root)?)
    } else {
        None
    };
    let driver = build_driver(root)?;
    let lines = match line {
        None => vec![64, 128],
        Some(line @ (64 | 128)) => vec![line],
        Some(other) => return Err(format!("--line must be 64 or 128, not {other}")),
    };
    let costs = cache_costs(&driver, &lines, mb)?;
    let timings = time_natively(&driver, mb)?;
    perf_stat(&driver, mb);
    if let Some(criterion) = criterion {
        let figures = stored_figures(&criterion, &costs, &timings);
        let program = format!(
            "criterion (`cargo bench -p cb2026 --bench tt`, medians); cachegrind with 64- and \
             128-byte lines and the driver's own timing (`crates/engine/examples/tt_probe.rs`, \
             release, {mb} MB)"
        );
        write_measured(
            root,
            STORED,
            "cargo xtask perf tt --store",
            &program,
            &figures,
        )?;
    }
    Ok(())
}

/// Cachegrind's counts per operation for each line size, printed as a table with each
/// geometry's ratios to one slot.
fn cache_costs(driver: &Path, lines: &[u32], mb: usize) -> Result<Vec<CacheCost>, String> {
    println!("cachegrind, {mb} MB table, per operation (runs of {COUNT} less a run of none):");
    println!(
        "{:>5} {:>6} {:>7}  {:>8} {:>8} {:>9} {:>9}",
        "line", "op", "tt", "instr", "D refs", "D1 miss", "LLd miss"
    );
    let mut all = Vec::new();
    for &line in lines {
        let geometry = Geometry { line };
        let mut costs = Vec::new();
        for mode in MODES {
            let baseline = cachegrind(driver, &geometry, mode, "miss", 0, mb)?;
            for operation in OPERATIONS {
                let counted = cachegrind(driver, &geometry, mode, operation, COUNT, mb)?;
                costs.push(CacheCost {
                    line,
                    operation,
                    mode,
                    counts: Counts::per_operation(baseline, counted),
                });
            }
        }
        for operation in OPERATIONS {
            let cost = |wanted: &str| {
                costs
                    .iter()
                    .find(|cost| cost.mode == wanted && cost.operation == operation)
                    .map(|cost| cost.counts)
                    .unwrap_or_default()
            };
            let off = cost("off");
            for mode in MODES {
                let c = cost(mode);
                println!(
                    "{line:>5} {operation:>6} {mode:>7}  {:>8.1} {:>8.1} {:>9.3} {:>9.3}",
                    c.instructions, c.data_refs, c.d1_misses, c.ll_misses
                );
            }
            for mode in &MODES[1..] {
                let c = cost(mode);
                println!(
                    "{line:>5} {operation:>6} {:>7}  {:>8.2} {:>8.2} {:>9.2} {:>9.2}",
                    format!("{mode}/off"),
                    c.instructions / off.instructions,
                    c.data_refs / off.data_refs,
                    c.d1_misses / off.d1_misses,
                    c.ll_misses / off.ll_misses
                );
            }
        }
        all.extend(costs);
    }
    Ok(all)
}

/// The driver's own timing of one operation: the fastest round, in nanoseconds, with one slot,
/// eight and four.
#[derive(Clone, Debug, PartialEq)]
struct Timing {
    operation: String,
    off_ns: f64,
    on_ns: f64,
    line64_ns: f64,
}

/// The driver's own timing: the fastest of many short rounds, the geometries taking turns.
/// Prints what the driver prints and reads its lines
/// `NAME  off X  on Y  on/off R  line64 Z  line64/off Q`.
fn time_natively(driver: &Path, mb: usize) -> Result<Vec<Timing>, String> {
    println!("\ntimed on this machine (fastest round; shared machines vary, ratios vary less):");
    let output = Command::new(driver)
        .args(["time", &mb.to_string()])
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", driver.display()))?;
    let report = String::from_utf8_lossy(&output.stdout);
    print!("{report}");
    if !output.status.success() {
        return Err("tt_probe time failed".to_string());
    }
    let timings = timings(&report);
    if timings.is_empty() {
        return Err(format!("no timings in tt_probe time's output:\n{report}"));
    }
    Ok(timings)
}

/// The lines `NAME  off X  on Y  on/off R  line64 Z  line64/off Q` of `tt_probe time`.
fn timings(report: &str) -> Vec<Timing> {
    report
        .lines()
        .filter_map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let [
                operation,
                "off",
                off,
                "on",
                on,
                "on/off",
                _,
                "line64",
                line64,
                "line64/off",
                _,
            ] = words.as_slice()
            else {
                return None;
            };
            Some(Timing {
                operation: operation.to_string(),
                off_ns: off.parse().ok()?,
                on_ns: on.parse().ok()?,
                line64_ns: line64.parse().ok()?,
            })
        })
        .collect()
}

/// Criterion's medians, in nanoseconds: (table MB, operation, off, on, line64).
type CriterionMedians = Vec<(usize, &'static str, f64, f64, f64)>;

/// Runs `cargo bench -p cb2026 --bench tt` and reads back the median criterion saved for each
/// benchmark ([`cb2026::measure::criterion_median_ns`]).
fn run_criterion(root: &Path) -> Result<CriterionMedians, String> {
    run_bench(root, "tt", None)?;
    let home = criterion_home(root);
    let mut medians = Vec::new();
    for (group, mb) in CRITERION_GROUPS {
        for operation in CRITERION_OPERATIONS {
            let median = |mode: &str| saved_median_ns(&home, group, operation, mode);
            medians.push((
                mb,
                operation,
                median("off")?,
                median("on")?,
                median("line64")?,
            ));
        }
    }
    Ok(medians)
}

/// Runs `cargo bench -p cb2026 --bench <bench> [-- <filter>]`, whose medians criterion saves
/// for [`saved_median_ns`].
pub(crate) fn run_bench(root: &Path, bench: &str, filter: Option<&str>) -> Result<(), String> {
    let mut command = vec!["bench", "--quiet", "-p", "cb2026", "--bench", bench];
    if let Some(filter) = filter {
        command.extend(["--", filter]);
    }
    println!("criterion: cargo {}", command.join(" "));
    let status = xtask::figures::cargo()
        .current_dir(root)
        .args(&command)
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err(format!("cargo {} failed", command.join(" ")));
    }
    Ok(())
}

/// The median, in nanoseconds, criterion saved for one benchmark's latest run.
pub(crate) fn saved_median_ns(
    home: &Path,
    group: &str,
    function: &str,
    parameter: &str,
) -> Result<f64, String> {
    let file = measure::criterion_estimates(home, group, function, parameter);
    let text = std::fs::read_to_string(&file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    measure::criterion_median_ns(&text).ok_or_else(|| format!("no median in {}", file.display()))
}

/// Where criterion keeps its results: `$CRITERION_HOME`, else `criterion/` in the target
/// directory (as `crates/engine/benches/tt.rs` finds it).
pub(crate) fn criterion_home(root: &Path) -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return home.into();
    }
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
    root.join(target).join("criterion")
}

/// The figures `--store` writes, as sorted `key: value` lines: criterion's medians (two
/// decimals), cachegrind's instructions (one) and misses (two) per operation, the driver's
/// timings (one), and each geometry's ratio to one slot (two).
fn stored_figures(criterion: &CriterionMedians, costs: &[CacheCost], timings: &[Timing]) -> String {
    let mut lines = Vec::new();
    for &(mb, operation, off, on, line64) in criterion {
        let key = format!("m5.measured.criterion.{mb}mb.{operation}");
        lines.push(format!("{key}.off_ns: {off:.2}"));
        lines.push(format!("{key}.on_ns: {on:.2}"));
        lines.push(format!("{key}.on_over_off: {:.2}", on / off));
        lines.push(format!("{key}.line64_ns: {line64:.2}"));
        lines.push(format!("{key}.line64_over_off: {:.2}", line64 / off));
    }
    for cost in costs {
        let key = format!(
            "m5.measured.cachegrind.line{}.{}.{}",
            cost.line, cost.operation, cost.mode
        );
        let c = cost.counts;
        lines.push(format!("{key}.instructions: {:.1}", c.instructions));
        lines.push(format!("{key}.d1_misses: {:.2}", c.d1_misses));
        lines.push(format!("{key}.ll_misses: {:.2}", c.ll_misses));
    }
    for timing in timings {
        let key = format!("m5.measured.driver.{}", timing.operation);
        lines.push(format!("{key}.off_ns: {:.1}", timing.off_ns));
        lines.push(format!("{key}.on_ns: {:.1}", timing.on_ns));
        lines.push(format!(
            "{key}.on_over_off: {:.2}",
            timing.on_ns / timing.off_ns
        ));
        lines.push(format!("{key}.line64_ns: {:.1}", timing.line64_ns));
        lines.push(format!(
            "{key}.line64_over_off: {:.2}",
            timing.line64_ns / timing.off_ns
        ));
    }
    lines.sort();
    lines.iter().map(|line| format!("{line}\n")).collect()
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
        for mode in MODES {
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
    use super::*;

    #[test]
    fn reads_the_lines_of_the_drivers_timing() {
        let report = "256 MB, fastest of 9 rounds of 200000, ns per operation:\n\
                      miss    off  104.2  on  117.9  on/off 1.13  line64 105.0  line64/off 1.01\n\
                      hit     off   99.0  on  100.5  on/off 1.02  line64  99.5  line64/off 1.01\n\
                      store   off   99.0  on  100.5  on/off 1.02\n";
        assert_eq!(
            timings(report),
            [
                Timing {
                    operation: "miss".into(),
                    off_ns: 104.2,
                    on_ns: 117.9,
                    line64_ns: 105.0
                },
                Timing {
                    operation: "hit".into(),
                    off_ns: 99.0,
                    on_ns: 100.5,
                    line64_ns: 99.5
                }
            ]
        );
    }

    #[test]
    fn stored_figures_are_sorted_keys_with_ratios() {
        let criterion = vec![(1, "store", 15.0, 50.0, 18.0)];
        let costs = [CacheCost {
            line: 64,
            operation: "miss",
            mode: "on",
            counts: Counts {
                instructions: 91.94,
                data_refs: 30.0,
                d1_misses: 2.0,
                ll_misses: 1.996,
            },
        }];
        let timings = [Timing {
            operation: "miss".into(),
            off_ns: 100.0,
            on_ns: 125.0,
            line64_ns: 110.0,
        }];
        assert_eq!(
            stored_figures(&criterion, &costs, &timings),
            "m5.measured.cachegrind.line64.miss.on.d1_misses: 2.00\n\
             m5.measured.cachegrind.line64.miss.on.instructions: 91.9\n\
             m5.measured.cachegrind.line64.miss.on.ll_misses: 2.00\n\
             m5.measured.criterion.1mb.store.line64_ns: 18.00\n\
             m5.measured.criterion.1mb.store.line64_over_off: 1.20\n\
             m5.measured.criterion.1mb.store.off_ns: 15.00\n\
             m5.measured.criterion.1mb.store.on_ns: 50.00\n\
             m5.measured.criterion.1mb.store.on_over_off: 3.33\n\
             m5.measured.driver.miss.line64_ns: 110.0\n\
             m5.measured.driver.miss.line64_over_off: 1.10\n\
             m5.measured.driver.miss.off_ns: 100.0\n\
             m5.measured.driver.miss.on_ns: 125.0\n\
             m5.measured.driver.miss.on_over_off: 1.25\n"
        );
    }

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
