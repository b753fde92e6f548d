//! Chapter 5, perft: the counts of the start position and Kiwipete, divide, what bulk counting
//! saves, and the community suite in `data/perft-standard.epd`.
//!
//! The speed against Stockfish is not measured here: `cargo xtask perf perft --store` measures
//! it and stores it in `snapshots/measured/ch05-perft-speed.yaml` (keys `ch05.perf.*`).

use crate::ch01::position;
use crate::ch02::{clock_name, load_average, time_medians};
use crate::ch03::fen;
use crate::{Chapter, Figure, Figures};
use cb2026::epd::{self, PerftEntry};
use cb2026::perft::{divide, perft};
use cb2026::position::Position;
use std::hint::black_box;

/// Chapter 5 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "ch05",
    title: "Perft",
    bin: "ch05-perft",
    figures,
    measured: Some(measured),
    deep: Some(deep),
    print_tables,
};

/// The community perft suite, as the tests and `cargo xtask perft` read it.
const SUITE: &str = include_str!("../../data/perft-standard.epd");

/// The largest published count that `cargo test` checks (`crates/engine/tests/perft_suite.rs`).
const TEST_MAX_NODES: u64 = 2_000_000;

/// The deepest start-position and Kiwipete counts pinned by the snapshot (cheap: a fraction
/// of a second each).
const STARTPOS_DEPTH: u32 = 5;
const KIWIPETE_DEPTH: u32 = 4;

/// The suite's lines, read as `cargo xtask perft` and the tests read them.
fn suite() -> Vec<PerftEntry> {
    epd::perft_suite(SUITE).expect("the perft suite is valid")
}

/// Chapter 5's cheap figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("ch05");
    let mut start = Position::startpos();
    let mut startpos_counts = Vec::new();
    for depth in 1..=STARTPOS_DEPTH {
        let nodes = perft(&mut start, depth);
        startpos_counts.push(nodes);
        f.add(&format!("ch05.startpos.d{depth}.nodes"), nodes);
    }
    let mut kiwipete = position(fen("kiwipete"));
    let mut kiwipete_counts = Vec::new();
    for depth in 1..=KIWIPETE_DEPTH {
        let nodes = perft(&mut kiwipete, depth);
        kiwipete_counts.push(nodes);
        f.add(&format!("ch05.kiwipete.d{depth}.nodes"), nodes);
    }
    let d4 = (KIWIPETE_DEPTH - 1) as usize;
    f.add(
        "ch05.kiwipete_over_startpos.d4",
        Figure::fixed(kiwipete_counts[d4] as f64 / startpos_counts[d4] as f64, 1),
    );

    // Divide at depth 4 from the start: the biggest and the smallest subtree.
    let split = divide(&mut start, 4);
    let (max_move, max_nodes) = *split.iter().max_by_key(|(_, n)| *n).expect("20 moves");
    let (min_move, min_nodes) = *split.iter().min_by_key(|(_, n)| *n).expect("20 moves");
    f.add("ch05.divide.startpos.d4.moves", split.len())
        .add("ch05.divide.startpos.d4.max_move", max_move.to_string())
        .add("ch05.divide.startpos.d4.max_nodes", max_nodes)
        .add("ch05.divide.startpos.d4.min_move", min_move.to_string())
        .add("ch05.divide.startpos.d4.min_nodes", min_nodes);

    // Moves made to count the start position to depth 5: with bulk counting, one per node
    // above the last ply; without, one per node of every ply.
    let leaves = *startpos_counts.last().expect("five counts");
    let made_with_bulk: u64 = startpos_counts[..startpos_counts.len() - 1].iter().sum();
    let made_without: u64 = startpos_counts.iter().sum();
    f.add("ch05.bulk.startpos.d5.made_with", made_with_bulk)
        .add("ch05.bulk.startpos.d5.made_without", made_without)
        .add(
            "ch05.bulk.startpos.d5.made_pct",
            Figure::percent(made_with_bulk, made_without, 1),
        )
        .add(
            "ch05.bulk.startpos.d5.leaves_pct",
            Figure::percent(leaves, made_without, 1),
        );

    let entries = suite();
    let counts: Vec<u64> = entries
        .iter()
        .flat_map(|entry| entry.counts.iter().map(|&(_, n)| n))
        .collect();
    let mut fens: Vec<&str> = entries.iter().map(|entry| entry.fen.as_str()).collect();
    fens.sort_unstable();
    fens.dedup();
    f.add("ch05.suite.lines", entries.len())
        .add("ch05.suite.positions", fens.len())
        .add("ch05.suite.counts", counts.len())
        .add(
            "ch05.suite.max_depth",
            entries
                .iter()
                .flat_map(|entry| entry.counts.iter().map(|&(d, _)| d))
                .max()
                .unwrap_or(0),
        )
        .add("ch05.suite.nodes", counts.iter().sum::<u64>())
        .add(
            "ch05.suite.test_counts",
            counts.iter().filter(|&&n| n <= TEST_MAX_NODES).count(),
        )
        .add(
            "ch05.suite.test_nodes",
            counts.iter().filter(|&&n| n <= TEST_MAX_NODES).sum::<u64>(),
        );
    f
}

/// What a perft does at its last ply, for the comparison of [`measured`].
#[derive(Clone, Copy, Debug)]
enum LastPly {
    /// Count the moves without listing them (what the engine's perft does).
    Count,
    /// List the moves and take the list's length.
    List,
    /// Make and unmake every move, counting the positions reached.
    Make,
}

/// Perft with make/unmake on a `Position`, finishing as `last` says. Written here, not in the
/// engine, so that the three variants differ only at the last ply.
fn perft_variant(p: &mut Position, depth: u32, last: LastPly) -> u64 {
    match (depth, last) {
        (0, _) => 1,
        (1, LastPly::Count) => p.count_legal_moves() as u64,
        (1, LastPly::List) => p.legal_moves().len() as u64,
        _ => {
            let mut nodes = 0;
            for &m in &p.legal_moves() {
                p.make_move(m);
                nodes += perft_variant(p, depth - 1, last);
                p.unmake_move();
            }
            nodes
        }
    }
}

/// Chapter 5's deep counts, the same on every machine: `cargo xtask recheck` counts them again
/// in CI and compares them with the stored ones.
pub fn deep() -> Figures {
    let mut f = Figures::new("ch05");
    f.add(
        "ch05.measured.startpos.d6.nodes",
        perft(&mut Position::startpos(), 6),
    )
    .add(
        "ch05.measured.kiwipete.d5.nodes",
        perft(&mut position(fen("kiwipete")), 5),
    );
    f
}

/// Chapter 5's heavy figures: the deep counts, and the price of the last ply.
pub fn measured() -> Figures {
    let mut f = deep();

    // The four ways of counting the start position to depth 5, timed in turns.
    let depth = STARTPOS_DEPTH;
    let leaves = perft(&mut Position::startpos(), depth);
    let [mut p1, mut p2, mut p3, mut p4]: [Position; 4] =
        std::array::from_fn(|_| Position::startpos());
    let mut engine = || assert_eq!(black_box(perft(&mut p1, depth)), leaves);
    let mut count = || assert_eq!(perft_variant(&mut p2, depth, LastPly::Count), leaves);
    let mut list = || assert_eq!(perft_variant(&mut p3, depth, LastPly::List), leaves);
    let mut make = || assert_eq!(perft_variant(&mut p4, depth, LastPly::Make), leaves);
    let times = time_medians(5, &mut [&mut engine, &mut count, &mut list, &mut make]);
    let mnps: Vec<f64> = times
        .iter()
        .map(|time| leaves as f64 / time.as_secs_f64() / 1e6)
        .collect();
    f.add(
        "ch05.measured.last_ply.engine_mnps",
        Figure::fixed(mnps[0], 1),
    )
    .add(
        "ch05.measured.last_ply.count_mnps",
        Figure::fixed(mnps[1], 1),
    )
    .add(
        "ch05.measured.last_ply.list_mnps",
        Figure::fixed(mnps[2], 1),
    )
    .add(
        "ch05.measured.last_ply.make_mnps",
        Figure::fixed(mnps[3], 1),
    )
    .add(
        "ch05.measured.last_ply.count_over_make",
        Figure::fixed(mnps[1] / mnps[3], 1),
    )
    .add("ch05.measured.clock", clock_name())
    .add("ch05.measured.load", load_average());
    f
}

fn print_tables() {
    let mut start = Position::startpos();
    println!("Divide of the start position at depth 3 (as `cb2026 perft 3` prints it):\n");
    for (m, nodes) in divide(&mut start, 3) {
        println!("{m}: {nodes}");
    }
    println!();
    print!("{}", figures().to_yaml());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_last_plies_count_the_same_tree() {
        let mut p = position(fen("kiwipete"));
        let expected = perft(&mut p, 3);
        for last in [LastPly::Count, LastPly::List, LastPly::Make] {
            assert_eq!(perft_variant(&mut p, 3, last), expected, "{last:?}");
        }
    }

    #[test]
    fn the_suite_has_its_positions_and_counts() {
        let entries = suite();
        assert_eq!(entries[0].counts[0], (1, 20));
        assert!(entries.iter().all(|entry| !entry.counts.is_empty()));
    }
}
