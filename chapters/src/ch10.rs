//! Chapter 10, principal variation search, and 10.1, nodes are not Elo: the six positions with
//! null windows after the first move (`pvs` on) and with the full window for every move (off),
//! at depth 8 (pinned) and depth 10 (`cargo xtask measure ch10`), where the comparison turns
//! round.

use crate::six::{DEPTH, OnOff};
use crate::{Chapter, Figures};

/// Chapter 10 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "ch10",
    title: "Principal variation search",
    bin: "ch10-pvs",
    figures,
    measured: Some(measured),
    deep: Some(measured),
    print_tables,
};

/// The deeper comparison of 10.1: some millions of nodes, so measured, not pinned.
const DEEP: u32 = 10;

/// Chapter 10's cheap figures: the comparison at [`DEPTH`].
pub fn figures() -> Figures {
    let mut f = Figures::new("ch10");
    let comparison = OnOff::measure("pvs", DEPTH);
    comparison.add_nodes(&mut f, "ch10");
    comparison.add_moves(&mut f, "ch10");
    comparison.add_on_larger(&mut f, "ch10");
    f
}

/// The totals at [`DEEP`], stored under `ch10.measured.*`.
pub fn measured() -> Figures {
    let mut f = Figures::new("ch10");
    let comparison = OnOff::measure("pvs", DEEP);
    comparison.add_totals(&mut f, "ch10.measured");
    comparison.add_on_larger(&mut f, "ch10.measured");
    f
}

fn print_tables() {
    OnOff::measure("pvs", DEPTH).print();
    println!();
    print!("{}", figures().to_yaml());
}
