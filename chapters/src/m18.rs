//! Milestone M18, an evaluation cache: bench and the six positions with the switch `evalcache`
//! off and on (the same nodes, the same moves: the cache changes only the time), how many
//! evaluations the cache answered, and bench's speed with it off and on.
//!
//! Pinned: the node counts, the cache's probes and hits, its size. Measured (`cargo xtask
//! measure m18`): bench's speed, the switch off and on, timed in turns.

use crate::m9::bench_stats;
use crate::six::{self, DEPTH, OnOff};
use crate::{Chapter, Figure, Figures};
use cb2026::search::SearchStats;
use cb2026::search::evalcache::EVAL_CACHE_BITS;
use cb2026::switches::{Stage, Switches};

/// Milestone M18 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "m18",
    title: "M18. An evaluation cache",
    bin: "m18-evaluation-cache",
    figures,
    measured: Some(measured),
    deep: None,
    print_tables,
};

/// The milestone's one switch.
const SWITCH: &str = "evalcache";

/// The default engine as it shipped after M17, with the switch as given: the two engines of
/// the milestone's games.
fn engine(evalcache: bool) -> Switches {
    Switches {
        evalcache,
        ..Switches::shipped_after(Stage::Milestone(17))
    }
}

/// Adds the cache's counters of `stats` under `m18.<what>.`.
fn add_cache(f: &mut Figures, what: &str, stats: &SearchStats) {
    let key = |rest: &str| format!("m18.{what}.{rest}");
    f.add(&key("nodes"), stats.nodes)
        .add(&key("probes"), stats.eval_cache_probes)
        .add(&key("hits"), stats.eval_cache_hits);
    if stats.eval_cache_probes > 0 {
        f.add(
            &key("hit_pct"),
            Figure::percent(stats.eval_cache_hits, stats.eval_cache_probes, 1),
        );
    }
}

/// The pinned figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("m18");
    f.add("m18.slots", 1u64 << EVAL_CACHE_BITS)
        .add("m18.kilobytes", (8u64 << EVAL_CACHE_BITS) / 1024);
    add_cache(&mut f, "bench_off", &bench_stats(engine(false)));
    add_cache(&mut f, "bench_on", &bench_stats(engine(true)));
    let comparison = OnOff::measure(SWITCH, DEPTH);
    add_cache(&mut f, "six_on", &comparison.total_on());
    six::add_switch_figures(&mut f, "m18", SWITCH, engine);
    f
}

/// The measured figures: bench's speed with the switch off and on, timed in turns.
pub fn measured() -> Figures {
    six::bench_speed_off_on("m18", engine)
}

fn print_tables() {
    OnOff::measure(SWITCH, DEPTH).print();
    println!();
    print!("{}", figures().to_yaml());
}
