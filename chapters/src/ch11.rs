//! Chapter 11, null-move pruning: the six positions with `nullmove` on and off, how many null
//! moves were tried and how many of them cut the node, the reduction R by depth, a sweep of
//! R's two numbers and of the first depth, and the worked position, a zugzwang that the null
//! move hides.
//!
//! The sweeps and the zugzwang search run at stage 11, which has no late move reductions yet:
//! some millions of nodes each, so they are measured (`cargo xtask measure ch11`) and checked
//! again by `cargo xtask recheck ch11`, not pinned by the debug test.

use crate::six::{self, DEPTH, OnOff, Swept};
use crate::{Chapter, Figure, Figures};
use cb2026::position::Position;
use cb2026::search::pruning::Params;
use cb2026::search::{Limits, Searcher};
use cb2026::switches::{Stage, Switches};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Chapter 11 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "ch11",
    title: "Null-move pruning",
    bin: "ch11-null-move",
    figures,
    measured: Some(measured),
    deep: Some(measured),
    print_tables,
};

/// The depths at which the page shows the reduction.
const R_DEPTHS: [i32; 4] = [3, 6, 12, 18];

/// The worked position: White to move plays 1.Rf1 and Black, who still has a rook, is in
/// zugzwang (Chess Programming Wiki, "Null Move Test-Positions").
pub const ZUGZWANG_FEN: &str = "8/8/p1p5/1p5p/1P5p/8/PPP2K1p/4R1rk w - - 0 1";
/// The solution, in UCI notation.
pub const ZUGZWANG_SOLUTION: &str = "e1f1";
/// The depth to which the page searches it, with the switch on and off.
pub const ZUGZWANG_DEPTH: u32 = 12;

/// The values of each swept parameter: the default and a neighbour on each side. A divisor of
/// 100 leaves R at its base at every depth these searches reach: a fixed R.
const BASE_RS: [i32; 3] = [2, 3, 4];
const DIVISORS: [i32; 3] = [4, 6, 100];
const MIN_DEPTHS: [i32; 3] = [2, 3, 4];

const SWEPT: [Swept; 3] = [
    Swept {
        name: "base_r",
        values: &BASE_RS,
        set: |p, v| p.null_move_base_r = v,
    },
    Swept {
        name: "divisor",
        values: &DIVISORS,
        set: |p, v| p.null_move_depth_divisor = v,
    },
    Swept {
        name: "min_depth",
        values: &MIN_DEPTHS,
        set: |p, v| p.null_move_min_depth = v,
    },
];

/// One completed iteration of a search, with its line.
#[derive(Clone, Debug)]
pub struct Line {
    pub depth: u32,
    /// Nodes of this iteration and every earlier one.
    pub nodes: u64,
    pub best: String,
    /// The score as UCI reports it.
    pub score: String,
    /// The principal variation, moves separated by spaces.
    pub pv: String,
}

/// Searches `fen` to `depth` from a cleared searcher ([`six::HASH_MB`], `switches`, `params`)
/// and returns every iteration.
pub fn iterations(fen: &str, switches: Switches, params: Params, depth: u32) -> Vec<Line> {
    let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut searcher = Searcher::new(six::HASH_MB);
    searcher.set_switches(switches);
    searcher.set_params(params);
    searcher.clear();
    let stop = Arc::new(AtomicBool::new(false));
    let mut lines = Vec::new();
    searcher.search(&pos, &Limits::depth(depth), &stop, &mut |info| {
        let pv: Vec<String> = info.pv.iter().map(ToString::to_string).collect();
        lines.push(Line {
            depth: info.depth,
            nodes: info.nodes,
            best: pv.first().cloned().unwrap_or_else(|| "(none)".into()),
            score: info.score.to_string(),
            pv: pv.join(" "),
        });
    });
    lines
}

/// The zugzwang searched at stage 11 with `nullmove` on or off.
fn zugzwang(on: bool) -> Vec<Line> {
    iterations(
        ZUGZWANG_FEN,
        six::at_own_stage("nullmove", on),
        Params::DEFAULT,
        ZUGZWANG_DEPTH,
    )
}

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
    let defaults = Params::DEFAULT;
    f.add("ch11.min_depth", defaults.null_move_min_depth)
        .add("ch11.base_r", defaults.null_move_base_r)
        .add("ch11.divisor", defaults.null_move_depth_divisor);
    for depth in R_DEPTHS {
        f.add(
            &format!("ch11.r.d{depth}"),
            defaults.null_move_reduction(depth),
        );
    }
    f
}

/// The heavy figures: the three sweeps at stage 11 and the zugzwang with the switch on and off.
pub fn measured() -> Figures {
    let mut f = Figures::new("ch11");
    let stage = Stage::Chapter(11).switches();
    for swept in &SWEPT {
        let prefix = format!("ch11.sweep.{}.d{DEPTH}", swept.name);
        six::sweep(&mut f, &prefix, stage, DEPTH, swept.values, swept.set);
    }
    for (state, on) in [("on", true), ("off", false)] {
        let lines = zugzwang(on);
        let last = lines
            .last()
            .expect("a depth-limited search completes depth 1");
        let prefix = format!("ch11.zugzwang.{state}");
        f.add(&format!("{prefix}.depth"), last.depth)
            .add(&format!("{prefix}.nodes"), last.nodes)
            .add(&format!("{prefix}.best"), last.best.as_str())
            .add(&format!("{prefix}.score"), last.score.as_str())
            .add(&format!("{prefix}.pv"), last.pv.as_str());
        let settled = crate::ch13::settled_on(&lines, ZUGZWANG_SOLUTION);
        f.add(
            &format!("{prefix}.found.depth"),
            settled.map_or(0, |l| l.depth),
        )
        .add(
            &format!("{prefix}.found.nodes"),
            settled.map_or(0, |l| l.nodes),
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
    let stage = Stage::Chapter(11).switches();
    for swept in &SWEPT {
        println!(
            "\nnullmove's {} swept at stage 11, depth {DEPTH}:",
            swept.name
        );
        for &value in swept.values {
            let mut params = Params::DEFAULT;
            (swept.set)(&mut params, value);
            let nodes = six::total(&six::six_with(stage, params, DEPTH)).nodes;
            println!("  {value:>4}: {nodes:>9} nodes");
        }
    }
    for (state, on) in [("on", true), ("off", false)] {
        println!("\nThe zugzwang {ZUGZWANG_FEN}, nullmove {state}:");
        for l in zugzwang(on) {
            println!(
                "  depth {:>2} {:>9} nodes {:<6} {:<10} {}",
                l.depth, l.nodes, l.best, l.score, l.pv
            );
        }
    }
    println!();
    print!("{}", figures().to_yaml());
    print!("{}", measured().to_yaml());
}
