//! Milestone M1, moves in the order they will be tried: the staged move picker (`staged`) and
//! the counter-move heuristic (`countermove`), each switched off and on at stage M1 on the six
//! positions, and the milestone as a whole (stage M1 against stage 20, where both are off).
//!
//! Pinned: node counts, moves generated per alpha-beta node, the share of cutoffs made by the
//! first move and by the hash move before any generation. Measured (`cargo xtask measure m1`):
//! bench's speed with each switch off and on, timed in turns.

use crate::ch02::{clock_name, load_average, time_medians};
use crate::six::{self, DEPTH, OnOff, Run, change_pct, total};
use crate::{Chapter, Figure, Figures};
use cb2026::search::SearchStats;
use cb2026::switches::{Stage, Switches};
use std::hint::black_box;

/// Milestone M1 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "m1",
    title: "M1. Moves in the order they will be tried",
    bin: "m1-move-picker",
    figures,
    measured: Some(measured),
    deep: None,
    print_tables,
};

/// The switches of the milestone, measured one at a time.
const SWITCHES: [&str; 2] = ["staged", "countermove"];

/// Timed runs of bench per configuration (medians are kept).
const BENCH_RUNS: usize = 15;

/// Moves generated per alpha-beta node (quiescence nodes left out), to two decimals.
fn generated_per_node(stats: &SearchStats) -> Figure {
    let alpha_beta_nodes = (stats.nodes - stats.qnodes).max(1);
    Figure::fixed(stats.moves_generated as f64 / alpha_beta_nodes as f64, 2)
}

/// The figures of one set of runs under `key`: nodes, moves generated per node, the share of
/// cutoffs made by the first move tried and by the hash move before any generation.
fn add_run_figures(f: &mut Figures, key: &str, runs: &[Run]) {
    let stats = total(runs);
    let cutoffs = stats.beta_cutoffs.max(1);
    f.add(
        &format!("{key}.generated_per_node"),
        generated_per_node(&stats),
    )
    .add(
        &format!("{key}.first_move_cutoff_pct"),
        Figure::percent(stats.first_move_cutoffs, cutoffs, 1),
    )
    .add(
        &format!("{key}.cutoffs_before_generation_pct"),
        Figure::percent(stats.cutoffs_before_generation, cutoffs, 1),
    );
}

/// The pinned figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("m1");
    for switch in SWITCHES {
        let comparison = OnOff::measure(switch, DEPTH);
        comparison.add_nodes(&mut f, "m1");
        add_run_figures(&mut f, &comparison.key("m1", "six.on"), &comparison.on);
        add_run_figures(&mut f, &comparison.key("m1", "six.off"), &comparison.off);
        if switch == "staged" {
            // Each position's own share, for the page's worked position.
            for (on, off) in comparison.on.iter().zip(comparison.off.iter()) {
                for (state, run) in [("on", on), ("off", off)] {
                    let key = comparison.key("m1", &format!("{}.{state}", run.id));
                    add_run_figures(&mut f, &key, std::slice::from_ref(run));
                }
            }
        }
    }
    let before = six::six(Stage::Chapter(20).switches(), DEPTH);
    let after = six::six(Stage::Milestone(1).switches(), DEPTH);
    let (before_nodes, after_nodes) = (total(&before).nodes, total(&after).nodes);
    f.add(
        &format!("m1.milestone.d{DEPTH}.six.before.nodes"),
        before_nodes,
    )
    .add(
        &format!("m1.milestone.d{DEPTH}.six.after.nodes"),
        after_nodes,
    )
    .add(
        &format!("m1.milestone.d{DEPTH}.six.change_pct"),
        change_pct(after_nodes, before_nodes),
    )
    .add("m1.depth", DEPTH);
    add_run_figures(
        &mut f,
        &format!("m1.milestone.d{DEPTH}.six.before"),
        &before,
    );
    add_run_figures(&mut f, &format!("m1.milestone.d{DEPTH}.six.after"), &after);
    f.add(
        "m1.bench.both_on.nodes",
        crate::bench_nodes(engine(true, true)),
    );
    f
}

/// The default engine as it shipped before M12, with the milestone's switches as given.
fn engine(staged: bool, countermove: bool) -> Switches {
    Switches {
        staged,
        countermove,
        ..crate::engine_before_m12()
    }
}

/// The measured figures: bench's speed with the milestone off, the staged picker alone, and
/// both switches on, the median of [`BENCH_RUNS`] runs each, taken in turns.
pub fn measured() -> Figures {
    let mut f = Figures::new("m1");
    f.add("m1.measured.load_before", load_average());
    let configurations = [
        ("off", engine(false, false)),
        ("staged", engine(true, false)),
        ("both", engine(true, true)),
    ];
    let mut nodes = [0u64; 3];
    let [off, staged, both] = &mut nodes;
    eprintln!("m1: bench in three configurations, {BENCH_RUNS} runs each");
    let times = time_medians(
        BENCH_RUNS,
        &mut [
            &mut || *off = black_box(crate::bench_nodes(configurations[0].1)),
            &mut || *staged = black_box(crate::bench_nodes(configurations[1].1)),
            &mut || *both = black_box(crate::bench_nodes(configurations[2].1)),
        ],
    );
    let knps = |i: usize| nodes[i] as f64 / times[i].as_secs_f64() / 1e3;
    for (i, (name, _)) in configurations.iter().enumerate() {
        f.add(
            &format!("m1.measured.bench.{name}.knps"),
            Figure::fixed(knps(i), 0),
        )
        .add(&format!("m1.measured.bench.{name}.nodes"), nodes[i]);
    }
    f.add(
        "m1.measured.bench.staged.nps_change_pct",
        Figure::fixed(100.0 * (knps(1) / knps(0) - 1.0), 1),
    )
    .add(
        "m1.measured.bench.both.nps_change_pct",
        Figure::fixed(100.0 * (knps(2) / knps(0) - 1.0), 1),
    )
    .add("m1.measured.clock", clock_name())
    .add("m1.measured.load_after", load_average());
    f
}

fn print_tables() {
    for switch in SWITCHES {
        let comparison = OnOff::measure(switch, DEPTH);
        comparison.print();
        for (state, runs) in [("on", &comparison.on), ("off", &comparison.off)] {
            let stats = total(runs);
            println!(
                "{switch} {state}: {} moves generated per alpha-beta node, {} % of cutoffs by \
                 the first move, {} % by the hash move before any generation",
                generated_per_node(&stats),
                Figure::percent(stats.first_move_cutoffs, stats.beta_cutoffs.max(1), 1),
                Figure::percent(
                    stats.cutoffs_before_generation,
                    stats.beta_cutoffs.max(1),
                    1
                ),
            );
        }
    }
}
