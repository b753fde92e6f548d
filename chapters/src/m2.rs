//! Milestone M2, history that learns: capture history (`capthist`), continuation histories
//! (`conthist`), history in late move reductions (`histlmr`) and history pruning
//! (`histprune`), each switched off at stage M2 on the six positions, and the milestone as a
//! whole (stage M2 against stage M1, where all four are off).
//!
//! Pinned: node counts, best moves, how well the first move cut off, how often the reductions
//! and the pruning acted, and bench's node count with the milestone on and off.

use crate::six::{self, DEPTH, OnOff};
use crate::{Chapter, Figure, Figures};
use cb2026::search::SearchStats;

/// Milestone M2 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "m2",
    title: "M2. History that learns",
    bin: "m2-history",
    figures,
    measured: None,
    deep: None,
    print_tables,
};

/// The switches of the milestone, measured one at a time.
pub const SWITCHES: [&str; 4] = ["capthist", "conthist", "histlmr", "histprune"];

/// How often the search did what the histories steer: `(name, count)`.
fn acted(stats: &SearchStats) -> [(&'static str, u64); 6] {
    [
        ("beta_cutoffs", stats.beta_cutoffs),
        ("first_move_cutoffs", stats.first_move_cutoffs),
        ("lmr_reductions", stats.lmr_reductions),
        ("lmr_researches", stats.lmr_researches),
        ("history_prunes", stats.history_prunes),
        ("lmp_prunes", stats.lmp_prunes),
    ]
}

/// The share of cutoffs made by the first move tried, in percent to one place.
fn first_move_pct(stats: &SearchStats) -> Figure {
    Figure::percent(stats.first_move_cutoffs, stats.beta_cutoffs, 1)
}

/// The pinned figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("m2");
    f.add("m2.depth", DEPTH);
    for switch in SWITCHES {
        let comparison = OnOff::measure(switch, DEPTH);
        comparison.add_nodes(&mut f, "m2");
        comparison.add_moves(&mut f, "m2");
        f.add(
            &comparison.key("m2", "six.on.first_move_pct"),
            first_move_pct(&comparison.total_on()),
        )
        .add(
            &comparison.key("m2", "six.off.first_move_pct"),
            first_move_pct(&comparison.total_off()),
        );
    }
    let (before, after) =
        six::add_milestone(&mut f, "m2", 2, &SWITCHES, |s| acted(s).to_vec(), DEPTH);
    let key = format!("m2.milestone.d{DEPTH}.six");
    f.add(
        &format!("{key}.before.first_move_pct"),
        first_move_pct(&before),
    )
    .add(
        &format!("{key}.after.first_move_pct"),
        first_move_pct(&after),
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
