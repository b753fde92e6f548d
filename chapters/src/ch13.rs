//! Chapter 13, futility pruning and aspiration windows: the six positions with each of the
//! chapter's switches off in turn (`rfp`, `futility`, `aspiration`), what each did, the margins,
//! a sweep of each margin and of the aspiration window, and the worked position, Win at Chess
//! no. 23, whose quiet solution the two prunings find plies later.

use crate::ch11::{Line, iterations};
use crate::six::{self, DEPTH, OnOff, Swept};
use crate::{Chapter, Figures};
use cb2026::search::pruning::Params;
use cb2026::switches::{Stage, Switches};

/// Chapter 13 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "ch13",
    title: "Futility pruning and aspiration windows",
    bin: "ch13-futility",
    figures,
    measured: None,
    deep: None,
    print_tables,
};

/// The chapter's switches, in the order the page takes them.
const SWITCHES: [&str; 3] = ["rfp", "futility", "aspiration"];

/// The depths at which the page shows the margins.
const MARGIN_DEPTHS: [i32; 3] = [1, 3, 6];

/// The worked position: Win at Chess no. 23, White to move; 1.g4 is a quiet pawn move that
/// traps the queen on f5.
pub const WAC23_FEN: &str = "r3nrk1/2p2p1p/p1p1b1p1/2NpPq2/3R4/P1N1Q3/1PP2PPP/4R1K1 w - - 0 1";
/// The solution of WAC 23, in UCI notation.
pub const WAC23_SOLUTION: &str = "g2g4";
/// The depth to which the page searches it.
const WAC23_DEPTH: u32 = 10;

/// The values of each swept parameter: the default and a neighbour on each side.
const RFP_PER_PLY: [i32; 3] = [50, 75, 100];
const FUTILITY_BASES: [i32; 3] = [40, 80, 120];
const FUTILITY_PER_PLY: [i32; 3] = [60, 80, 100];
const ASPIRATION_DELTAS: [i32; 3] = [10, 25, 50];

const SWEPT: [Swept; 4] = [
    Swept {
        name: "rfp_per_ply",
        values: &RFP_PER_PLY,
        set: |p, v| p.rfp_margin_per_ply = v,
    },
    Swept {
        name: "futility_base",
        values: &FUTILITY_BASES,
        set: |p, v| p.futility_base = v,
    },
    Swept {
        name: "futility_per_ply",
        values: &FUTILITY_PER_PLY,
        set: |p, v| p.futility_per_ply = v,
    },
    Swept {
        name: "aspiration_delta",
        values: &ASPIRATION_DELTAS,
        set: |p, v| p.aspiration_delta = v,
    },
];

/// The configurations the worked position is searched in: stage 13, then with `rfp`,
/// `futility` or both off.
const WAC23_RUNS: [(&str, &[&str]); 4] = [
    ("all", &[]),
    ("no_rfp", &["rfp"]),
    ("no_futility", &["futility"]),
    ("neither", &["rfp", "futility"]),
];

fn stage13_without(off: &[&str]) -> Switches {
    let mut switches = Stage::Chapter(13).switches();
    for name in off {
        switches
            .set(name, false)
            .unwrap_or_else(|e| panic!("switch {name}: {e}"));
    }
    switches
}

/// The first iteration from which on the best move is `solution`; `None` if the last
/// iteration's is another move.
pub fn settled_on<'a>(lines: &'a [Line], solution: &str) -> Option<&'a Line> {
    match lines.iter().rposition(|l| l.best != solution) {
        None => lines.first(),
        Some(i) => lines.get(i + 1),
    }
}

/// Chapter 13's figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("ch13");
    for switch in SWITCHES {
        let comparison = OnOff::measure(switch, DEPTH);
        comparison.add_nodes(&mut f, "ch13");
        let on = comparison.total_on();
        let count = match switch {
            "rfp" => on.rfp_cutoffs,
            "futility" => on.futility_prunes,
            _ => on.aspiration_researches,
        };
        f.add(&comparison.key("ch13", "six.on.count"), count);
        if switch == "aspiration" {
            comparison.add_moves(&mut f, "ch13");
            for run in comparison.on.iter() {
                f.add(
                    &comparison.key("ch13", &format!("{}.on.count", run.id)),
                    run.stats.aspiration_researches,
                );
            }
        }
    }
    let params = Params::DEFAULT;
    f.add("ch13.rfp.max_depth", params.rfp_max_depth)
        .add("ch13.rfp.per_ply", params.rfp_margin_per_ply)
        .add("ch13.futility.max_depth", params.futility_max_depth)
        .add("ch13.futility.base", params.futility_base)
        .add("ch13.futility.per_ply", params.futility_per_ply)
        .add("ch13.aspiration.min_depth", params.aspiration_min_depth)
        .add("ch13.aspiration.delta", params.aspiration_delta);
    for depth in MARGIN_DEPTHS {
        f.add(
            &format!("ch13.rfp.margin.d{depth}"),
            params.rfp_margin(depth),
        )
        .add(
            &format!("ch13.futility.margin.d{depth}"),
            params.futility_margin(depth),
        );
    }

    let stage = Stage::Chapter(13).switches();
    for swept in &SWEPT {
        let prefix = format!("ch13.sweep.{}.d{DEPTH}", swept.name);
        six::sweep(&mut f, &prefix, stage, DEPTH, swept.values, swept.set);
        for &value in swept.values {
            let mut p = params;
            (swept.set)(&mut p, value);
            let lines = iterations(WAC23_FEN, stage, p, WAC23_DEPTH);
            f.add(
                &format!("ch13.sweep.{}.v{value}.wac23.depth", swept.name),
                settled_on(&lines, WAC23_SOLUTION).map_or(0, |l| l.depth),
            );
        }
        if swept.name == "aspiration_delta" {
            for &value in swept.values {
                let mut p = params;
                (swept.set)(&mut p, value);
                let total = six::total(&six::six_with(stage, p, DEPTH));
                f.add(
                    &format!("{prefix}.v{value}.researches"),
                    total.aspiration_researches,
                );
            }
        }
    }

    for (name, off) in WAC23_RUNS {
        let lines = iterations(WAC23_FEN, stage13_without(off), params, WAC23_DEPTH);
        let last = lines
            .last()
            .expect("a depth-limited search completes depth 1");
        let prefix = format!("ch13.wac23.{name}");
        let settled = settled_on(&lines, WAC23_SOLUTION);
        f.add(&format!("{prefix}.nodes"), last.nodes)
            .add(&format!("{prefix}.score"), last.score.as_str())
            .add(&format!("{prefix}.pv"), last.pv.as_str())
            .add(
                &format!("{prefix}.found.depth"),
                settled.map_or(0, |l| l.depth),
            )
            .add(
                &format!("{prefix}.found.nodes"),
                settled.map_or(0, |l| l.nodes),
            )
            .add(
                &format!("{prefix}.found.score"),
                settled.map_or("-".to_string(), |l| l.score.clone()),
            )
            .add(
                &format!("{prefix}.found.pv"),
                settled.map_or("-".to_string(), |l| l.pv.clone()),
            );
    }
    f
}

fn print_tables() {
    for switch in SWITCHES {
        let comparison = OnOff::measure(switch, DEPTH);
        comparison.print();
        let on = comparison.total_on();
        println!(
            "rfp cutoffs {}, futility prunes {}, aspiration re-searches {} (switch on)",
            on.rfp_cutoffs, on.futility_prunes, on.aspiration_researches
        );
    }
    for (name, off) in WAC23_RUNS {
        println!("\nWAC 23, {name}:");
        for l in iterations(
            WAC23_FEN,
            stage13_without(off),
            Params::DEFAULT,
            WAC23_DEPTH,
        ) {
            println!(
                "  depth {:>2} {:>9} nodes {:<6} {:<10} {}",
                l.depth, l.nodes, l.best, l.score, l.pv
            );
        }
    }
    println!();
    print!("{}", figures().to_yaml());
}
