//! What Evaluation II costs (`cargo bench -p cb2026 --bench eval`; chapter 18).
//!
//! Group `eval`: one iteration evaluates every position of bench's fifty
//! (`data/suites/bench-50.csv`) once, with
//! - `chapter6`: chapter 6's evaluation, summed from scratch at every call;
//! - `eval2`: Evaluation II as the search calls it, material and tables read from the running
//!   sum make-move keeps, pawn structure from a pawn table that already holds the fifty
//!   structures (in a search about nineteen lookups in twenty hit);
//! - `eval2_scratch`: Evaluation II computed from scratch, no running sum, no pawn table;
//! - `psq_running` and `psq_scratch`: material and tables alone, read from the running sum and
//!   summed over the pieces, the saving the running sum buys at every evaluation.
//!
//! Group `nps`: three bench positions searched to a fixed depth from an empty table by the
//! engine cb2026 ships, with Evaluation II (`eval2`) and with chapter 6's evaluation
//! (`chapter6`). The trees differ (another evaluation cuts off elsewhere), so each search's
//! node count, fixed for the search, makes criterion's throughput nodes per second.

use cb2026::bench;
use cb2026::eval::{self, Tapered};
use cb2026::eval2::{self, KING_DANGER, PawnTable, WEIGHTS, WeightSet};
use cb2026::position::Position;
use cb2026::search::Searcher;
use cb2026::switches::Switches;
use criterion::{BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;

fn bench_positions() -> Vec<Position> {
    bench::positions()
        .iter()
        .map(|fen| Position::from_fen(fen).expect("bench FENs are valid"))
        .collect()
}

fn evaluations(c: &mut Criterion) {
    let positions = bench_positions();
    let mut group = c.benchmark_group("eval");
    group.throughput(Throughput::Elements(positions.len() as u64));
    let set = WeightSet::HandSet;
    let mut pawns = PawnTable::new();
    for pos in &positions {
        eval2::evaluate(pos, &mut pawns, set, &KING_DANGER);
    }
    group.bench_function("chapter6", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| eval::evaluate(black_box(p)))
                .sum::<i32>()
        })
    });
    group.bench_function("eval2", |b| {
        b.iter(|| {
            let evaluate =
                |p: &Position| eval2::evaluate(black_box(p), &mut pawns, set, &KING_DANGER);
            positions.iter().map(evaluate).sum::<i32>()
        })
    });
    group.bench_function("eval2_scratch", |b| {
        b.iter(|| {
            let evaluate =
                |p: &Position| eval2::evaluate_with(black_box(p), &WEIGHTS, &KING_DANGER);
            positions.iter().map(evaluate).sum::<i32>()
        })
    });
    // Both halves summed, so that neither read can be skipped.
    let both = |t: Tapered| t.mg + t.eg;
    group.bench_function("psq_running", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| both(black_box(p).psq(set).tapered()))
                .sum::<i32>()
        })
    });
    group.bench_function("psq_scratch", |b| {
        b.iter(|| {
            let scratch = |p: &Position| both(black_box(p).psq_from_scratch(set).tapered());
            positions.iter().map(scratch).sum::<i32>()
        })
    });
    group.finish();
}

fn nodes_per_second(c: &mut Criterion) {
    let fens = bench::positions();
    let mut group = c.benchmark_group("nps");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    let mut searcher = Searcher::new(bench::HASH_MB);
    for (name, index, depth) in bench::TIMED_SEARCHES {
        let pos = Position::from_fen(fens[index]).expect("bench FENs are valid");
        for (evaluation, eval2) in [("chapter6", false), ("eval2", true)] {
            searcher.set_switches(Switches {
                eval2,
                ..Switches::default()
            });
            let search = |searcher: &mut Searcher| {
                searcher.clear();
                searcher.search_depth(&pos, depth).stats.nodes
            };
            group.throughput(Throughput::Elements(search(&mut searcher)));
            let id = BenchmarkId::new(format!("{name}-d{depth}"), evaluation);
            group.bench_function(id, |b| b.iter(|| black_box(search(&mut searcher))));
        }
    }
    group.finish();
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    evaluations(&mut criterion);
    nodes_per_second(&mut criterion);
    criterion.final_summary();
}
