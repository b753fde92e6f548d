//! Chapter 10, principal variation search, and 10.1, nodes are not Elo: the six positions with
//! null windows after the first move (`pvs` on) and with the full window for every move (off),
//! at depth 8 (pinned) and depth 10 (`cargo xtask measure ch10`), where the comparison turns
//! round.

use crate::six::{DEPTH, OnOff};
use crate::{Chapter, Figure, Figures};

/// Chapter 10 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "ch10",
    title: "Principal variation search",
    bin: "ch10-pvs",
    figures,
    measured: Some(measured),
    print_tables,
};

/// The deeper comparison of 10.1: some millions of nodes, so measured, not pinned.
const DEEP: u32 = 10;

/// The figures of a comparison: nodes, moves and scores, and the ordering counters.
fn add_comparison(f: &mut Figures, prefix: &str, comparison: &OnOff) {
    comparison.add_nodes(f, prefix);
    comparison.add_moves(f, prefix);
    for (state, stats) in [
        ("on", comparison.total_on()),
        ("off", comparison.total_off()),
    ] {
        f.add(
            &comparison.key(prefix, &format!("six.{state}.qnode_pct")),
            Figure::percent(stats.qnodes, stats.nodes, 1),
        )
        .add(
            &comparison.key(prefix, &format!("six.{state}.lmr_researches")),
            stats.lmr_researches,
        );
    }
}

/// Chapter 10's cheap figures: the comparison at [`DEPTH`].
pub fn figures() -> Figures {
    let mut f = Figures::new("ch10");
    add_comparison(&mut f, "ch10", &OnOff::measure("pvs", DEPTH));
    f
}

/// The comparison at [`DEEP`], stored under `ch10.measured.*`.
pub fn measured() -> Figures {
    let mut f = Figures::new("ch10");
    add_comparison(&mut f, "ch10.measured", &OnOff::measure("pvs", DEEP));
    f
}

fn print_tables() {
    OnOff::measure("pvs", DEPTH).print();
    println!();
    print!("{}", figures().to_yaml());
}
