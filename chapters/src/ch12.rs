//! Chapter 12, late move reductions: the six positions with `lmr` on and off, how many moves
//! were reduced and how many of those had to be searched again, and the reduction table.

use crate::six::{DEPTH, OnOff};
use crate::{Chapter, Figure, Figures};
use cb2026::search::pruning::{LmrTable, Params};

/// Chapter 12 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "ch12",
    title: "Late move reductions",
    bin: "ch12-lmr",
    figures,
    measured: None,
    deep: None,
    print_tables,
};

/// The rows (depths) and columns (move numbers) of the reduction table the page shows.
const TABLE_DEPTHS: [i32; 4] = [3, 6, 10, 20];
const TABLE_MOVES: [usize; 5] = [2, 4, 8, 16, 32];

/// Chapter 12's figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("ch12");
    let comparison = OnOff::measure("lmr", DEPTH);
    comparison.add_nodes(&mut f, "ch12");
    let on = comparison.total_on();
    let key = |rest: &str| comparison.key("ch12", rest);
    f.add(&key("six.on.reductions"), on.lmr_reductions)
        .add(&key("six.on.researches"), on.lmr_researches)
        .add(
            &key("six.on.research_pct"),
            Figure::percent(on.lmr_researches, on.lmr_reductions, 1),
        );
    f.add("ch12.min_depth", Params::DEFAULT.lmr_min_depth);
    let table = LmrTable::new();
    for depth in TABLE_DEPTHS {
        for moves in TABLE_MOVES {
            f.add(
                &format!("ch12.table.d{depth}.m{moves}"),
                table.reduction(depth, moves),
            );
        }
    }
    f
}

fn print_tables() {
    let comparison = OnOff::measure("lmr", DEPTH);
    comparison.print();
    let table = LmrTable::new();
    println!("\nReduction by depth (rows) and move number (columns):\n");
    print!("{:>6}", "");
    for moves in TABLE_MOVES {
        print!("{moves:>4}");
    }
    println!();
    for depth in TABLE_DEPTHS {
        print!("{depth:>6}");
        for moves in TABLE_MOVES {
            print!("{:>4}", table.reduction(depth, moves));
        }
        println!();
    }
    println!();
    print!("{}", figures().to_yaml());
}
