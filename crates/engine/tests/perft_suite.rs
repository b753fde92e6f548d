//! Every position of the community perft suite (`data/perft-standard.epd`), at every depth
//! whose published count is at most two million nodes: castling, en passant, promotions,
//! pins and checks in all their combinations. One wrong move anywhere changes a count.

use cb2026::perft::perft;
use cb2026::position::Position;

const SUITE: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/perft-standard.epd"
));

/// The largest count run here; deeper counts are left to `cargo xtask perft`.
const MAX_NODES: u64 = 2_000_000;

/// One line of the suite: `FEN ;D1 20 ;D2 400 ...`.
fn parse_line(line: &str) -> (&str, Vec<(u32, u64)>) {
    let mut parts = line.split(';');
    let fen = parts.next().expect("a FEN before the first ';'").trim();
    let counts = parts
        .map(|part| {
            let (depth, nodes) = part.trim().split_once(' ').expect("'Dn count'");
            let depth = depth
                .strip_prefix('D')
                .expect("a depth like D3")
                .parse()
                .expect("a depth");
            (depth, nodes.trim().parse().expect("a node count"))
        })
        .collect();
    (fen, counts)
}

#[test]
fn the_standard_suite_matches_every_published_count_up_to_two_million() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for line in SUITE.lines().filter(|line| !line.trim().is_empty()) {
        let (fen, counts) = parse_line(line);
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
