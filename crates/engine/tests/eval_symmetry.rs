//! The evaluation is colour-blind: a position and its mirror image with the colours swapped
//! (ranks flipped, White's pieces made Black's and the other way round, the other side to move,
//! castling rights and en passant flipped too) evaluate exactly equal, since each side sees its
//! own position in both. A term that favoured one colour, or read a table the wrong way up for
//! Black, breaks this.

use cb2026::position::Position;
use cb2026::{epd, eval};

const PERFT_SUITE: &str = include_str!("../../../data/perft-standard.epd");

/// The positions of the perft suite (its counts are not needed here).
fn suite_fens() -> Vec<String> {
    epd::parse(PERFT_SUITE)
        .expect("the perft suite is valid EPD")
        .into_iter()
        .map(|line| line.fen)
        .collect()
}

#[test]
fn every_perft_position_evaluates_like_its_mirror() {
    let fens = suite_fens();
    assert!(
        fens.len() > 100,
        "the perft suite has {} positions",
        fens.len()
    );
    let mut nonzero = 0;
    for fen in &fens {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let flipped = pos.mirrored();
        let (score, flipped_score) = (eval::evaluate(&pos), eval::evaluate(&flipped));
        assert_eq!(score, flipped_score, "{fen} vs {}", flipped.to_fen());
        if score != 0 {
            nonzero += 1;
        }
    }
    // Symmetry must not come from evaluating everything as 0.
    assert!(
        nonzero > 50,
        "only {nonzero} positions have a nonzero evaluation"
    );
}
