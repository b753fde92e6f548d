//! Search speed in nodes per second (`cargo bench -p cb2026 --bench search`).
//!
//! Three bench positions (an opening, a middlegame, an endgame) searched to a fixed depth from
//! a cleared table, as bench does. The node count of each search is fixed (the search is
//! deterministic), so criterion's throughput, in "elements" per second, is nodes per second.

use cb2026::bench;
use cb2026::position::Position;
use cb2026::search::Searcher;
use criterion::{BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;

/// Bench positions by index in `data/suites/bench-50.csv`, and the depth each is searched to.
const CASES: [(&str, usize, u32); 3] =
    [("opening", 46, 9), ("middlegame", 6, 8), ("endgame", 4, 12)];

fn search_nps(c: &mut Criterion) {
    let fens = bench::positions();
    let mut group = c.benchmark_group("search");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    let mut searcher = Searcher::new(bench::HASH_MB);
    for (name, index, depth) in CASES {
        let pos = Position::from_fen(fens[index]).expect("bench FENs are valid");
        searcher.clear();
        let nodes = searcher.search_depth(&pos, depth).stats.nodes;
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(BenchmarkId::new(name, depth), &pos, |b, pos| {
            b.iter(|| {
                searcher.clear();
                black_box(searcher.search_depth(pos, depth).stats.nodes)
            });
        });
    }
    group.finish();
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    search_nps(&mut criterion);
    criterion.final_summary();
}
