//! The numbers behind the search's pruning, reductions and extensions (chapters 11 to 14), in
//! one place, each with where it comes from.
//!
//! They live in one [`Params`] value rather than in constants so that a chapter can search the
//! same positions with one number changed and show why we chose it (each chapter's sweep), and a
//! tuner can move them. [`Params::default`] is what the engine plays with: the usual starting
//! points of the literature, kept where the chapters' sweeps found no clear reason to move.

/// Every depth limit, margin and reduction of the selective search, with its default.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// Null-move pruning is tried from this depth on (chapter 11).
    pub null_move_min_depth: i32,
    /// The null-move search's reduction at the shallowest depths.
    pub null_move_base_r: i32,
    /// One more ply of null-move reduction for every this many plies of depth.
    pub null_move_depth_divisor: i32,
    /// M11: one more ply of null-move reduction for every this many centipawns by which the
    /// static evaluation beats beta...
    pub null_move_eval_divisor: i32,
    /// ...up to this many plies.
    pub null_move_eval_max: i32,
    /// Late move reductions start at this depth (chapter 12).
    pub lmr_min_depth: i32,
    /// The constant of the reduction formula, in hundredths of a ply.
    pub lmr_base_centi: i32,
    /// The divisor of the formula's `ln(depth) × ln(moves)` term, in hundredths.
    pub lmr_divisor_centi: i32,
    /// Reverse futility pruning works up to this depth (chapter 13).
    pub rfp_max_depth: i32,
    /// Reverse futility's margin per ply of depth, in centipawns.
    pub rfp_margin_per_ply: i32,
    /// Futility pruning of quiet moves works up to this depth (chapter 13).
    pub futility_max_depth: i32,
    /// Futility's margin at depth 0, in centipawns...
    pub futility_base: i32,
    /// ...and what each ply of depth adds to it.
    pub futility_per_ply: i32,
    /// Aspiration windows start at this iteration (chapter 13).
    pub aspiration_min_depth: i32,
    /// The first aspiration window's half-width, in centipawns.
    pub aspiration_delta: i32,
    /// Singular extensions are tried from this depth on (chapter 14.1).
    pub singular_min_depth: i32,
    /// The hash move's entry may be at most this much shallower than the node.
    pub singular_tt_depth_slack: i32,
    /// The singular margin per ply of depth, in centipawns.
    pub singular_margin_per_ply: i32,
    /// The history bonus of a cutoff is this times the depth squared (chapter 9)...
    pub history_bonus_per_ply2: i32,
    /// ...up to this cap.
    pub history_bonus_max: i32,
    /// Late move pruning works up to this depth (M3).
    pub lmp_max_depth: i32,
    /// Static exchange pruning in the main search works up to this depth (M3)...
    pub see_prune_max_depth: i32,
    /// ...skipping a quiet move that loses more than this many centipawns per ply of depth...
    pub see_quiet_margin_per_ply: i32,
    /// ...and a capture that loses more than this times the depth squared.
    pub see_capture_margin_per_ply2: i32,
    /// Internal iterative reduction works from this depth on (M3).
    pub iir_min_depth: i32,
    /// Razoring works up to this depth (M3)...
    pub razor_max_depth: i32,
    /// ...for a node whose evaluation is this far below alpha at depth 0...
    pub razor_base: i32,
    /// ...plus this times the depth squared.
    pub razor_per_ply2: i32,
    /// ProbCut works from this depth on (M3)...
    pub probcut_min_depth: i32,
    /// ...asking a capture to beat beta by this many centipawns...
    pub probcut_margin: i32,
    /// ...in a search this many plies shallower than the node's.
    pub probcut_reduction: i32,
    /// M2: a late move's reduction changes by one ply per this much history...
    pub lmr_history_divisor: i32,
    /// ...by at most this many plies either way.
    pub lmr_history_max_change: i32,
    /// History pruning works up to this depth (M2)...
    pub history_prune_max_depth: i32,
    /// ...skipping quiet moves whose history is below minus this per ply of depth.
    pub history_prune_margin_per_ply: i32,
    /// M17: quiescence skips a capture when even its victim, won for nothing, and this many
    /// centipawns more would leave the evaluation at or below alpha.
    pub qs_futility_margin: i32,
}

impl Default for Params {
    fn default() -> Params {
        Params::DEFAULT
    }
}

impl Params {
    // ANCHOR: null_move_reduction
    /// The engine's parameters. Null move from depth 3 with R = 3 + depth / 6, so the null-move
    /// search goes to depth − 4 − depth / 6: Ethereal's reduction (its `search.c` searches to
    /// depth − R with R = 4 + depth / 6 + min(3, (eval − beta) / 200)) without the evaluation
    /// term, one common modern form of an R that keeps growing with depth. The first R to depend
    /// on depth was Ernst Heinz's adaptive null-move pruning ("Adaptive Null-Move Pruning", ICCA
    /// Journal 22(3), 1999): R = 3 above a depth threshold, R = 2 below it.
    pub const DEFAULT: Params = Params {
        null_move_min_depth: 3,
        null_move_base_r: 3,
        null_move_depth_divisor: 6,
        // ANCHOR_END: null_move_reduction
        // ANCHOR: null_move_eval_parameters
        null_move_eval_divisor: 200,
        null_move_eval_max: 3,
        // ANCHOR_END: null_move_eval_parameters
        lmr_min_depth: 3,
        lmr_base_centi: 75,
        lmr_divisor_centi: 225,
        // ANCHOR: futility_margins
        rfp_max_depth: 8,
        rfp_margin_per_ply: 75,
        futility_max_depth: 6,
        futility_base: 80,
        futility_per_ply: 80,
        // ANCHOR_END: futility_margins
        aspiration_min_depth: 4,
        aspiration_delta: 25,
        // ANCHOR: singular_parameters
        singular_min_depth: 7,
        singular_tt_depth_slack: 3,
        singular_margin_per_ply: 2,
        // ANCHOR_END: singular_parameters
        history_bonus_per_ply2: 16,
        history_bonus_max: 1_600,
        // ANCHOR: m3_parameters
        lmp_max_depth: 8,
        see_prune_max_depth: 8,
        see_quiet_margin_per_ply: 60,
        see_capture_margin_per_ply2: 25,
        iir_min_depth: 4,
        razor_max_depth: 3,
        razor_base: 175,
        razor_per_ply2: 125,
        probcut_min_depth: 5,
        probcut_margin: 100,
        probcut_reduction: 4,
        // ANCHOR_END: m3_parameters
        // ANCHOR: m2_parameters
        lmr_history_divisor: 8_192,
        lmr_history_max_change: 2,
        history_prune_max_depth: 4,
        history_prune_margin_per_ply: 1_024,
        // ANCHOR_END: m2_parameters
        // ANCHOR: m17_parameters
        qs_futility_margin: 150,
        // ANCHOR_END: m17_parameters
    };

    // ANCHOR: null_move_reduction_fn
    /// How much shallower the null-move search is: deeper nodes afford a larger R.
    pub fn null_move_reduction(&self, depth: i32) -> i32 {
        self.null_move_base_r + depth / self.null_move_depth_divisor
    }
    // ANCHOR_END: null_move_reduction_fn

    // ANCHOR: null_move_eval_reduction_fn
    /// How many plies more the null-move search is reduced when the static evaluation beats
    /// beta by `margin` (M11): one for every `null_move_eval_divisor` centipawns, at most
    /// `null_move_eval_max`. The further ahead the side that passes stands, the less the
    /// proof needs to see; Ethereal's `search.c` adds `min(3, (eval − beta) / 200)` to its R,
    /// and Stockfish a term of the same kind.
    pub fn null_move_eval_reduction(&self, margin: i32) -> i32 {
        (margin / self.null_move_eval_divisor).clamp(0, self.null_move_eval_max)
    }
    // ANCHOR_END: null_move_eval_reduction_fn

    // ANCHOR: futility_margin_fns
    /// A node whose static evaluation beats beta by this much is cut at once: the opponent is
    /// not expected to win back so much in so few plies (CPW "Reverse Futility Pruning").
    pub fn rfp_margin(&self, depth: i32) -> i32 {
        self.rfp_margin_per_ply * depth
    }

    /// A quiet move is skipped when the static evaluation plus this margin is still at most
    /// alpha (CPW "Futility Pruning"; the margin grows with the plies left for the position to
    /// change).
    pub fn futility_margin(&self, depth: i32) -> i32 {
        self.futility_base + self.futility_per_ply * depth
    }
    // ANCHOR_END: futility_margin_fns

    // ANCHOR: history_bonus
    /// The history bonus for a quiet move that cut off at `depth` (chapter 9): deeper cutoffs
    /// say more about a move than shallow ones, so the bonus grows as the depth squared, the
    /// common form (CPW "History Heuristic"); the cap keeps one deep cutoff from outweighing
    /// many shallow ones.
    pub fn history_bonus(&self, depth: i32) -> i32 {
        (self.history_bonus_per_ply2 * depth * depth).min(self.history_bonus_max)
    }
    // ANCHOR_END: history_bonus

    // ANCHOR: m2_fns
    /// How many plies less a late quiet move with `history` is reduced (M2): one for each
    /// `lmr_history_divisor` of history, negative (reduced more) for a bad one, within
    /// `lmr_history_max_change` plies either way. The combined history reaches about three
    /// times [`HISTORY_MAX`](super::ordering::HISTORY_MAX), so the change saturates only for
    /// moves with a long record.
    pub fn history_reduction_change(&self, history: i32) -> i32 {
        let change = history / self.lmr_history_divisor;
        change.clamp(-self.lmr_history_max_change, self.lmr_history_max_change)
    }

    /// The history below which a quiet move at `depth` is pruned (M2).
    pub fn history_prune_threshold(&self, depth: i32) -> i32 {
        -self.history_prune_margin_per_ply * depth
    }
    // ANCHOR_END: m2_fns

    // ANCHOR: m3_fns
    /// How many moves a node at `depth` searches before late move pruning skips its quiet
    /// moves: `3 + depth²` when the position is improving, about half that when not (3, 4,
    /// 7, 10, ... by depth: close to the counts of Ethereal's move-count pruning; CPW "Late
    /// Move Pruning"). Deeper than `lmp_max_depth`, nodes search every move.
    pub fn lmp_count(&self, depth: i32, improving: bool) -> usize {
        let count = 3 + depth * depth;
        (if improving { count } else { count / 2 + 1 }) as usize
    }

    /// The static exchange a move at `depth` may lose and still be searched: a little for a
    /// quiet move put en prise, which may be a sacrifice, more for a capture, which at least
    /// takes something (CPW "Static Exchange Evaluation", its pruning use in Stockfish and
    /// Ethereal).
    pub fn see_prune_threshold(&self, depth: i32, quiet: bool) -> i32 {
        if quiet {
            -self.see_quiet_margin_per_ply * depth
        } else {
            -self.see_capture_margin_per_ply2 * depth * depth
        }
    }

    /// How far below alpha a node's evaluation must be for razoring to ask quiescence: a
    /// margin that grows with the square of the depth, as Stockfish's does (its `search.cpp`,
    /// about 175 + 125 × depth² once its units are turned into centipawns), since every ply
    /// left gives the side to move more ways to win material back.
    pub fn razor_margin(&self, depth: i32) -> i32 {
        self.razor_base + self.razor_per_ply2 * depth * depth
    }
    // ANCHOR_END: m3_fns

    // ANCHOR: singular_fns
    /// The other moves must stay below the hash move's score minus this: a margin that grows
    /// with depth, as deeper scores are more trustworthy (Anantharaman, Campbell and Hsu,
    /// "Singular extensions: adding selectivity to brute-force searching", 1990; in the
    /// TT-based form of CPW "Singular Extensions").
    pub fn singular_margin(&self, depth: i32) -> i32 {
        self.singular_margin_per_ply * depth
    }

    /// The depth of the search that tests the other moves: about half the node's.
    pub fn singular_depth(&self, depth: i32) -> i32 {
        (depth - 1) / 2
    }
    // ANCHOR_END: singular_fns
}

// ANCHOR: lmr_table
/// Late move reductions by depth and move number, computed once (chapter 12).
///
/// A move late in a well-ordered list is unlikely to be best, so it is searched shallower; how
/// much shallower grows with the logarithm of both the depth and the move's number,
/// `0.75 + ln(depth) × ln(moves) / 2.25` with the default [`Params`] (the formula of Ethereal
/// by Andrew Grant, of the same shape as Stockfish's; CPW "Late Move Reductions").
#[derive(Clone, Debug)]
pub struct LmrTable {
    reductions: [[u8; 64]; 64],
}

impl LmrTable {
    /// Fills the table with the default parameters.
    pub fn new() -> LmrTable {
        LmrTable::with(&Params::DEFAULT)
    }

    /// Fills the table with `params`' constant and divisor.
    pub fn with(params: &Params) -> LmrTable {
        let base = f64::from(params.lmr_base_centi) / 100.0;
        let divisor = f64::from(params.lmr_divisor_centi) / 100.0;
        let mut reductions = [[0u8; 64]; 64];
        for (depth, row) in reductions.iter_mut().enumerate().skip(1) {
            for (moves, cell) in row.iter_mut().enumerate().skip(1) {
                let r = base + (depth as f64).ln() * (moves as f64).ln() / divisor;
                *cell = r.clamp(0.0, 63.0) as u8;
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
        let params = Params::default();
        assert_eq!(params.null_move_reduction(3), 3);
        assert_eq!(params.null_move_reduction(12), 5);
    }

    #[test]
    fn null_move_eval_reduction_grows_with_the_lead_up_to_its_cap() {
        let params = Params::default();
        assert_eq!(params.null_move_eval_reduction(0), 0);
        assert_eq!(params.null_move_eval_reduction(199), 0);
        assert_eq!(params.null_move_eval_reduction(200), 1);
        assert_eq!(params.null_move_eval_reduction(450), 2);
        assert_eq!(params.null_move_eval_reduction(5_000), 3);
        assert_eq!(params.null_move_eval_reduction(-300), 0, "never negative");
    }

    #[test]
    fn the_default_lmr_table_is_the_default_parameters_table() {
        let params = Params::default();
        let (a, b) = (LmrTable::new(), LmrTable::with(&params));
        assert_eq!(a.reductions, b.reductions);
        let bolder = LmrTable::with(&Params {
            lmr_divisor_centi: 150,
            ..params
        });
        assert!(bolder.reduction(10, 20) > a.reduction(10, 20));
    }
}
