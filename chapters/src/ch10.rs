//! Chapter 10, principal variation search, and 10.1, nodes are not Elo: the six positions with
//! null windows after the first move (`pvs` on) and with the full window for every move (off),
//! at depth 8; how many of the null-window searches at PV nodes had to be repeated; and the
//! worked position (chapter 9's), iteration by iteration with `pvs` on and off, to depth 8
//! (pinned) and depth 9 (`cargo xtask measure ch10`, rechecked in CI).

use crate::ch09::{WORKED_FEN, lines};
use crate::six::{DEPTH, OnOff, at_own_stage, change_pct};
use crate::{Chapter, Figure, Figures};
use cb2026::search::pruning::Params;

/// Chapter 10 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "ch10",
    title: "Principal variation search",
    bin: "ch10-pvs",
    figures,
    measured: Some(measured),
    deep: Some(measured),
    print_tables,
};

/// The worked position's deeper search: about thirty million nodes for both runs, so
/// measured, not pinned (a release build rechecks it in well under a minute).
const DEEP: u32 = 9;

/// Chapter 10's cheap figures: the comparison at [`DEPTH`], the null-window counters, and the
/// worked position's iterations.
pub fn figures() -> Figures {
    let mut f = Figures::new("ch10");
    let comparison = OnOff::measure("pvs", DEPTH);
    comparison.add_nodes(&mut f, "ch10");
    comparison.add_moves(&mut f, "ch10");
    comparison.add_on_larger(&mut f, "ch10");
    let (on, off) = (comparison.total_on(), comparison.total_off());
    f.add(&comparison.key("ch10", "six.on.scouts"), on.pvs_scouts)
        .add(
            &comparison.key("ch10", "six.on.researches"),
            on.pvs_researches,
        )
        .add(
            &comparison.key("ch10", "six.on.research_pct"),
            Figure::percent(on.pvs_researches, on.pvs_scouts, 1),
        )
        .add(
            &comparison.key("ch10", "six.on.first_pct"),
            Figure::percent(on.first_move_cutoffs, on.beta_cutoffs, 1),
        )
        .add(
            &comparison.key("ch10", "six.off.first_pct"),
            Figure::percent(off.first_move_cutoffs, off.beta_cutoffs, 1),
        );
    add_worked(&mut f, "ch10.worked", DEPTH, true);
    f
}

/// The worked position searched to `depth` with `pvs` on and off: with `every` each
/// iteration's cumulative nodes, best move and score and the change of the count, else the last
/// iteration's; the null-window counters with `pvs` on.
fn add_worked(f: &mut Figures, prefix: &str, depth: u32, every: bool) {
    let run = |on: bool| lines(at_own_stage("pvs", on), Params::DEFAULT, WORKED_FEN, depth);
    let ((on_stats, on_lines), (_, off_lines)) = (run(true), run(false));
    for (on, off) in on_lines.iter().zip(off_lines.iter()) {
        if !every && on.depth < depth {
            continue;
        }
        for (state, line) in [("on", on), ("off", off)] {
            let key = |rest: &str| format!("{prefix}.d{}.{state}.{rest}", line.depth);
            f.add(&key("nodes"), line.nodes)
                .add(&key("best"), line.best())
                .add(&key("score"), line.score.as_str());
        }
        f.add(
            &format!("{prefix}.d{}.change_pct", on.depth),
            change_pct(on.nodes, off.nodes),
        );
        if on.depth == depth {
            f.add(&format!("{prefix}.d{depth}.on.pv"), on.pv.as_str())
                .add(&format!("{prefix}.d{depth}.off.pv"), off.pv.as_str());
        }
    }
    f.add(&format!("{prefix}.d{depth}.on.scouts"), on_stats.pvs_scouts)
        .add(
            &format!("{prefix}.d{depth}.on.researches"),
            on_stats.pvs_researches,
        );
}

/// The worked position at [`DEEP`], stored under `ch10.measured.*`.
pub fn measured() -> Figures {
    let mut f = Figures::new("ch10");
    add_worked(&mut f, "ch10.measured.worked", DEEP, false);
    f
}

fn print_tables() {
    OnOff::measure("pvs", DEPTH).print();
    for (state, on) in [("on", true), ("off", false)] {
        println!("\nthe worked position, pvs {state}: {WORKED_FEN}");
        let (stats, lines) = lines(at_own_stage("pvs", on), Params::DEFAULT, WORKED_FEN, DEPTH);
        for line in lines {
            println!(
                "d{:<2} {:>9} {:>9}  {}",
                line.depth, line.nodes, line.score, line.pv
            );
        }
        println!(
            "null-window searches at PV nodes {}, re-searched {}",
            stats.pvs_scouts, stats.pvs_researches
        );
    }
    println!();
    print!("{}", figures().to_yaml());
}
