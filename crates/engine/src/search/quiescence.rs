//! Quiescence search (chapter 9): at the horizon, keep searching captures until the position
//! is quiet, so that the static evaluation is never taken in the middle of an exchange (the
//! horizon effect; CPW "Quiescence Search").

use super::negamax::tt_cutoff;
use super::ordering::MovePicker;
use super::see;
use super::{DRAW, INFINITY, MATE, MAX_PLY, Worker, score_to_tt};
use crate::tt::Bound;

impl Worker<'_> {
    // ANCHOR: quiescence
    /// The score of the position for the side to move, searching only captures and queen
    /// promotions (every evasion when in check), within the window (`alpha`, `beta`).
    pub(super) fn quiescence(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv.clear(ply);
        if self.should_stop() {
            return 0;
        }
        self.count_node(ply);
        self.stats.qnodes += 1;
        if self.pos.insufficient_material() {
            return DRAW;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate();
        }
        // The table serves quiescence too: any entry settles a window here, as quiescence is
        // the shallowest search there is (its results are stored at depth 0).
        let key = self.pos.key();
        if self.switches.tt
            && let Some(entry) = self.tt.probe(key)
            && let Some(score) = tt_cutoff(entry, 0, alpha, beta, ply)
        {
            return score;
        }
        let original_alpha = alpha;
        let in_check = self.pos.in_check();
        let mut best = -INFINITY;
        if !in_check {
            // Stand pat: the side to move need not capture, so the static evaluation is
            // already a lower bound on its score.
            let stand_pat = self.evaluate();
            let stand_pat = self.corrected_eval(stand_pat);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        }
        let mut picker = MovePicker::quiescence(&self.pos, in_check);
        if in_check && picker.is_empty() {
            return -MATE + ply as i32;
        }
        while let Some(m) = picker.next_move() {
            // A capture that loses material cannot raise a score that standing pat already
            // guarantees: skip it (out of check only, where standing pat is allowed).
            if !in_check && self.switches.see && !see::is_non_negative(&self.pos, m) {
                self.stats.see_prunes += 1;
                continue;
            }
            self.pos.make_move(m);
            let score = -self.quiescence(-beta, -alpha, ply + 1);
            self.pos.unmake_move();
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if self.switches.tt {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.tt.store(key, None, score_to_tt(best, ply), 0, bound);
        }
        best
    }
    // ANCHOR_END: quiescence
}
