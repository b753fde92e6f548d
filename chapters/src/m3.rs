//! Milestone M3, pruning II: the "improving" flag (`improving`), late move pruning (`lmp`),
//! static exchange pruning in the main search (`seeprune`) and internal iterative reduction
//! (`iir`), each switched off at stage M3 on the six positions, and the milestone as a whole
//! (stage M3 against stage M2, where all four are off).
//!
//! Pinned: node counts, best moves, how often each technique acted, and bench's node count with
//! the milestone on.

use crate::six::{self, DEPTH, OnOff, change_pct, total};
use crate::{Chapter, Figures};
use cb2026::search::SearchStats;
use cb2026::switches::{Stage, Switches};

/// Milestone M3 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "m3",
    title: "M3. Pruning II",
    bin: "m3-pruning-ii",
    figures,
    measured: None,
    deep: None,
    print_tables,
};

/// The switches of the milestone, measured one at a time.
pub const SWITCHES: [&str; 4] = ["improving", "lmp", "seeprune", "iir"];

/// How often each technique acted in a set of searches: `(name, count)`.
fn acted(stats: &SearchStats) -> [(&'static str, u64); 5] {
    [
        ("lmp_prunes", stats.lmp_prunes),
        ("exchange_prunes", stats.exchange_prunes),
        ("iir_reductions", stats.iir_reductions),
        ("rfp_cutoffs", stats.rfp_cutoffs),
        ("lmr_reductions", stats.lmr_reductions),
    ]
}

/// The pinned figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("m3");
    f.add("m3.depth", DEPTH);
    for switch in SWITCHES {
        let comparison = OnOff::measure(switch, DEPTH);
        comparison.add_nodes(&mut f, "m3");
        comparison.add_moves(&mut f, "m3");
    }
    let before = six::six(Stage::Milestone(2).switches(), DEPTH);
    let after = six::six(Stage::Milestone(3).switches(), DEPTH);
    let (before_stats, after_stats) = (total(&before), total(&after));
    let key = format!("m3.milestone.d{DEPTH}.six");
    f.add(&format!("{key}.before.nodes"), before_stats.nodes)
        .add(&format!("{key}.after.nodes"), after_stats.nodes)
        .add(
            &format!("{key}.change_pct"),
            change_pct(after_stats.nodes, before_stats.nodes),
        );
    for (name, count) in acted(&after_stats) {
        f.add(&format!("{key}.after.{name}"), count);
    }
    for (name, count) in acted(&before_stats) {
        f.add(&format!("{key}.before.{name}"), count);
    }
    let best_changed = before
        .iter()
        .zip(after.iter())
        .filter(|(b, a)| b.last().best_move != a.last().best_move)
        .count();
    f.add(&format!("{key}.best_changed"), best_changed);
    f.add(
        "m3.bench.milestone_on.nodes",
        crate::bench_nodes(with_milestone(true)),
    )
    .add(
        "m3.bench.milestone_off.nodes",
        crate::bench_nodes(with_milestone(false)),
    );
    f
}

/// The default engine with the milestone's switches all on or all off.
fn with_milestone(on: bool) -> Switches {
    let mut switches = Switches::default();
    for name in SWITCHES {
        switches.set(name, on).expect("a milestone switch");
    }
    switches
}

fn print_tables() {
    for switch in SWITCHES {
        OnOff::measure(switch, DEPTH).print();
    }
    println!();
    print!("{}", figures().to_yaml());
}
