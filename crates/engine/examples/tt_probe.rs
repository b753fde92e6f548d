//! The driver of `cargo xtask perf tt`: probes and stores on a large table, with one slot per key
//! (`off`), eight-slot buckets (`on`) or four-slot buckets (`line64`).
//!
//! `tt_probe off|on|line64 hit|miss|store COUNT [MB]` (MB defaults to 256) is what cachegrind
//! runs.
//! It fills the table as [`fill`] says, the same whatever `COUNT` is, so that two runs differ
//! only in the operations counted; then `hit` probes `COUNT` of the stored keys, `miss` probes
//! `COUNT` keys never stored, and `store` stores `COUNT` new results.
//!
//! `tt_probe time [MB]` times each operation on three tables, one of each geometry, in short
//! rounds that take turns, and prints the fastest round of each: on a machine
//! shared with other work, a round that nothing interrupted is the cost of the operation
//! itself, and taking turns exposes the tables to the same conditions.

use cb2026::tt::{Bound, Geometry, TranspositionTable};
use std::hint::black_box;
use std::process::ExitCode;
use std::sync::atomic::{Ordering, fence};
use std::time::{Duration, Instant};

const USAGE: &str =
    "usage: tt_probe off|on|line64 hit|miss|store COUNT [MB]\n       tt_probe time [MB]";

/// The geometries by the names the driver takes, in the order `time` prints them.
const MODES: [(&str, Geometry); 3] = [
    ("off", Geometry::OneSlot),
    ("on", Geometry::EightSlots),
    ("line64", Geometry::FourSlots),
];

/// A uniform key for each counter value (SplitMix64's finaliser), as Zobrist keys are uniform.
fn key(counter: u64) -> u64 {
    let mut z = counter.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Stores one key for every eight slots (2,097,152 in 256 MB), so that the lines they use are
/// many times the last-level cache and probing them in turn misses it, as a search's probes
/// do. Returns how many.
fn fill(table: &TranspositionTable) -> u64 {
    let count = table.slot_count() as u64 / 8;
    for counter in 0..count {
        table.store(key(counter), None, 0, 8, Bound::Exact);
    }
    count
}

/// What is counted or timed.
#[derive(Clone, Copy, Debug)]
enum Operation {
    /// A probe of a key that was stored.
    Hit,
    /// A probe of a key never stored.
    Miss,
    /// A probe miss that must be over before the next operation begins (a fence between
    /// them), as a search's probes are far apart: its latency, not its throughput.
    MissAlone,
    /// A new result stored.
    Store,
}

impl Operation {
    fn name(self) -> &'static str {
        match self {
            Operation::Hit => "probe_hit",
            Operation::Miss => "probe_miss",
            Operation::MissAlone => "miss_alone",
            Operation::Store => "store",
        }
    }

    /// Does the operation for the `counter`th key; `filled` keys were stored by [`fill`].
    #[inline]
    fn run(self, table: &TranspositionTable, counter: u64, filled: u64) {
        match self {
            Operation::Hit => {
                black_box(table.probe(key(counter % filled)));
            }
            Operation::Miss => {
                black_box(table.probe(key(1 << 63 | counter)));
            }
            Operation::MissAlone => {
                black_box(table.probe(key(1 << 63 | counter)));
                fence(Ordering::SeqCst);
            }
            Operation::Store => {
                let depth = (counter % 24) as u32;
                table.store(key(1 << 62 | counter), None, 0, depth, Bound::Lower);
            }
        }
    }
}

fn table(mb: usize, geometry: Geometry) -> Result<(TranspositionTable, u64), String> {
    let mut table = TranspositionTable::try_new(mb).map_err(|e| e.to_string())?;
    table.set_geometry(geometry);
    let filled = fill(&table);
    Ok((table, filled))
}

/// `off|on|line64 hit|miss|store COUNT [MB]`: the operations for cachegrind to count.
fn count(args: &[String]) -> Result<(), String> {
    let [mode, operation, count, rest @ ..] = args else {
        return Err(USAGE.to_string());
    };
    let Some(&(_, geometry)) = MODES.iter().find(|(name, _)| name == mode) else {
        return Err(format!(
            "the mode must be off, on or line64, not {mode:?}\n{USAGE}"
        ));
    };
    let operation = match operation.as_str() {
        "hit" => Operation::Hit,
        "miss" => Operation::Miss,
        "store" => Operation::Store,
        other => {
            return Err(format!(
                "the operation must be hit, miss or store, not {other:?}"
            ));
        }
    };
    let count: u64 = count
        .parse()
        .map_err(|_| format!("COUNT must be a number\n{USAGE}"))?;
    let mb = megabytes(rest)?;
    let (table, filled) = table(mb, geometry)?;
    if matches!(operation, Operation::Hit) && count > filled {
        return Err(format!("at most {filled} hit probes in a table of {mb} MB"));
    }
    table.reset_counters();
    for counter in 0..count {
        operation.run(&table, counter, filled);
    }
    let counted = table.counters();
    println!(
        "{count} {}: {} probes found {}",
        operation.name(),
        counted.probes,
        counted.hits
    );
    Ok(())
}

/// Operations per timed round: short enough (a fraction of a millisecond) that many rounds run
/// without being interrupted, even on a machine shared with other work.
const ROUND: u64 = 1_000;
/// Rounds per operation and mode.
const ROUNDS: u64 = 2_000;

/// `time [MB]`: the fastest round of each operation in each geometry.
fn time(args: &[String]) -> Result<(), String> {
    let mb = megabytes(args)?;
    let tables = [
        table(mb, MODES[0].1)?,
        table(mb, MODES[1].1)?,
        table(mb, MODES[2].1)?,
    ];
    println!("{mb} MB, fastest of {ROUNDS} rounds of {ROUND}, ns per operation:");
    for operation in [
        Operation::Hit,
        Operation::Miss,
        Operation::MissAlone,
        Operation::Store,
    ] {
        let mut fastest = [Duration::MAX; 3];
        for round in 0..ROUNDS {
            // Turn which table goes first, so none always follows another.
            for i in 0..3 {
                let mode = (i + round as usize) % 3;
                let (table, filled) = &tables[mode];
                let began = Instant::now();
                for counter in round * ROUND..(round + 1) * ROUND {
                    operation.run(table, counter, *filled);
                }
                fastest[mode] = fastest[mode].min(began.elapsed());
            }
        }
        let [off, on, line64] = fastest.map(|d| d.as_secs_f64() * 1e9 / ROUND as f64);
        println!(
            "{:<10}  off {off:7.2}  on {on:7.2}  on/off {:.3}  line64 {line64:7.2}  line64/off {:.3}",
            operation.name(),
            on / off,
            line64 / off
        );
    }
    Ok(())
}

fn megabytes(args: &[String]) -> Result<usize, String> {
    match args {
        [] => Ok(256),
        [mb] => mb
            .parse()
            .map_err(|_| format!("MB must be a number\n{USAGE}")),
        _ => Err(USAGE.to_string()),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("time") => time(&args[1..]),
        _ => count(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{message}");
            ExitCode::from(2)
        }
    }
}
