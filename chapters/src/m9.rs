//! Milestone M9, singular extensions in the complete engine: the singular test's outcomes on
//! the six positions at stage M9 with the negative extension (`negext`) off and on, and bench
//! for the engine the games compare: the default one with and without chapter 14.1's
//! `singular`, M3's `multicut` and this milestone's `negext`.
//!
//! Pinned: the test's counts, the six positions' node counts and best moves, bench's node
//! counts. Measured (`cargo xtask measure m9`): bench's speed with the three off and on, timed
//! in turns.

use crate::six::{self, DEPTH, OnOff};
use crate::{Chapter, Figures};
use cb2026::bench;
use cb2026::search::SearchStats;
use cb2026::switches::{Stage, Switches};

/// Milestone M9 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "m9",
    title: "M9. Singular extensions, revisited",
    bin: "m9-singular-revisited",
    figures,
    measured: Some(measured),
    deep: None,
    print_tables,
};

/// The milestone's own switch.
const SWITCH: &str = "negext";

/// The worked position, one of bench's: Black to move after 1.d4 Nf6 2.c4, where the search
/// is deep enough for the singular test to run at many nodes.
pub const WORKED_FEN: &str = "rnbqkb1r/pppppppp/5n2/8/2PP4/8/PP2PPPP/RNBQKBNR b KQkq c3 0 2";

/// The worked position's search depth: deeper than the six's, so the test has more nodes of
/// the depth it needs.
const WORKED_DEPTH: u32 = 11;

/// Adds what the singular test found, under `m9.test.<what>.`.
fn add_outcomes(f: &mut Figures, what: &str, stats: &SearchStats) {
    let key = |rest: &str| format!("m9.test.{what}.{rest}");
    f.add(&key("searches"), stats.singular_searches)
        .add(&key("singular"), stats.singular_extensions)
        .add(&key("multicuts"), stats.multicuts)
        .add(&key("negative"), stats.negative_extensions);
}

/// The pinned figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("m9");
    let comparison = OnOff::measure(SWITCH, DEPTH);
    add_outcomes(&mut f, "off", &comparison.total_off());
    add_outcomes(&mut f, "on", &comparison.total_on());
    let without_negext = Switches {
        negext: false,
        ..engine(true)
    };
    add_outcomes(&mut f, "bench_off", &bench_stats(without_negext));
    let with_all = bench_stats(engine(true));
    add_outcomes(&mut f, "bench_on", &with_all);
    f.add("m9.test.bench_on.nodes", with_all.nodes);
    add_worked(&mut f);
    six::add_switch_figures(&mut f, "m9", SWITCH, engine);
    f
}

/// The worked position searched at stage M9 with the switch off and on: what the singular
/// test found, the nodes, and the move and score of the last iteration.
fn add_worked(f: &mut Figures) {
    let mut nodes = [0; 2];
    for on in [false, true] {
        let state = if on { "on" } else { "off" };
        let mut searcher = six::searcher(six::at_own_stage(SWITCH, on));
        let (stats, _, iterations) =
            six::search(&mut searcher, WORKED_FEN, WORKED_DEPTH, &|_| false);
        let last = iterations.last().expect("a search to depth 1 or more");
        nodes[usize::from(on)] = stats.nodes;
        add_outcomes(f, &format!("worked_{state}"), &stats);
        f.add(&format!("m9.worked.{state}.nodes"), stats.nodes)
            .add(&format!("m9.worked.{state}.best"), last.best_move.as_str())
            .add(&format!("m9.worked.{state}.score"), last.score.as_str());
    }
    f.add("m9.worked.depth", WORKED_DEPTH)
        .add("m9.worked.change_pct", six::change_pct(nodes[1], nodes[0]));
}

/// bench's searches with `switches`, their counters added up: the same nodes `bench` counts.
pub fn bench_stats(switches: Switches) -> SearchStats {
    bench::run(bench::DEFAULT_DEPTH, switches, &mut std::io::sink())
        .expect("writing to a sink cannot fail")
        .stats
}

/// The default engine as it shipped after M9, with the singular extension, multi-cut and the
/// negative extension all on, or all as shipped then (off): the two engines of the milestone's
/// games.
fn engine(on: bool) -> Switches {
    Switches {
        singular: on,
        multicut: on,
        negext: on,
        ..Switches::shipped_after(Stage::Milestone(9))
    }
}

/// The measured figures: bench's speed with the three off and on, timed in turns.
pub fn measured() -> Figures {
    six::bench_speed_off_on("m9", engine)
}

fn print_tables() {
    OnOff::measure(SWITCH, DEPTH).print();
    println!();
    print!("{}", figures().to_yaml());
}
