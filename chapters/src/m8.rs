//! Milestone M8, the kinds of node: how often the search's expectation of a cut or an all node
//! comes true, and the six positions at stage M8 with the cut-node reduction (`cutnode`) off
//! and on.
//!
//! Pinned: the expected kinds' counts and how many came true, the extra reductions, the six
//! positions' node counts and best moves, bench's node count with the switch on and off.
//! Measured (`cargo xtask measure m8`): bench's speed with the switch off and on, timed in turns.

use crate::six::{self, DEPTH, OnOff};
use crate::{Chapter, Figure, Figures};
use cb2026::search::SearchStats;
use cb2026::switches::{Stage, Switches};

/// Milestone M8 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "m8",
    title: "M8. Cut nodes and all nodes",
    bin: "m8-node-kinds",
    figures,
    measured: Some(measured),
    deep: None,
    print_tables,
};

/// The milestone's one switch.
const SWITCH: &str = "cutnode";

/// Adds how many nodes of each expected kind the six positions searched with the switch
/// `state`, and how many turned out as expected.
fn add_node_kinds(f: &mut Figures, state: &str, stats: &SearchStats) {
    let key = |rest: &str| format!("m8.kinds.{state}.{rest}");
    f.add(&key("cut"), stats.cut_nodes)
        .add(&key("cut_failing_high"), stats.cut_nodes_failing_high)
        .add(
            &key("cut_failing_high_pct"),
            Figure::percent(stats.cut_nodes_failing_high, stats.cut_nodes, 1),
        )
        .add(&key("all"), stats.all_nodes)
        .add(&key("all_failing_low"), stats.all_nodes_failing_low)
        .add(
            &key("all_failing_low_pct"),
            Figure::percent(stats.all_nodes_failing_low, stats.all_nodes, 1),
        )
        .add(&key("lmr_reductions"), stats.lmr_reductions)
        .add(&key("cut_node_reductions"), stats.cut_node_reductions);
}

/// The pinned figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("m8");
    let comparison = OnOff::measure(SWITCH, DEPTH);
    add_node_kinds(&mut f, "off", &comparison.total_off());
    add_node_kinds(&mut f, "on", &comparison.total_on());
    six::add_switch_figures(&mut f, "m8", SWITCH, engine);
    f
}

/// The default engine as it shipped after M8, with the switch as given.
fn engine(cutnode: bool) -> Switches {
    Switches {
        cutnode,
        ..Switches::shipped_after(Stage::Milestone(8))
    }
}

/// The measured figures: bench's speed with the switch off and on, timed in turns.
pub fn measured() -> Figures {
    six::bench_speed_off_on("m8", engine)
}

fn print_tables() {
    OnOff::measure(SWITCH, DEPTH).print();
    println!();
    print!("{}", figures().to_yaml());
}
