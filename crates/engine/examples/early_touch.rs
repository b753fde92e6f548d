//! The early-touch experiment (M5): does loading a position's table line right after the move
//! that leads to it, before the search probes it, make the search faster?
//!
//! `cargo run --release -p cb2026 --example early_touch [ROUNDS] [MB]` searches bench's fifty
//! positions at bench's depth, each from an empty table, with the touch off and on in turns,
//! `ROUNDS` times (default 5), in a table of `MB` megabytes (default bench's 16), and prints the
//! median time of each and their ratio. The touch changes no node: the counts are checked equal.
//! Run it on an idle machine; the ratio, not the times, is the result.

use cb2026::bench;
use cb2026::measure::median_duration;
use cb2026::position::Position;
use cb2026::search::Searcher;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Searches every bench position; returns the nodes and the time.
fn run(searcher: &mut Searcher, positions: &[Position]) -> (u64, Duration) {
    let started = Instant::now();
    let mut nodes = 0;
    for pos in positions {
        searcher.clear();
        nodes += searcher.search_depth(pos, bench::DEFAULT_DEPTH).nodes;
    }
    (nodes, started.elapsed())
}

fn main() -> ExitCode {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let rounds = args.first().copied().unwrap_or(5).max(1);
    let mb = args.get(1).copied().unwrap_or(bench::HASH_MB);
    let positions: Vec<Position> = bench::positions()
        .iter()
        .map(|fen| Position::from_fen(fen).expect("bench's positions are valid"))
        .collect();
    let mut searchers = [Searcher::new(mb), Searcher::new(mb)];
    searchers[1].set_early_touch(true);
    let mut times: [Vec<Duration>; 2] = [Vec::new(), Vec::new()];
    let mut nodes = [0; 2];
    for round in 0..rounds {
        // Take turns at going first.
        for i in 0..2 {
            let which = (i + round) % 2;
            let (n, time) = run(&mut searchers[which], &positions);
            nodes[which] = n;
            times[which].push(time);
        }
    }
    if nodes[0] != nodes[1] {
        eprintln!("the touch changed the search: {} nodes off, {} on", nodes[0], nodes[1]);
        return ExitCode::FAILURE;
    }
    let [off, on] = [0, 1].map(|i| median_duration(&times[i]).as_secs_f64());
    println!(
        "{} nodes, {mb} MB, median of {rounds}: off {off:.3} s ({:.0} knps), on {on:.3} s ({:.0} knps), on/off {:.3}",
        nodes[0],
        nodes[0] as f64 / off / 1e3,
        nodes[0] as f64 / on / 1e3,
        on / off
    );
    ExitCode::SUCCESS
}
