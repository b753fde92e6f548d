//! Every position of the community perft suite (`data/perft-standard.epd`), at every depth
//! whose published count is at most two million nodes: castling, en passant, promotions,
//! pins and checks in all their combinations. One wrong move anywhere changes a count.

use cb2026::epd;
use cb2026::perft::perft;
use cb2026::position::Position;

const SUITE: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/perft-standard.epd"
));

/// The largest count run here; deeper counts are left to `cargo xtask perft`.
const MAX_NODES: u64 = 2_000_000;

#[test]
fn the_standard_suite_matches_every_published_count_up_to_two_million() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for entry in epd::perft_suite(SUITE).unwrap_or_else(|e| panic!("the suite: {e}")) {
        let (fen, counts) = (entry.fen.as_str(), entry.counts);
        let mut position = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for (depth, expected) in counts.into_iter().filter(|&(_, n)| n <= MAX_NODES) {
            let nodes = perft(&mut position, depth);
            if nodes != expected {
                failures.push(format!("{fen} depth {depth}: {nodes}, expected {expected}"));
            }
            checked += 1;
        }
        assert_eq!(
            position.to_fen().split(' ').take(4).collect::<Vec<_>>(),
            fen.split(' ').take(4).collect::<Vec<_>>()
        );
    }
    assert!(
        failures.is_empty(),
        "{} wrong counts:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        checked > 500,
        "only {checked} counts checked: is the suite complete?"
    );
}
