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
    six::add_switch_figures(&mut f, "m9", SWITCH, engine);
    f
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
