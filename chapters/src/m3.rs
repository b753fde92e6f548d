//! Milestone M3, pruning II: the "improving" flag (`improving`), late move pruning (`lmp`),
//! static exchange pruning in the main search (`seeprune`), internal iterative reduction
//! (`iir`), the table's score as the prunings' evaluation (`tteval`), razoring (`razoring`) and
//! ProbCut (`probcut`) and multi-cut (`multicut`), each switched off at stage M3 on the six
//! positions, and the milestone as a whole (stage M3 against stage M2, where all eight are off).
//!
//! Pinned: node counts, best moves, how often each technique acted, and bench's node count with
//! the milestone on.

use crate::six::{self, DEPTH, OnOff};
use crate::{Chapter, Figures};
use cb2026::search::SearchStats;
use cb2026::search::pruning::Params;

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
pub const SWITCHES: [&str; 8] = [
    "improving",
    "lmp",
    "seeprune",
    "iir",
    "tteval",
    "razoring",
    "probcut",
    "multicut",
];

/// How often each technique acted in a set of searches: `(name, count)`.
fn acted(stats: &SearchStats) -> [(&'static str, u64); 10] {
    [
        ("lmp_prunes", stats.lmp_prunes),
        ("exchange_prunes", stats.exchange_prunes),
        ("iir_reductions", stats.iir_reductions),
        ("tt_evals", stats.tt_evals),
        ("razor_cutoffs", stats.razor_cutoffs),
        ("probcut_tries", stats.probcut_tries),
        ("probcut_cutoffs", stats.probcut_cutoffs),
        ("multicuts", stats.multicuts),
        ("rfp_cutoffs", stats.rfp_cutoffs),
        ("lmr_reductions", stats.lmr_reductions),
    ]
}

/// The pinned figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("m3");
    f.add("m3.depth", DEPTH);
    let params = Params::DEFAULT;
    f.add("m3.params.razor_max_depth", params.razor_max_depth)
        .add("m3.params.razor_margin.d1", params.razor_margin(1))
        .add("m3.params.razor_margin.d3", params.razor_margin(3))
        .add("m3.params.probcut_min_depth", params.probcut_min_depth)
        .add("m3.params.probcut_margin", params.probcut_margin)
        .add("m3.params.probcut_reduction", params.probcut_reduction);
    for switch in SWITCHES {
        let comparison = OnOff::measure(switch, DEPTH);
        comparison.add_nodes(&mut f, "m3");
        comparison.add_moves(&mut f, "m3");
    }
    six::add_milestone(&mut f, "m3", 3, &SWITCHES, |s| acted(s).to_vec(), DEPTH);
    f
}

fn print_tables() {
    for switch in SWITCHES {
        OnOff::measure(switch, DEPTH).print();
    }
    println!();
    print!("{}", figures().to_yaml());
}
