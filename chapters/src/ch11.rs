//! Chapter 11, null-move pruning: the six positions with `nullmove` on and off, how many null
//! moves were tried and how many of them cut the node, and the reduction R by depth.

use crate::six::{DEPTH, OnOff};
use crate::{Chapter, Figure, Figures};
use cb2026::search::pruning::Params;

/// Chapter 11 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "ch11",
    title: "Null-move pruning",
    bin: "ch11-null-move",
    figures,
    measured: None,
    deep: None,
    print_tables,
};

/// The depths at which the page shows the reduction.
const R_DEPTHS: [i32; 4] = [3, 6, 12, 18];

/// Chapter 11's figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("ch11");
    let comparison = OnOff::measure("nullmove", DEPTH);
    comparison.add_nodes(&mut f, "ch11");
    comparison.add_on_larger(&mut f, "ch11");
    let on = comparison.total_on();
    let key = |rest: &str| comparison.key("ch11", rest);
    f.add(&key("six.on.tries"), on.null_tries)
        .add(&key("six.on.cutoffs"), on.null_cutoffs)
        .add(
            &key("six.on.cutoff_pct"),
            Figure::percent(on.null_cutoffs, on.null_tries, 1),
        );
    for run in comparison.on.iter() {
        f.add(&key(&format!("{}.on.tries", run.id)), run.stats.null_tries)
            .add(
                &key(&format!("{}.on.cutoffs", run.id)),
                run.stats.null_cutoffs,
            );
    }
    f.add("ch11.min_depth", Params::DEFAULT.null_move_min_depth);
    for depth in R_DEPTHS {
        f.add(
            &format!("ch11.r.d{depth}"),
            Params::DEFAULT.null_move_reduction(depth),
        );
    }
    f
}

fn print_tables() {
    let comparison = OnOff::measure("nullmove", DEPTH);
    comparison.print();
    println!("\n{:<13} {:>8} {:>8}", "position", "tries", "cutoffs");
    for run in comparison.on.iter() {
        println!(
            "{:<13} {:>8} {:>8}",
            run.id, run.stats.null_tries, run.stats.null_cutoffs
        );
    }
    println!();
    print!("{}", figures().to_yaml());
}
