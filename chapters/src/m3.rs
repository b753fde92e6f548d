//! Milestone M3, pruning II: the "improving" flag (`improving`), late move pruning (`lmp`),
//! static exchange pruning in the main search (`seeprune`) and internal iterative reduction
//! (`iir`), each switched off at stage M3 on the six positions, and the milestone as a whole
//! (stage M3 against stage M2, where all four are off).
//!
//! Pinned: node counts, best moves, how often each technique acted, and bench's node count with
//! the milestone on.

use crate::six::{self, DEPTH, OnOff};
use crate::{Chapter, Figures};
use cb2026::search::SearchStats;

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
