//! Correction history (M7): the static evaluation learns from the search what it gets wrong.
//!
//! A hand-written evaluation is wrong in ways that repeat: a pawn structure it likes too much
//! is liked too much in every position that has it. The search finds out, node after node,
//! when a position searched deeper scores well away from its static evaluation. The table
//! here keeps, for each side to move and each pawn structure (hashed into one of
//! [`CORRECTION_SLOTS`] slots), a running average of that error, and the search adds it to the
//! static evaluation before any pruning reads it: the margins of futility, razoring and null
//! move are then measured from a better guess.
//!
//! The idea is Stockfish's "pawn correction history" (2023; CPW "Static Evaluation Correction
//! History"); the sizes, the weights and the code are ours.

use crate::position::{PieceKind, Position};
use crate::square::Color;

// ANCHOR: correction_table
/// Slots per side to move; a power of two, indexed by the pawn-structure hash's top bits.
pub const CORRECTION_SLOTS: usize = 16_384;
/// Corrections are kept in units of 1/`GRAIN` centipawn, so that small weighted steps add up
/// instead of rounding away.
const GRAIN: i32 = 256;
/// The largest correction, in centipawns: the table nudges the evaluation, it never replaces
/// it.
pub const MAX_CORRECTION: i32 = 64;
/// The weight of one search's result out of [`WEIGHT_SCALE`] grows with its depth up to this:
/// a deep search knows more about the position than a shallow one.
const MAX_WEIGHT: i32 = 16;
/// The denominator of the weights: at depth 16 or more a new result moves the running
/// average a sixteenth of the way (16/256).
const WEIGHT_SCALE: i32 = 256;

/// The running average of (search score − static evaluation) for each side to move and pawn
/// structure, in 1/[`GRAIN`] centipawn.
#[derive(Clone)]
pub struct CorrectionHistory {
    slots: Vec<[i32; 2]>,
}
// ANCHOR_END: correction_table

impl Default for CorrectionHistory {
    fn default() -> CorrectionHistory {
        CorrectionHistory {
            slots: vec![[0; 2]; CORRECTION_SLOTS],
        }
    }
}

/// Its size rather than 32,768 numbers, for the `Debug` of the heuristics that hold it.
impl std::fmt::Debug for CorrectionHistory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CorrectionHistory({} slots)", self.slots.len())
    }
}

impl CorrectionHistory {
    // ANCHOR: correction_use
    /// The correction for `pos`, in centipawns, to add to its static evaluation (for the side
    /// to move).
    pub fn correction(&self, pos: &Position) -> i32 {
        self.slot(pos) / GRAIN
    }

    /// Learns from one node: its search at `depth` scored `score` where the static evaluation
    /// (before correction) said `raw_eval`. The slot moves towards the difference, by a weight
    /// that grows with depth (an exponential moving average), and stays within
    /// ±[`MAX_CORRECTION`].
    pub fn learn(&mut self, pos: &Position, depth: i32, score: i32, raw_eval: i32) {
        let target = (score - raw_eval).clamp(-MAX_CORRECTION, MAX_CORRECTION) * GRAIN;
        let weight = (depth + 1).clamp(1, MAX_WEIGHT);
        let slot = self.slot_mut(pos);
        *slot += (target - *slot) * weight / WEIGHT_SCALE;
    }
    // ANCHOR_END: correction_use

    /// How many slots hold a correction (either side to move): how much of the table the
    /// searches so far have taught something.
    pub fn filled(&self) -> usize {
        self.slots
            .iter()
            .flatten()
            .filter(|&&slot| slot != 0)
            .count()
    }

    fn slot(&self, pos: &Position) -> i32 {
        self.slots[pawn_index(pos)][pos.side_to_move() as usize]
    }

    fn slot_mut(&mut self, pos: &Position) -> &mut i32 {
        &mut self.slots[pawn_index(pos)][pos.side_to_move() as usize]
    }
}

// ANCHOR: pawn_index
/// The slot of `pos`'s pawn structure: a multiplicative hash (Knuth, TAOCP 6.4) of both
/// colours' pawn sets, the top bits kept. Positions with the same pawns share a slot whatever
/// the pieces do.
///
/// The top bits of a product depend on every bit of the number multiplied, its low bits only
/// on the low bits. So Black's pawns are scrambled first (multiplying by an odd constant is a
/// one-to-one map), folded into White's, and the sum multiplied once more: the top bits then
/// depend on every pawn of both sides. (Multiplying each set on its own and keeping some
/// middle bits would ignore the pawns on the upper ranks, where Black's mostly are.)
fn pawn_index(pos: &Position) -> usize {
    const MIX_BLACK: u64 = 0xC2B2_AE3D_27D4_EB4F;
    const MIX: u64 = 0x9E37_79B9_7F4A_7C15;
    let white = pos.pieces(Color::White, PieceKind::Pawn).0;
    let black = pos.pieces(Color::Black, PieceKind::Pawn).0;
    let hash = (white ^ black.wrapping_mul(MIX_BLACK)).wrapping_mul(MIX);
    (hash >> (64 - CORRECTION_SLOTS.trailing_zeros())) as usize
}
// ANCHOR_END: pawn_index

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    #[test]
    fn learning_moves_the_correction_towards_the_error_and_no_further() {
        let p = Position::startpos();
        let mut table = CorrectionHistory::default();
        assert_eq!(table.correction(&p), 0);
        table.learn(&p, 20, 40, 0);
        let once = table.correction(&p);
        assert!(
            once > 0 && once < 40,
            "one deep result moves it part way: {once}"
        );
        for _ in 0..500 {
            table.learn(&p, 20, 40, 0);
        }
        assert_eq!(
            table.correction(&p),
            39,
            "it converges on the error (less rounding)"
        );
        for _ in 0..500 {
            table.learn(&p, 20, 1000, 0);
        }
        assert_eq!(table.correction(&p), MAX_CORRECTION - 1);
    }

    #[test]
    fn a_shallow_result_moves_it_less_than_a_deep_one() {
        let p = Position::startpos();
        let mut shallow = CorrectionHistory::default();
        let mut deep = CorrectionHistory::default();
        shallow.learn(&p, 1, 60, 0);
        deep.learn(&p, 12, 60, 0);
        assert!(shallow.slot(&p) < deep.slot(&p));
    }

    #[test]
    fn the_pawns_and_the_side_to_move_choose_the_slot_not_the_pieces() {
        let mut table = CorrectionHistory::default();
        let white = pos("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1");
        let moved_king = pos("3k4/pp6/8/8/8/8/PP6/3K4 w - - 0 1");
        let black_to_move = pos("4k3/pp6/8/8/8/8/PP6/4K3 b - - 0 1");
        let other_pawns = pos("4k3/p7/1p6/8/8/8/PP6/4K3 w - - 0 1");
        for _ in 0..100 {
            table.learn(&white, 10, 50, 0);
        }
        assert!(table.correction(&white) > 40);
        assert_eq!(table.correction(&moved_king), table.correction(&white));
        assert_eq!(table.correction(&black_to_move), 0);
        assert_eq!(table.correction(&other_pawns), 0);
    }
}
