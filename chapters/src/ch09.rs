//! Chapter 9, quiescence and move ordering: the six positions with each of the chapter's four
//! switches off in turn (`qsearch`, `see`, `killers`, `history`), the share of the tree spent in
//! quiescence, how often the first move tried is the one that cuts off, and two static exchange
//! evaluations from the Chess Programming Wiki.

use crate::ch01::position;
use crate::six::{DEPTH, OnOff};
use crate::{Chapter, Figure, Figures};
use cb2026::search::SearchStats;
use cb2026::search::see::see;

/// Chapter 9 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "ch09",
    title: "Quiescence and move ordering",
    bin: "ch09-quiescence",
    figures,
    measured: None,
    deep: None,
    print_tables,
};

/// The chapter's switches, in the order the page takes them.
const SWITCHES: [&str; 4] = ["qsearch", "see", "killers", "history"];

/// The Chess Programming Wiki's two examples of "SEE - The Swap Algorithm": a rook takes an
/// undefended pawn; a knight takes a pawn that a battery of rook and queen x-rays defends.
const SEE_EXAMPLES: [(&str, &str, &str); 2] = [
    (
        "undefended",
        "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1",
        "e1e5",
    ),
    (
        "xray",
        "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
        "d3e5",
    ),
];

/// The share of beta cutoffs made by the first move tried.
fn add_ordering(f: &mut Figures, key: &str, stats: &SearchStats) {
    f.add(
        &format!("{key}.first_pct"),
        Figure::percent(stats.first_move_cutoffs, stats.beta_cutoffs, 1),
    );
}

/// Chapter 9's figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("ch09");
    for switch in SWITCHES {
        let comparison = OnOff::measure(switch, DEPTH);
        if switch == "qsearch" {
            comparison.add_nodes(&mut f, "ch09");
        } else {
            comparison.add_totals(&mut f, "ch09");
        }
        let (on, off) = (comparison.total_on(), comparison.total_off());
        add_ordering(&mut f, &comparison.key("ch09", "six.off"), &off);
        if switch == "qsearch" {
            // The on side is stage 9, the same for all four switches: once.
            add_ordering(&mut f, &comparison.key("ch09", "six.on"), &on);
            f.add(&comparison.key("ch09", "six.on.cutoffs"), on.beta_cutoffs);
            f.add(&comparison.key("ch09", "six.on.qnodes"), on.qnodes)
                .add(
                    &comparison.key("ch09", "six.on.qnode_pct"),
                    Figure::percent(on.qnodes, on.nodes, 1),
                )
                .add(&comparison.key("ch09", "six.on.see_prunes"), on.see_prunes);
            comparison.add_moves(&mut f, "ch09");
        }
    }
    for (name, fen, uci) in SEE_EXAMPLES {
        let pos = position(fen);
        let m = pos
            .parse_uci_move(uci)
            .unwrap_or_else(|e| panic!("{uci}: {e}"));
        f.add(&format!("ch09.see.{name}"), see(&pos, m));
    }
    f
}

fn print_tables() {
    for switch in SWITCHES {
        let comparison = OnOff::measure(switch, DEPTH);
        comparison.print();
        let (on, off) = (comparison.total_on(), comparison.total_off());
        println!(
            "first move cuts off: {}% on, {}% off; quiescence share {}% on",
            Figure::percent(on.first_move_cutoffs, on.beta_cutoffs, 1),
            Figure::percent(off.first_move_cutoffs, off.beta_cutoffs, 1),
            Figure::percent(on.qnodes, on.nodes, 1)
        );
    }
    println!();
    print!("{}", figures().to_yaml());
}
