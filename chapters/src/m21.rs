//! Milestone M21, skipping the quiet moves: bench and the six positions with the switch
//! `skipquiets` off and on (the same nodes, the same moves: the skip changes only the work a
//! node does), how many quiet moves late move pruning met and threw away with the switch off
//! and how many with it on, and bench's speed off and on.
//!
//! Pinned: the node counts, the counts of late move pruning and of the skips. Measured
//! (`cargo xtask measure m21`): bench's speed, the switch off and on, timed in turns.

use crate::m9::bench_stats;
use crate::six::{self, DEPTH, OnOff};
use crate::{Chapter, Figure, Figures};
use cb2026::search::SearchStats;
use cb2026::switches::{Stage, Switches};

/// Milestone M21 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "m21",
    title: "M21. Skipping the quiet moves",
    bin: "m21-skipping-quiets",
    figures,
    measured: Some(measured),
    deep: None,
    print_tables,
};

/// The milestone's one switch.
const SWITCH: &str = "skipquiets";

/// The default engine as it shipped after M20, with the switch as given: the two engines of
/// the milestone's games.
fn engine(skipquiets: bool) -> Switches {
    Switches {
        skipquiets,
        ..Switches::shipped_after(Stage::Milestone(20))
    }
}

/// Adds what late move pruning did in `stats` under `m21.<what>.`: the nodes, the quiet moves
/// it met and pruned, the nodes where it told the picker to stop, and the moves generated
/// (the same either way: the skip generates what it skips).
fn add_pruning(f: &mut Figures, what: &str, stats: &SearchStats) {
    let key = |rest: &str| format!("m21.{what}.{rest}");
    f.add(&key("nodes"), stats.nodes)
        .add(&key("lmp_prunes"), stats.lmp_prunes)
        .add(&key("quiet_skips"), stats.quiet_skips)
        .add(&key("moves_generated"), stats.moves_generated);
}

/// The pinned figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("m21");
    let (off, on) = (bench_stats(engine(false)), bench_stats(engine(true)));
    add_pruning(&mut f, "bench_off", &off);
    add_pruning(&mut f, "bench_on", &on);
    let thrown_away = off.lmp_prunes - on.lmp_prunes;
    f.add("m21.bench.moves_not_handed_out", thrown_away).add(
        "m21.bench.moves_not_handed_out_per_skip",
        Figure::fixed(thrown_away as f64 / on.quiet_skips as f64, 1),
    );
    six::add_switch_figures(&mut f, "m21", SWITCH, engine);
    f
}

/// The measured figures: bench's speed with the switch off and on, timed in turns.
pub fn measured() -> Figures {
    six::bench_speed_off_on("m21", engine)
}

fn print_tables() {
    OnOff::measure(SWITCH, DEPTH).print();
    println!();
    print!("{}", figures().to_yaml());
}
