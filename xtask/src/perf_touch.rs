//! `cargo xtask perf touch [--store]`: whether touching the child's table slots right after a
//! move (M5's switch `tttouch`, `TranspositionTable::touch`) makes the search faster.
//!
//! Runs criterion's `touch` group (`cargo bench -p cb2026 --bench search -- touch`): three bench
//! positions searched to a fixed depth in a 256 MB table, far larger than the caches, with the
//! switch off and on, in one run, one after the other. The node counts are the same either way
//! (the touch changes no result), so the two times compare directly. `--store` writes the
//! medians, the change and the load average before and after to
//! `snapshots/measured/m5-touch.yaml`, keys `m5.measured.touch.*`.

use std::path::Path;

use arena::bench::load_average;

use crate::perf_tt::{criterion_home, run_bench, saved_median_ns};
use crate::tools::write_measured;

/// Where `--store` writes, relative to the repository.
const STORED: &str = "snapshots/measured/m5-touch.yaml";

/// The searches of the `touch` group in `crates/engine/benches/search.rs`, as criterion names
/// them (`<position>-d<depth>`).
const CASES: [&str; 3] = ["opening-d15", "middlegame-d13", "endgame-d22"];

pub fn run(root: &Path, store: bool) -> Result<(), String> {
    let load_before = load_average();
    run_bench(root, "search", Some("touch"))?;
    let home = criterion_home(root);
    let median_ms = |case: &str, state: &str| -> Result<f64, String> {
        saved_median_ns(&home, "touch", case, state).map(|ns| ns / 1e6)
    };
    let mut figures = String::new();
    println!(
        "{:>16} {:>10} {:>10} {:>8}",
        "search", "off (ms)", "on (ms)", "change"
    );
    for case in CASES {
        let (off, on) = (median_ms(case, "off")?, median_ms(case, "on")?);
        let change = (on / off - 1.0) * 100.0;
        println!("{case:>16} {off:>10.1} {on:>10.1} {change:>+7.1}%");
        figures.push_str(&format!(
            "m5.measured.touch.{case}.off_ms: {off:.1}\nm5.measured.touch.{case}.on_ms: {on:.1}\n\
             m5.measured.touch.{case}.change_pct: {change:.1}\n"
        ));
    }
    if let (Some(before), Some(after)) = (load_before, load_average()) {
        println!("load average: {before:.2} before, {after:.2} after");
        figures.push_str(&format!(
            "m5.measured.touch.load_before: {before:.2}\nm5.measured.touch.load_after: {after:.2}\n"
        ));
    }
    if store {
        let program = "criterion (`cargo bench -p cb2026 --bench search -- touch`, medians): \
                       three bench positions at fixed depth, 256 MB table, tttouch off and on";
        write_measured(
            root,
            STORED,
            "cargo xtask perf touch --store",
            program,
            &figures,
        )?;
    }
    Ok(())
}
