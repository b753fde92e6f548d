//! bench is the engine's signature: its node count depends only on the search, not on the order
//! of the positions, on what ran before, or on the run. (Shallow depth here: the property does
//! not depend on depth, and `cargo test` must stay fast.)

use cb2026::bench;
use cb2026::switches::Switches;
use std::io;

const DEPTH: u32 = 4;

fn run(fens: &[&str], switches: Switches) -> bench::BenchResult {
    bench::run_positions(fens, DEPTH, switches, &mut io::sink()).expect("writing to a sink")
}

#[test]
fn bench_counts_the_same_twice_and_in_any_order() {
    let fens = bench::positions();
    let first = run(&fens, Switches::default());
    let second = run(&fens, Switches::default());
    assert_eq!(first.nodes_per_position, second.nodes_per_position);
    assert!(first.nodes > 10_000, "{}", first.nodes);

    let reversed: Vec<&str> = fens.iter().rev().copied().collect();
    let mut backwards = run(&reversed, Switches::default()).nodes_per_position;
    backwards.reverse();
    assert_eq!(backwards, first.nodes_per_position);
}

#[test]
fn bench_tells_buckets_on_from_off() {
    // At bench's own depth: M3's pruning keeps the shallow trees too small to fill a table.
    let fens = bench::positions();
    let full = |switches| {
        bench::run_positions(&fens, bench::DEFAULT_DEPTH, switches, &mut io::sink())
            .expect("writing to a sink")
    };
    let off = full(Switches::default());
    let buckets = Switches {
        ttbuckets: true,
        ..Switches::default()
    };
    let on = full(buckets);
    assert_ne!(off.nodes, on.nodes);
}

#[test]
fn bench_writes_a_line_per_position_and_the_openbench_line() {
    let fens = &bench::positions()[..3];
    let mut out = Vec::new();
    let result = bench::run_positions(fens, 3, Switches::default(), &mut out).expect("in memory");
    let text = String::from_utf8(out).expect("utf-8");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4);
    assert!(lines[0].starts_with("position  1:") && lines[0].contains(fens[0]));
    let last: Vec<&str> = lines[3].split(' ').collect();
    assert_eq!(last.len(), 4);
    assert_eq!(
        (last[0].parse::<u64>(), last[1], last[3]),
        (Ok(result.nodes), "nodes", "nps")
    );
}
