//! Milestone M19, reductions II: quiet checks reduced (`lmrchecks`), losing captures reduced
//! (`lmrnoisy`), and quiet moves reduced a ply more where the hash move is noisy (`ttnoisy`).
//! bench's counters for the engine as it shipped after M18 with none of them, each alone and
//! all three; and the six positions at stage M19 with each switch off and on.
//!
//! Pinned: bench's nodes and reduction counts in the five engines, the six positions' node
//! counts and best moves.

use crate::m9::bench_stats;
use crate::six::{self, DEPTH, OnOff, change_pct};
use crate::{Chapter, Figure, Figures};
use cb2026::search::SearchStats;
use cb2026::switches::{Stage, Switches};

/// Milestone M19 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "m19",
    title: "M19. Reductions II",
    bin: "m19-reductions-ii",
    figures,
    measured: None,
    deep: None,
    print_tables,
};

/// The milestone's three switches.
const SWITCHES: [&str; 3] = ["lmrchecks", "lmrnoisy", "ttnoisy"];

/// The default engine as it shipped after M18, with M19's switches as given: all three on is
/// the engine the milestone's games tried, none the one it played against.
fn engine([checks, noisy, tt_noisy]: [bool; 3]) -> Switches {
    Switches {
        lmrchecks: checks,
        lmrnoisy: noisy,
        ttnoisy: tt_noisy,
        ..Switches::shipped_after(Stage::Milestone(18))
    }
}

/// The five engines bench compares: none of the switches, each alone, all three.
const ENGINES: [(&str, [bool; 3]); 5] = [
    ("none", [false, false, false]),
    ("checks", [true, false, false]),
    ("noisy", [false, true, false]),
    ("ttnoisy", [false, false, true]),
    ("all", [true, true, true]),
];

/// The worked position, Win at Chess no. 5 (`data/suites/wac.epd`): Black wins with a quiet
/// check, Qc4+. Its solution, and the depth it is searched to.
pub const WORKED_FEN: &str = "5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1";
const WORKED_SOLUTION: &str = "c6c4";
const WORKED_DEPTH: u32 = 12;

/// Adds the worked position's search with the engine of the games, M19's switches all off
/// and all on: the best move and score at the last depth, the nodes in all, and the first
/// depth whose best move is the solution, with the nodes searched until it was found.
fn add_worked(f: &mut Figures) {
    for (state, on) in [("off", false), ("on", true)] {
        let mut searcher = six::searcher(engine([on; 3]));
        let (stats, _, iterations) =
            six::search(&mut searcher, WORKED_FEN, WORKED_DEPTH, &|_| false);
        let last = iterations.last().expect("a search to depth 1 or more");
        let key = |rest: &str| format!("m19.worked.{state}.{rest}");
        f.add(&key("best"), last.best_move.as_str())
            .add(&key("score"), last.score.as_str())
            .add(&key("nodes"), stats.nodes);
        // The first iteration from which the solution stays the best move to the end.
        let settled = iterations
            .iter()
            .rposition(|i| i.best_move != WORKED_SOLUTION)
            .map_or(0, |unsettled| unsettled + 1);
        if let Some(found) = iterations.get(settled) {
            f.add(&key("found_depth"), found.depth)
                .add(&key("found_nodes"), found.cumulative_nodes);
        }
    }
    f.add("m19.worked.depth", WORKED_DEPTH)
        .add("m19.worked.solution", WORKED_SOLUTION);
}

/// Adds what the reductions did in `stats` under `m19.<what>.`.
fn add_reductions(f: &mut Figures, what: &str, stats: &SearchStats) {
    let key = |rest: &str| format!("m19.{what}.{rest}");
    f.add(&key("nodes"), stats.nodes)
        .add(&key("reductions"), stats.lmr_reductions)
        .add(&key("researches"), stats.lmr_researches)
        .add(
            &key("research_pct"),
            Figure::percent(stats.lmr_researches, stats.lmr_reductions, 1),
        )
        .add(&key("reduced_checks"), stats.reduced_checks)
        .add(&key("reduced_bad_noisy"), stats.reduced_bad_noisy)
        .add(&key("tt_noisy_reductions"), stats.tt_noisy_reductions)
        .add(&key("check_extensions"), stats.check_extensions);
}

/// The pinned figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("m19");
    let none = bench_stats(engine([false; 3])).nodes;
    for (name, switches) in ENGINES {
        let stats = bench_stats(engine(switches));
        add_reductions(&mut f, &format!("bench.{name}"), &stats);
        if name != "none" {
            f.add(
                &format!("m19.bench.{name}.change_pct"),
                change_pct(stats.nodes, none),
            );
        }
    }
    for switch in SWITCHES {
        let comparison = OnOff::measure(switch, DEPTH);
        comparison.add_nodes(&mut f, "m19");
        comparison.add_moves(&mut f, "m19");
    }
    add_worked(&mut f);
    f.add("m19.depth", DEPTH)
        .add("m19.stage", Stage::Milestone(19).to_string());
    f
}

fn print_tables() {
    for switch in SWITCHES {
        OnOff::measure(switch, DEPTH).print();
    }
    println!();
    print!("{}", figures().to_yaml());
}
