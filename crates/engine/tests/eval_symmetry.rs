//! The evaluation is colour-blind: a position and its mirror image with the colours swapped
//! (ranks flipped, White's pieces made Black's and the other way round, the other side to move,
//! castling rights and en passant flipped too) evaluate exactly equal, since each side sees its
//! own position in both. A term that favoured one colour, or read a table the wrong way up for
//! Black, breaks this.

use cb2026::magic::SplitMix64;
use cb2026::position::Position;
use cb2026::{epd, eval, eval2};

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

/// Chapter 18's evaluation is as colour-blind as chapter 6's, with the hand-set weights and
/// chapter 19's tuned ones, with and without M6's safe checks: over the perft suite and every position of 200 random games.
#[test]
fn evaluation_two_is_colour_blind_too() {
    let mut table = eval2::PawnTable::new();
    let mut mirror_table = eval2::PawnTable::new();
    let mut check = |pos: &Position| {
        let flipped = pos.mirrored();
        let mut nonzero = false;
        for set in eval2::WeightSet::ALL {
            for danger in [&eval2::KING_DANGER, &eval2::KING_DANGER_CHECKS] {
                let score = eval2::evaluate(pos, &mut table, set, danger);
                assert_eq!(
                    score,
                    eval2::evaluate(&flipped, &mut mirror_table, set, danger),
                    "{set:?}: {} vs {}",
                    pos.to_fen(),
                    flipped.to_fen()
                );
                nonzero |= score != 0;
            }
        }
        nonzero
    };
    let mut nonzero = 0;
    for fen in &suite_fens() {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        nonzero += usize::from(check(&pos));
    }
    assert!(nonzero > 50, "only {nonzero} nonzero");
    let mut rng = SplitMix64::new(0x5EED_0018);
    let mut positions = 0;
    for _ in 0..200 {
        let mut pos = Position::startpos();
        for _ in 0..120 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves[below(&mut rng, moves.len())]);
            check(&pos);
            positions += 1;
        }
    }
    assert!(positions > 10_000, "{positions}");
}

/// A number below `n` from the engine's seeded generator, so the random games are the same
/// every run.
fn below(rng: &mut SplitMix64, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

/// Every weight of the table counts as often for a side as it counts for the other side in the
/// mirror, weight by weight (the test above sums them, where two wrong counts could cancel; and
/// it sees a term only through weights that are not zero): over the perft suite and 50 random
/// games. Each of M15's terms must also count somewhere, or it was never looked at.
#[test]
fn every_weight_counts_the_same_for_a_side_and_its_mirror() {
    let danger = &eval2::KING_SAFETY_LEARNT;
    let mut seen = vec![false; eval2::NUM_WEIGHTS];
    let mut check = |pos: &Position| {
        let (ours, mirror) = (
            eval2::features_with(pos, danger),
            eval2::features_with(&pos.mirrored(), danger),
        );
        for (i, (&[w, b], &[mw, mb])) in ours.counts.iter().zip(&mirror.counts).enumerate() {
            if i >= eval2::COMPLEXITY {
                // M20's complexity belongs to the board, not a side: counted under White in
                // both, the same in both.
                assert_eq!((w, b), (mw, mb), "weight {i} in {}", pos.to_fen());
                assert_eq!(b, 0, "weight {i} in {}", pos.to_fen());
            } else {
                assert_eq!((w, b), (mb, mw), "weight {i} in {}", pos.to_fen());
            }
            seen[i] |= w != 0 || b != 0;
        }
    };
    for fen in &suite_fens() {
        check(&Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}")));
    }
    let mut rng = SplitMix64::new(0x5EED_0015);
    for _ in 0..50 {
        let mut pos = Position::startpos();
        for _ in 0..160 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves[below(&mut rng, moves.len())]);
            check(&pos);
        }
    }
    // Every M15 term is seen: counted for some side in some position (not every slot of a
    // term can be: no pawn is connected on its first rank).
    let unseen: Vec<&str> = eval2::TERMS
        .iter()
        .filter(|term| (eval2::EVAL4_TERMS..eval2::KING_SAFETY).contains(&term.start))
        .filter(|term| !seen[term.start..term.start + term.len].contains(&true))
        .map(|term| term.name)
        .collect();
    assert!(unseen.is_empty(), "never counted: {unseen:?}");
}
