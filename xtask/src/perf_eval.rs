//! `cargo xtask perf eval [--store]`: what Evaluation II costs (chapter 18).
//!
//! Runs criterion's `eval` bench (`cargo bench -p cb2026 --bench eval`, see its doc comment):
//! the time of one evaluation, averaged over bench's fifty positions, with chapter 6's
//! evaluation, with Evaluation II as the search calls it, and with Evaluation II from scratch;
//! material and tables alone from the running sum and from scratch; and the nodes per second
//! of three bench searches with each evaluation. All in one run, one after the other, so the
//! machine's load falls on every case alike; the figures are criterion's medians.
//!
//! `--store` writes them, with the load average before and after, to
//! `snapshots/measured/ch18-eval-cost.yaml`, keys `ch18.measured.cost.*`: `<case>_ns` (per
//! position), `eval2_over_chapter6` and `scratch_over_eval2` (ratios of those),
//! `psq_saving_ns` and `psq_saving_pct` (what the running sum saves an evaluation, in
//! nanoseconds and as a share of Evaluation II's time), and for the searches
//! `nps.<search>.<evaluation>_knps`, `nps.total.<evaluation>_knps` and `nps.total.ratio`
//! (Evaluation II's over chapter 6's).

use std::path::Path;

use arena::bench::load_average;
use cb2026::bench;
use cb2026::position::Position;
use cb2026::search::Searcher;
use cb2026::switches::Switches;

use crate::perf_tt::{criterion_home, run_bench, saved_median_ns};
use crate::tools::write_measured;

/// Where `--store` writes, relative to the repository.
const STORED: &str = "snapshots/measured/ch18-eval-cost.yaml";

/// The functions of the `eval` group, as criterion names them.
const EVALUATIONS: [&str; 5] = [
    "chapter6",
    "eval2",
    "eval2_scratch",
    "psq_running",
    "psq_scratch",
];

pub fn run(root: &Path, store: bool) -> Result<(), String> {
    let load_before = load_average();
    run_bench(root, "eval", None)?;
    let home = criterion_home(root);
    let positions = bench::positions().len() as f64;
    let mut figures = String::new();
    let mut per_position = std::collections::BTreeMap::new();
    for name in EVALUATIONS {
        let ns = saved_median_ns(&home, "eval", name, "")? / positions;
        println!("{name:>14}: {ns:8.1} ns a position");
        figures.push_str(&format!("ch18.measured.cost.{name}_ns: {ns:.1}\n"));
        per_position.insert(name, ns);
    }
    let ns = |name: &str| per_position[name];
    let saving = ns("psq_scratch") - ns("psq_running");
    figures.push_str(&format!(
        "ch18.measured.cost.eval2_over_chapter6: {:.2}\n\
         ch18.measured.cost.scratch_over_eval2: {:.2}\n\
         ch18.measured.cost.psq_saving_ns: {saving:.1}\n\
         ch18.measured.cost.psq_saving_pct: {:.1}\n",
        ns("eval2") / ns("chapter6"),
        ns("eval2_scratch") / ns("eval2"),
        saving / ns("eval2") * 100.0,
    ));
    figures.push_str(&search_speeds(&home)?);
    if let (Some(before), Some(after)) = (load_before, load_average()) {
        println!("load average: {before:.2} before, {after:.2} after");
        figures.push_str(&format!(
            "ch18.measured.cost.load_before: {before:.2}\n\
             ch18.measured.cost.load_after: {after:.2}\n"
        ));
    }
    print!("{figures}");
    if store {
        let program = "criterion (`cargo bench -p cb2026 --bench eval`, medians): bench's fifty \
                       positions evaluated, three bench searches with each evaluation";
        write_measured(
            root,
            STORED,
            "cargo xtask perf eval --store",
            program,
            &figures,
        )?;
    }
    Ok(())
}

/// Nodes per second of the `nps` group's searches, each evaluation: the node counts are
/// searched again here (a fixed search gives the same count every time), the times are
/// criterion's medians.
fn search_speeds(home: &Path) -> Result<String, String> {
    let fens = bench::positions();
    let mut searcher = Searcher::new(bench::HASH_MB);
    let mut figures = String::new();
    let mut totals = [(0u64, 0f64); 2];
    for (name, index, depth) in bench::TIMED_SEARCHES {
        let pos = Position::from_fen(fens[index]).map_err(|e| e.to_string())?;
        for (slot, (evaluation, eval2)) in [("chapter6", false), ("eval2", true)]
            .into_iter()
            .enumerate()
        {
            searcher.set_switches(Switches {
                eval2,
                ..Switches::default()
            });
            searcher.clear();
            let nodes = searcher.search_depth(&pos, depth).stats.nodes;
            let seconds =
                saved_median_ns(home, "nps", &format!("{name}-d{depth}"), evaluation)? / 1e9;
            totals[slot].0 += nodes;
            totals[slot].1 += seconds;
            let knps = nodes as f64 / seconds / 1e3;
            figures.push_str(&format!(
                "ch18.measured.cost.nps.{name}.{evaluation}_knps: {knps:.0}\n\
                 ch18.measured.cost.nps.{name}.{evaluation}_nodes: {nodes}\n"
            ));
        }
    }
    let knps = |(nodes, seconds): (u64, f64)| nodes as f64 / seconds / 1e3;
    let (chapter6, eval2) = (knps(totals[0]), knps(totals[1]));
    figures.push_str(&format!(
        "ch18.measured.cost.nps.total.chapter6_knps: {chapter6:.0}\n\
         ch18.measured.cost.nps.total.eval2_knps: {eval2:.0}\n\
         ch18.measured.cost.nps.total.ratio: {:.2}\n",
        eval2 / chapter6
    ));
    Ok(figures)
}
