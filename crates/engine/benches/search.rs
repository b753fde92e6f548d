//! Search speed in nodes per second (`cargo bench -p cb2026 --bench search`).
//!
//! Three bench positions (an opening, a middlegame, an endgame) searched to a fixed depth from
//! a cleared table, as bench does. The node count of each search is fixed (the search is
//! deterministic), so criterion's throughput, in "elements" per second, is nodes per second.
//!
//! Group `touch` (M5's switch `tttouch`): the same searches in a 256 MB table, far larger than
//! the caches, with the child's slots touched after each move and without; the node counts are
//! the same, so the times compare directly.

use cb2026::bench;
use cb2026::position::Position;
use cb2026::search::Searcher;
use cb2026::switches::Switches;
use criterion::{BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;

/// Searches `pos` to `depth` from an empty table, as bench does: the nodes it took.
fn search_from_empty(searcher: &mut Searcher, pos: &Position, depth: u32) -> u64 {
    searcher.clear();
    searcher.search_depth(pos, depth).stats.nodes
}

fn search_nps(c: &mut Criterion) {
    let fens = bench::positions();
    let mut group = c.benchmark_group("search");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    let mut searcher = Searcher::new(bench::HASH_MB);
    for (name, index, depth) in bench::TIMED_SEARCHES {
        let pos = Position::from_fen(fens[index]).expect("bench FENs are valid");
        let nodes = search_from_empty(&mut searcher, &pos, depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(BenchmarkId::new(name, depth), &pos, |b, pos| {
            b.iter(|| black_box(search_from_empty(&mut searcher, pos, depth)));
        });
    }
    group.finish();
}

/// The table of the `touch` group: far larger than any cache, so that most probes miss them.
const TOUCH_HASH_MB: usize = 256;

/// The `touch` group's searches: deep enough (about a second each) that emptying the large
/// table before each is a small part of the time.
const TOUCH_CASES: [(&str, usize, u32); 3] = [
    ("opening", 46, 15),
    ("middlegame", 6, 13),
    ("endgame", 4, 22),
];

fn touch(c: &mut Criterion) {
    let fens = bench::positions();
    let mut group = c.benchmark_group("touch");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    let mut searcher = Searcher::new(TOUCH_HASH_MB);
    for (name, index, depth) in TOUCH_CASES {
        let pos = Position::from_fen(fens[index]).expect("bench FENs are valid");
        for on in [false, true] {
            searcher.set_switches(Switches {
                tttouch: on,
                ..Switches::default()
            });
            let nodes = search_from_empty(&mut searcher, &pos, depth);
            group.throughput(Throughput::Elements(nodes));
            let id = BenchmarkId::new(format!("{name}-d{depth}"), if on { "on" } else { "off" });
            group.bench_with_input(id, &pos, |b, pos| {
                b.iter(|| black_box(search_from_empty(&mut searcher, pos, depth)));
            });
        }
    }
    group.finish();
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    search_nps(&mut criterion);
    touch(&mut criterion);
    criterion.final_summary();
}
