//! Milestone M11, a null move that reads the evaluation: the null-move searches of the six
//! positions at stage M11 with `nulleval` off and on, bench for the two engines the games
//! compare, and one position where the larger reduction decides.
//!
//! Pinned: the null-move counts and the extra plies, the six positions' node counts and best
//! moves, bench's node counts and counters, the worked position's searches.

use crate::m9::bench_stats;
use crate::six::{self, DEPTH, OnOff};
use crate::{Chapter, Figure, Figures};
use cb2026::search::SearchStats;
use cb2026::switches::{Stage, Switches};

/// Milestone M11 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "m11",
    title: "M11. A null move that reads the evaluation",
    bin: "m11-null-move-eval",
    figures,
    measured: None,
    deep: None,
    print_tables,
};

/// The milestone's one switch.
const SWITCH: &str = "nulleval";

/// The worked position: bench's eighth, where the two engines part at depth 12 (see the page).
const WORKED_FEN: &str = "3r3k/2r4p/1p1b3q/p4P2/P2Pp3/1B2P3/3BQ1RP/6K1 w - - 3 87";

/// The depth of the worked position's searches: deep enough for the reduction to act often.
const WORKED_DEPTH: u32 = 12;

/// Adds the null-move counters of `stats` under `m11.null.<what>.`.
fn add_null_moves(f: &mut Figures, what: &str, stats: &SearchStats) {
    let key = |rest: &str| format!("m11.null.{what}.{rest}");
    f.add(&key("tries"), stats.null_tries)
        .add(&key("cutoffs"), stats.null_cutoffs)
        .add(
            &key("cutoff_pct"),
            Figure::percent(stats.null_cutoffs, stats.null_tries, 1),
        )
        .add(&key("extra_plies"), stats.null_eval_plies)
        .add(&key("nodes"), stats.nodes);
}

/// The pinned figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("m11");
    let comparison = OnOff::measure(SWITCH, DEPTH);
    add_null_moves(&mut f, "six_off", &comparison.total_off());
    add_null_moves(&mut f, "six_on", &comparison.total_on());
    add_null_moves(&mut f, "bench_off", &bench_stats(engine(false)));
    add_null_moves(&mut f, "bench_on", &bench_stats(engine(true)));
    six::add_switch_figures(&mut f, "m11", SWITCH, engine);
    add_worked(&mut f);
    f
}

/// The worked position searched by the games' two engines, from an empty table.
fn add_worked(f: &mut Figures) {
    for (state, on) in [("off", false), ("on", true)] {
        let mut searcher = six::searcher(engine(on));
        let (stats, _, iterations) =
            six::search(&mut searcher, WORKED_FEN, WORKED_DEPTH, &|_| false);
        let last = iterations.last().expect("a search to depth 1 or more");
        let key = |rest: &str| format!("m11.worked.{state}.{rest}");
        f.add(&key("best"), last.best_move.as_str())
            .add(&key("score"), last.score.as_str())
            .add(&key("nodes"), stats.nodes)
            .add(&key("null_tries"), stats.null_tries)
            .add(&key("null_cutoffs"), stats.null_cutoffs)
            .add(&key("extra_plies"), stats.null_eval_plies);
    }
    f.add("m11.worked.depth", WORKED_DEPTH);
}

/// The default engine as it shipped after M11, with the switch as given: the two engines of
/// the milestone's games.
fn engine(nulleval: bool) -> Switches {
    Switches {
        nulleval,
        ..Switches::shipped_after(Stage::Milestone(11))
    }
}

fn print_tables() {
    OnOff::measure(SWITCH, DEPTH).print();
    println!();
    print!("{}", figures().to_yaml());
}
