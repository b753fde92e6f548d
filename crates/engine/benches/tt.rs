//! What M5's buckets cost a probe and a store (`cargo bench -p cb2026 --bench tt`).
//!
//! Probe hit, probe miss and store, with one slot per key (`off`), M5's eight-slot buckets (`on`)
//! and its four-slot buckets for 64-byte lines (`line64`), on a 256 MB table (far beyond every
//! cache, so a probe waits for main memory) and on a 1 MB table (inside L2 or L3). At the end
//! the bench prints each ratio to `off` from criterion's own estimates (the medians it saved).
//! The goal set for M5: a probe miss on the large table no more than 5% slower with buckets on
//! (with 128-byte lines; on 64-byte lines, the goal of the four-slot bucket).

use cb2026::measure;
use cb2026::moves::{Move, MoveKind};
use cb2026::square::Square;
use cb2026::tt::{Bound, Geometry, TranspositionTable};
use criterion::{BenchmarkId, Criterion};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// The two table sizes, in MB: far beyond the caches, and small enough to sit in them.
const SIZES_MB: [usize; 2] = [256, 1];

/// The geometries, as named in criterion's output: one slot, eight, four.
const MODES: [(&str, Geometry); 3] = [
    ("off", Geometry::OneSlot),
    ("on", Geometry::EightSlots),
    ("line64", Geometry::FourSlots),
];

/// What each benchmark does, as named in criterion's output.
const OPERATIONS: [&str; 3] = ["probe_hit", "probe_miss", "store"];

/// A key for each counter value: SplitMix64's finaliser (Sebastiano Vigna), so keys are as
/// uniform as Zobrist keys and cost a few cycles, the same with buckets on and off.
fn key(counter: u64) -> u64 {
    let mut z = counter.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Keys that probes find: a quarter of the table's slots' worth stored, then those still
/// there (with buckets off some were replaced by others landing in the same slot).
fn fill_for_hits(table: &TranspositionTable) -> Vec<u64> {
    let count = table.slot_count() as u64 / 4;
    let e2e4 = Move::new(Square::new(12), Square::new(28), MoveKind::DoublePawnPush);
    for counter in 0..count {
        table.store(key(counter), Some(e2e4), 10, 8, Bound::Exact);
    }
    (0..count)
        .map(key)
        .filter(|&key| table.probe(key).is_some())
        .collect()
}

fn bench_table(c: &mut Criterion, mb: usize) {
    let mut table = TranspositionTable::new(mb);
    let mut group = c.benchmark_group(format!("tt_{mb}mb"));
    for (mode, geometry) in MODES {
        table.clear();
        table.set_geometry(geometry);
        let hits = fill_for_hits(&table);

        group.bench_function(BenchmarkId::new("probe_hit", mode), |b| {
            let mut keys = hits.iter().cycle();
            b.iter(|| table.probe(*keys.next().expect("a cycle never ends")))
        });
        group.bench_function(BenchmarkId::new("probe_miss", mode), |b| {
            // Counters from the top half of the range: keys never stored.
            let mut counter = 1u64 << 63;
            b.iter(|| {
                counter += 1;
                table.probe(key(counter))
            })
        });
        group.bench_function(BenchmarkId::new("store", mode), |b| {
            let mut counter = 1u64 << 62;
            b.iter(|| {
                counter += 1;
                let depth = (counter % 24) as u32;
                table.store(key(counter), None, 0, depth, Bound::Lower);
            })
        });
        black_box(&table);
    }
    group.finish();
}

/// Where criterion keeps its results: `$CRITERION_HOME`, else `criterion/` in the target
/// directory, which holds this executable (`<target>/release/deps/tt-…`).
fn criterion_home() -> Option<PathBuf> {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return Some(home.into());
    }
    if let Some(target) = std::env::var_os("CARGO_TARGET_DIR") {
        return Some(PathBuf::from(target).join("criterion"));
    }
    let exe = std::env::current_exe().ok()?;
    Some(exe.parent()?.parent()?.parent()?.join("criterion"))
}

/// Criterion's median time, in nanoseconds, for one benchmark measured since `since`.
fn median_ns(
    home: &Path,
    group: &str,
    operation: &str,
    mode: &str,
    since: SystemTime,
) -> Option<f64> {
    let path = measure::criterion_estimates(home, group, operation, mode);
    let fresh = std::fs::metadata(&path).ok()?.modified().ok()? >= since;
    let json = std::fs::read_to_string(&path).ok()?;
    fresh.then(|| measure::criterion_median_ns(&json)).flatten()
}

/// Prints on ÷ off for every benchmark that ran in this process.
fn print_ratios(since: SystemTime) {
    let Some(home) = criterion_home() else { return };
    println!("\neach geometry ÷ one slot (criterion's medians):");
    for mb in SIZES_MB {
        let group = format!("tt_{mb}mb");
        for operation in OPERATIONS {
            let Some(off) = median_ns(&home, &group, operation, "off", since) else {
                continue;
            };
            for (mode, _) in &MODES[1..] {
                if let Some(ns) = median_ns(&home, &group, operation, mode, since) {
                    println!(
                        "  {group:>9} {operation:<10}  off {off:7.2} ns  {mode:>6} {ns:7.2} ns  ratio {:.3}",
                        ns / off
                    );
                }
            }
        }
    }
}

fn main() {
    let started = SystemTime::now();
    let mut criterion = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(50)
        .configure_from_args();
    for mb in SIZES_MB {
        bench_table(&mut criterion, mb);
    }
    criterion.final_summary();
    print_ratios(started);
}
