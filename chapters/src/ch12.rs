//! Chapter 12, late move reductions: the six positions with `lmr` on and off at stage 12, how
//! many moves were reduced and how many of those had to be searched again, the reduction table,
//! a sweep of the table's divisor, constant and first depth, and the worked position, Win at
//! Chess no. 1, whose quiet queen sacrifice the reductions find plies later than the search
//! without them.

use crate::six::{self, DEPTH, OnOff, Swept};
use crate::{Chapter, Figure, Figures};
use cb2026::position::Position;
use cb2026::search::pruning::{LmrTable, Params};
use cb2026::search::{Limits, Searcher};
use cb2026::switches::{Stage, Switches};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

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

/// The worked position: Win at Chess no. 1, White to move; 1.Qg6!! is a quiet queen sacrifice.
pub const WAC1_FEN: &str = "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1";
/// The solution of WAC 1, in UCI notation.
pub const WAC1_SOLUTION: &str = "g3g6";
/// The deepest iteration searched for it.
const WAC1_MAX_DEPTH: u32 = 16;

/// The values of each swept parameter: the default and a neighbour on each side.
const DIVISORS: [i32; 3] = [150, 225, 300];
const BASES: [i32; 3] = [50, 75, 100];
const MIN_DEPTHS: [i32; 3] = [2, 3, 4];

/// The iteration at which a search first prefers a move, and the line it gives.
#[derive(Clone, Debug)]
pub struct Found {
    pub depth: u32,
    /// Nodes of that iteration and every earlier one.
    pub nodes: u64,
    /// The score as UCI reports it (`cp 25`, `mate 3`).
    pub score: String,
    /// The principal variation, in UCI notation, moves separated by spaces.
    pub pv: String,
}

/// Searches `fen` from a cleared searcher ([`six::HASH_MB`], `switches`, `params`) one
/// iteration after another, up to `max_depth`, and returns the first iteration whose best move
/// is `solution`; `None` if none is by `max_depth`. The search stops there.
pub fn first_preferred(
    fen: &str,
    solution: &str,
    switches: Switches,
    params: Params,
    max_depth: u32,
) -> Option<Found> {
    let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut searcher = Searcher::new(six::HASH_MB);
    searcher.set_switches(switches);
    searcher.set_params(params);
    searcher.clear();
    let stop = Arc::new(AtomicBool::new(false));
    let mut found = None;
    searcher.search(&pos, &Limits::depth(max_depth), &stop, &mut |info| {
        if found.is_some() {
            return;
        }
        if info.pv.first().is_some_and(|m| m.to_string() == solution) {
            let pv: Vec<String> = info.pv.iter().map(ToString::to_string).collect();
            found = Some(Found {
                depth: info.depth,
                nodes: info.nodes,
                score: info.score.to_string(),
                pv: pv.join(" "),
            });
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    });
    found
}

/// Adds `<prefix>.depth`, `.nodes`, `.score` and `.pv` of `found` (0, 0, `-`, `-` if none).
pub fn add_found(f: &mut Figures, prefix: &str, found: Option<&Found>) {
    f.add(&format!("{prefix}.depth"), found.map_or(0, |it| it.depth))
        .add(&format!("{prefix}.nodes"), found.map_or(0, |it| it.nodes))
        .add(
            &format!("{prefix}.score"),
            found.map_or("-".to_string(), |it| it.score.clone()),
        )
        .add(
            &format!("{prefix}.pv"),
            found.map_or("-".to_string(), |it| it.pv.clone()),
        );
}

/// Stage 12 with `lmr` on or off.
fn stage12(lmr: bool) -> Switches {
    six::at_own_stage("lmr", lmr)
}

/// WAC 1 at stage 12 with `lmr` on or off and `params`.
fn wac1(lmr: bool, params: Params) -> Option<Found> {
    first_preferred(
        WAC1_FEN,
        WAC1_SOLUTION,
        stage12(lmr),
        params,
        WAC1_MAX_DEPTH,
    )
}

const SWEPT: [Swept; 3] = [
    Swept {
        name: "divisor",
        values: &DIVISORS,
        set: |p, v| p.lmr_divisor_centi = v,
    },
    Swept {
        name: "base",
        values: &BASES,
        set: |p, v| p.lmr_base_centi = v,
    },
    Swept {
        name: "min_depth",
        values: &MIN_DEPTHS,
        set: |p, v| p.lmr_min_depth = v,
    },
];

/// Chapter 12's figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("ch12");
    let comparison = OnOff::measure("lmr", DEPTH);
    comparison.add_nodes(&mut f, "ch12");
    comparison.add_moves(&mut f, "ch12");
    let on = comparison.total_on();
    let key = |rest: &str| comparison.key("ch12", rest);
    f.add(&key("six.on.reductions"), on.lmr_reductions)
        .add(&key("six.on.researches"), on.lmr_researches)
        .add(
            &key("six.on.research_pct"),
            Figure::percent(on.lmr_researches, on.lmr_reductions, 1),
        );
    let defaults = Params::DEFAULT;
    f.add("ch12.min_depth", defaults.lmr_min_depth)
        .add("ch12.base_centi", defaults.lmr_base_centi)
        .add("ch12.divisor_centi", defaults.lmr_divisor_centi);
    let table = LmrTable::new();
    for depth in TABLE_DEPTHS {
        for moves in TABLE_MOVES {
            f.add(
                &format!("ch12.table.d{depth}.m{moves}"),
                table.reduction(depth, moves),
            );
        }
    }
    let bolder = LmrTable::with(&Params {
        lmr_divisor_centi: DIVISORS[0],
        ..defaults
    });
    let milder = LmrTable::with(&Params {
        lmr_divisor_centi: DIVISORS[2],
        ..defaults
    });
    f.add(
        &format!("ch12.table.v{}.d10.m16", DIVISORS[0]),
        bolder.reduction(10, 16),
    )
    .add(
        &format!("ch12.table.v{}.d10.m16", DIVISORS[2]),
        milder.reduction(10, 16),
    );

    let stage = Stage::Chapter(12).switches();
    for swept in &SWEPT {
        let prefix = format!("ch12.sweep.{}.d{DEPTH}", swept.name);
        six::sweep(&mut f, &prefix, stage, DEPTH, swept.values, swept.set);
        for &value in swept.values {
            let mut params = defaults;
            (swept.set)(&mut params, value);
            let found = wac1(true, params);
            f.add(
                &format!("ch12.sweep.{}.v{value}.wac1.depth", swept.name),
                found.as_ref().map_or(0, |it| it.depth),
            )
            .add(
                &format!("ch12.sweep.{}.v{value}.wac1.nodes", swept.name),
                found.as_ref().map_or(0, |it| it.nodes),
            );
        }
    }

    let (with, without) = (wac1(true, defaults), wac1(false, defaults));
    add_found(&mut f, "ch12.wac1.on", with.as_ref());
    add_found(&mut f, "ch12.wac1.off", without.as_ref());
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
    let stage = Stage::Chapter(12).switches();
    for swept in &SWEPT {
        println!(
            "\nlmr's {} swept at stage 12, depth {DEPTH} (nodes of the six; WAC 1 found at):",
            swept.name
        );
        for &value in swept.values {
            let mut params = Params::DEFAULT;
            (swept.set)(&mut params, value);
            let nodes = six::total(&six::six_with(stage, params, DEPTH)).nodes;
            let found = wac1(true, params);
            println!(
                "  {value:>4}: {nodes:>9} nodes; WAC 1 {}",
                found.map_or("not found".to_string(), |it| format!(
                    "at depth {} after {} nodes",
                    it.depth, it.nodes
                ))
            );
        }
    }
    for (state, on) in [("on", true), ("off", false)] {
        match wac1(on, Params::DEFAULT) {
            Some(it) => println!(
                "\nWAC 1, lmr {state}: {WAC1_SOLUTION} at depth {} after {} nodes ({}): {}",
                it.depth, it.nodes, it.score, it.pv
            ),
            None => println!("\nWAC 1, lmr {state}: not found by depth {WAC1_MAX_DEPTH}"),
        }
    }
    println!();
    print!("{}", figures().to_yaml());
}
