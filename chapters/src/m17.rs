//! Milestone M17, quiescence II: the table's move in quiescence (`qsttmove`) and delta pruning
//! (`qsfutility`). bench's counters for the engine as it shipped after M16 with neither, each
//! and both; and the six positions at stage M17 with each switch off and on.
//!
//! Pinned: bench's nodes, quiescence nodes and the two prunings' counts in the four engines,
//! the six positions' node counts and best moves.

use crate::m9::bench_stats;
use crate::six::{DEPTH, OnOff, change_pct};
use crate::{Chapter, Figure, Figures};
use cb2026::search::SearchStats;
use cb2026::search::pruning::Params;
use cb2026::switches::{Stage, Switches};

/// Milestone M17 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "m17",
    title: "M17. Quiescence II",
    bin: "m17-quiescence-ii",
    figures,
    measured: None,
    deep: None,
    print_tables,
};

/// The milestone's two switches.
const SWITCHES: [&str; 2] = ["qsttmove", "qsfutility"];

/// The default engine as it shipped after M16, with M17's switches as given: `both` is the
/// engine after M17, `neither` the one the milestone's games played against.
fn engine(ttmove: bool, futility: bool) -> Switches {
    Switches {
        qsttmove: ttmove,
        qsfutility: futility,
        ..Switches::shipped_after(Stage::Milestone(16))
    }
}

/// The four engines bench compares: neither switch, each alone, both.
const ENGINES: [(&str, bool, bool); 4] = [
    ("neither", false, false),
    ("ttmove", true, false),
    ("futility", false, true),
    ("both", true, true),
];

/// Adds what quiescence did in `stats` under `m17.<what>.`.
fn add_quiescence(f: &mut Figures, what: &str, stats: &SearchStats) {
    let key = |rest: &str| format!("m17.{what}.{rest}");
    f.add(&key("nodes"), stats.nodes)
        .add(&key("qnodes"), stats.qnodes)
        .add(
            &key("qnode_pct"),
            Figure::percent(stats.qnodes, stats.nodes, 1),
        )
        .add(&key("futility_prunes"), stats.qs_futility_prunes)
        .add(&key("see_prunes"), stats.see_prunes)
        .add(&key("iir_reductions"), stats.iir_reductions);
}

/// The pinned figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("m17");
    let mut bench_nodes = Vec::new();
    for (name, ttmove, futility) in ENGINES {
        let stats = bench_stats(engine(ttmove, futility));
        add_quiescence(&mut f, &format!("bench.{name}"), &stats);
        bench_nodes.push(stats.nodes);
    }
    let [neither, ttmove, futility, both] = bench_nodes[..] else {
        unreachable!("four engines")
    };
    f.add("m17.bench.ttmove.change_pct", change_pct(ttmove, neither))
        .add(
            "m17.bench.futility.change_pct",
            change_pct(futility, neither),
        )
        .add("m17.bench.both.change_pct", change_pct(both, neither));
    for switch in SWITCHES {
        let comparison = OnOff::measure(switch, DEPTH);
        comparison.add_nodes(&mut f, "m17");
        comparison.add_moves(&mut f, "m17");
    }
    f.add("m17.depth", DEPTH)
        .add("m17.stage", Stage::Milestone(17).to_string())
        .add(
            "m17.params.qs_futility_margin",
            Params::DEFAULT.qs_futility_margin,
        );
    f
}

fn print_tables() {
    for switch in SWITCHES {
        OnOff::measure(switch, DEPTH).print();
    }
    println!();
    print!("{}", figures().to_yaml());
}
