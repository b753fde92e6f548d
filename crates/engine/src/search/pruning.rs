//! The numbers behind the search's pruning, reductions and extensions (chapters 11 to 14), in
//! one place, each with where it comes from.
//!
//! None of them is tuned for this engine yet: they are the usual starting points of the
//! literature, chosen in the middle of the ranges open-source engines use.

// ANCHOR: null_move_reduction
/// Null-move pruning is tried from this depth on (chapter 11).
pub const NULL_MOVE_MIN_DEPTH: i32 = 3;

/// How much shallower the null-move search is: R = 3 + depth / 6, the adaptive reduction of
/// Ernst Heinz ("Adaptive Null-Move Pruning", ICCA Journal 1999) in the form most engines use
/// (CPW "Null Move Pruning"): deeper nodes afford a larger R.
pub fn null_move_reduction(depth: i32) -> i32 {
    3 + depth / 6
}
// ANCHOR_END: null_move_reduction

// ANCHOR: futility_margins
/// Reverse futility pruning (static null move) works up to this depth (chapter 13).
pub const RFP_MAX_DEPTH: i32 = 8;

/// A node whose static evaluation beats beta by this much per ply of depth is cut at once:
/// the opponent is not expected to win back so much in so few plies (CPW "Reverse Futility
/// Pruning").
pub fn rfp_margin(depth: i32) -> i32 {
    75 * depth
}

/// Futility pruning of quiet moves works up to this depth (chapter 13).
pub const FUTILITY_MAX_DEPTH: i32 = 6;

/// A quiet move is skipped when the static evaluation plus this margin is still at most alpha
/// (CPW "Futility Pruning"; the margin grows with the plies left for the position to change).
pub fn futility_margin(depth: i32) -> i32 {
    80 + 80 * depth
}
// ANCHOR_END: futility_margins

/// Late move reductions start at this depth (chapter 12).
pub const LMR_MIN_DEPTH: i32 = 3;

/// Aspiration windows start at this iteration (chapter 13): earlier ones are cheap and their
/// scores jump too much to centre a window on.
pub const ASPIRATION_MIN_DEPTH: i32 = 4;

/// The first aspiration window is the previous score plus or minus this; each failure widens
/// the failing side by half as much again (CPW "Aspiration Windows").
pub const ASPIRATION_DELTA: i32 = 25;

// ANCHOR: singular_parameters
/// Singular extensions are tried from this depth on (chapter 14.1).
pub const SINGULAR_MIN_DEPTH: i32 = 7;

/// The hash move's entry must come from a search at most this much shallower than the node.
pub const SINGULAR_TT_DEPTH_SLACK: i32 = 3;

/// The other moves must stay below the hash move's score minus this: a margin that grows with
/// depth, as deeper scores are more trustworthy (Anantharaman, Campbell and Hsu, "Singular
/// extensions: adding selectivity to brute-force searching", 1990; in the TT-based form of CPW
/// "Singular Extensions").
pub fn singular_margin(depth: i32) -> i32 {
    2 * depth
}

/// The depth of the search that tests the other moves: about half the node's.
pub fn singular_depth(depth: i32) -> i32 {
    (depth - 1) / 2
}
// ANCHOR_END: singular_parameters

// ANCHOR: lmr_table
/// Late move reductions by depth and move number, computed once (chapter 12).
///
/// A move late in a well-ordered list is unlikely to be best, so it is searched shallower; how
/// much shallower grows with the logarithm of both the depth and the move's number,
/// `0.75 + ln(depth) × ln(moves) / 2.25` (the formula of Ethereal by Andrew Grant, of the
/// same shape as Stockfish's; CPW "Late Move Reductions").
#[derive(Clone, Debug)]
pub struct LmrTable {
    reductions: [[u8; 64]; 64],
}

impl LmrTable {
    /// Fills the table.
    pub fn new() -> LmrTable {
        let mut reductions = [[0u8; 64]; 64];
        for (depth, row) in reductions.iter_mut().enumerate().skip(1) {
            for (moves, cell) in row.iter_mut().enumerate().skip(1) {
                let r = 0.75 + (depth as f64).ln() * (moves as f64).ln() / 2.25;
                *cell = r as u8;
            }
        }
        LmrTable { reductions }
    }

    /// The reduction for the `moves`-th move (1-based) at `depth`; both are capped at 63.
    #[inline]
    pub fn reduction(&self, depth: i32, moves: usize) -> i32 {
        let depth = depth.clamp(0, 63) as usize;
        i32::from(self.reductions[depth][moves.min(63)])
    }
}
// ANCHOR_END: lmr_table

impl Default for LmrTable {
    fn default() -> LmrTable {
        LmrTable::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reductions_grow_with_depth_and_move_number() {
        let table = LmrTable::new();
        assert_eq!(table.reduction(1, 1), 0);
        assert_eq!(table.reduction(3, 2), 1);
        assert!(table.reduction(10, 30) > table.reduction(10, 4));
        assert!(table.reduction(20, 10) > table.reduction(4, 10));
        for depth in 1..64 {
            for moves in 1..64 {
                assert!(table.reduction(depth, moves) <= table.reduction(depth, moves + 1));
                assert!(table.reduction(depth, moves) <= table.reduction(depth + 1, moves));
            }
        }
    }

    #[test]
    fn null_move_reduction_grows_with_depth() {
        assert_eq!(null_move_reduction(3), 3);
        assert_eq!(null_move_reduction(12), 5);
    }
}
