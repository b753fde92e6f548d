//! Milestone M12, small gains added up: what a sequential test does with a feature worth a few
//! Elo, worked out from the games of the four candidates M4, M9, M10 and M11 left undecided,
//! and the one engine that carries all of them.
//!
//! Pinned: the candidates' pooled pair variance, the forecast of the test [0, 10] at several
//! true differences, the sum of the candidates' estimates, and bench with the candidates off
//! and on. The games themselves are `games.<name>.*` keys, read from their records.

use crate::m9::bench_stats;
use crate::records;
use crate::{Chapter, Figure, Figures};
use arena::stats::{Pentanomial, SprtParams, elo_pentanomial};
use cb2026::switches::Switches;

/// Milestone M12 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "m12",
    title: "M12. Small gains, added up",
    bin: "m12-small-gains",
    figures,
    measured: None,
    deep: None,
    print_tables,
};

// ANCHOR: candidates
/// The undecided candidates: each record's name and the switches its first engine turned on.
/// Each was tested alone against the default engine and ended without a verdict, its estimate
/// a few Elo above zero.
pub const CANDIDATES: [(&str, &[&str]); 4] = [
    ("m4-timeplus", &["timeplus"]),
    ("m9-singular", &["singular", "multicut", "negext"]),
    ("m10-teacher", &["teacher"]),
    ("m11-nulleval", &["nulleval"]),
];
// ANCHOR_END: candidates

/// The test every milestone runs: H0 0 Elo against H1 10 Elo, 5 % errors both ways.
const TEST: SprtParams = SprtParams {
    elo0: 0.0,
    elo1: 10.0,
    alpha: 0.05,
    beta: 0.05,
};

/// The true differences the forecast table shows.
const FORECAST_ELO: [u32; 6] = [0, 5, 10, 15, 20, 25];

/// The pinned figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("m12");
    let pooled = add_candidates(&mut f);
    let variance = pooled.pair_variance().expect("the candidates played games");
    f.add("m12.pair_variance", Figure::fixed(variance, 4));
    for elo in FORECAST_ELO {
        let forecast = TEST.forecast(f64::from(elo), variance);
        let key = |rest: &str| format!("m12.forecast.e{elo}.{rest}");
        f.add(
            &key("pass_pct"),
            Figure::fixed(100.0 * forecast.pass_probability, 1),
        )
        .add(
            &key("games"),
            (2.0 * forecast.expected_pairs).round() as u64,
        );
    }
    for (state, on) in [("off", false), ("on", true)] {
        f.add(
            &format!("m12.bench.{state}.nodes"),
            bench_stats(engine(on)).nodes,
        );
    }
    f
}

/// Adds the candidates' games in all and the sum of their estimates with the error of a sum of
/// independent estimates (the root of the summed squares); returns their pooled game pairs.
fn add_candidates(f: &mut Figures) -> Pentanomial {
    let mut pooled = Pentanomial::default();
    let (mut elo_sum, mut variance_sum, mut games) = (0.0, 0.0, 0);
    for (name, _) in CANDIDATES {
        let counts = records::load(name).counts;
        let pairs = counts.pentanomial();
        let estimate = elo_pentanomial(&pairs).expect("a candidate played games");
        for (pooled, count) in pooled.0.iter_mut().zip(pairs.0) {
            *pooled += count;
        }
        games += counts.games;
        elo_sum += estimate.elo;
        variance_sum += estimate.error.powi(2);
    }
    f.add("m12.candidates.games", games)
        .add("m12.candidates.elo_sum", Figure::fixed(elo_sum, 1))
        .add(
            "m12.candidates.elo_sum_error",
            Figure::fixed(variance_sum.sqrt(), 1),
        );
    pooled
}

/// The default engine as it shipped before this milestone, with every candidate's switches as
/// given: the two engines of the games.
pub fn engine(on: bool) -> Switches {
    let mut switches = crate::engine_before_m12();
    for (_, names) in CANDIDATES {
        for name in names {
            switches.set(name, on).expect("a candidate names a switch");
        }
    }
    switches
}

fn print_tables() {
    print!("{}", figures().to_yaml());
}
