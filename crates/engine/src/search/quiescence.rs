//! Quiescence search (chapter 9): at the horizon, keep searching captures until the position
//! is quiet, so that the static evaluation is never taken in the middle of an exchange (the
//! horizon effect; CPW "Quiescence Search").

use super::negamax::tt_cutoff;
use super::ordering::MovePicker;
use super::see::{self, SEE_VALUES};
use super::{DRAW, INFINITY, MATE, MAX_PLY, Worker, score_to_tt};
use crate::moves::Move;
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
            return self.cached_eval();
        }
        // The table serves quiescence too: any entry settles a window here, as quiescence is
        // the shallowest search there is (its results are stored at depth 0).
        let key = self.pos.key();
        let entry = if self.switches.tt {
            self.tt.probe(key)
        } else {
            None
        };
        if let Some(entry) = entry
            && let Some(score) = tt_cutoff(entry, 0, alpha, beta, ply)
        {
            return score;
        }
        let table_move = entry
            .and_then(|entry| entry.best_move)
            .filter(|_| self.switches.qsttmove);
        let original_alpha = alpha;
        let in_check = self.pos.in_check();
        let mut best = -INFINITY;
        let mut stand_pat = -INFINITY;
        if !in_check {
            // Stand pat: the side to move need not capture, so the static evaluation is
            // already a lower bound on its score.
            stand_pat = self.cached_eval();
            stand_pat = self.corrected_eval(stand_pat);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        }
        let mut picker = MovePicker::quiescence(&self.pos, in_check, table_move);
        if in_check && picker.is_empty() {
            return -MATE + ply as i32;
        }
        let mut best_move = None;
        while let Some(m) = picker.next_move() {
            if !in_check && let Some(futility) = self.futile_capture(stand_pat, alpha, m) {
                self.stats.qs_futility_prunes += 1;
                best = best.max(futility);
                continue;
            }
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
                best_move = Some(m);
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
            let stored_move = best_move.filter(|_| self.switches.qsttmove);
            self.tt
                .store(key, stored_move, score_to_tt(best, ply), 0, bound);
        }
        best
    }
    // ANCHOR_END: quiescence

    // ANCHOR: m17_futile_capture
    /// Delta pruning (M17, switch `qsfutility`; CPW "Delta Pruning"): a capture is futile
    /// when the evaluation, plus its victim won for nothing, plus a margin for what the
    /// evaluation cannot see, still does not reach alpha. The capture is skipped, and the
    /// value it could at best have reached is returned: the node's score, if every move
    /// fails low, is an upper bound no lower than that. When the evaluation and the margin
    /// alone fall short of alpha, a capture that wins nothing (an even exchange) is futile too,
    /// as Stockfish's quiescence has it. Promotions are never skipped: the new piece is gain the
    /// victim's value does not count.
    fn futile_capture(&self, stand_pat: i32, alpha: i32, m: Move) -> Option<i32> {
        if !self.switches.qsfutility || m.is_promotion() {
            return None;
        }
        let base = stand_pat + self.params.qs_futility_margin;
        let victim = self
            .pos
            .captured_piece(m)
            .map_or(0, |piece| SEE_VALUES[piece.kind.index()]);
        if base + victim <= alpha {
            return Some(base + victim);
        }
        if base <= alpha && see::see(&self.pos, m) <= 0 {
            return Some(base);
        }
        None
    }
    // ANCHOR_END: m17_futile_capture
}
