//! The alpha-beta search proper (chapters 7 to 14): one function visits a node, with the
//! pruning, reductions and extensions of the later chapters each behind its switch.

use super::ordering::{MovePicker, MovesBefore, is_quiet};
use super::picker::Picker;
use super::see;
use super::{
    DRAW, INFINITY, MATE, MATE_BOUND, MAX_PLY, NO_EVAL, Worker, score_from_tt, score_to_tt,
};
use crate::movegen::MoveList;
use crate::moves::Move;
use crate::position::{Piece, PieceKind};
use crate::square::Square;
use crate::tt::{Bound, Entry};

/// The moves a node searched without a cutoff, for the history updates when a later move
/// cuts off.
#[derive(Default)]
struct Tried {
    quiets: MoveList,
    noisy: MoveList,
}

/// What the move loop needs to know about a move besides the move.
#[derive(Clone, Copy)]
struct LateMove {
    /// A candidate for reduction: quiet, not in check, not giving check (chapter 12), or one
    /// of the moves M19 adds (see [`Worker::is_reducible`]).
    reducible: bool,
    quiet: bool,
    gives_check: bool,
    /// Whether the node's hash move is a capture or a promotion (M19's `ttnoisy`).
    tt_move_noisy: bool,
    is_killer: bool,
    /// The move's number at this node, 1-based.
    number: usize,
    /// Whether the node's evaluation rose since two plies ago (M3).
    improving: bool,
    /// A quiet move's history with its continuation histories (M2; 0 unless `histlmr` or
    /// `histprune` is on).
    history: i32,
}

// ANCHOR: node_kind
/// The three kinds of node in Donald Knuth and Ronald Moore's analysis of alpha-beta ("An
/// analysis of alpha-beta pruning", Artificial Intelligence 6(4), 1975; CPW "Node Types"), as
/// the search expects them before it knows: a PV node's score falls inside its window; a cut
/// node fails high, one good move being enough to refute the move before it; an all node fails
/// low, every move tried and none good enough. M8 reduces more where a cut is expected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Node {
    Pv,
    Cut,
    All,
}

impl Node {
    /// The kind expected of a child searched with a null window. A cut node's children are
    /// all nodes: its first move is expected to be the good one, which nothing refutes. An
    /// all node's children are cut nodes, each move expected to be refuted; so are a PV
    /// node's scouts, which expect to prove a move no better than the first.
    pub(super) fn scout_child(self) -> Node {
        match self {
            Node::Cut => Node::All,
            Node::Pv | Node::All => Node::Cut,
        }
    }
}
// ANCHOR_END: node_kind

// ANCHOR: singularity
/// What the singular extension test found out about the hash move (chapter 14.1).
enum Singularity {
    /// Every other move failed low against the lowered bound: the hash move earns a ply.
    Singular,
    /// Another move reached the bound, which is at least beta: two moves beat beta, and the
    /// node fails high with this score (M3's multi-cut: Yngvi Björnsson and Tony Marsland,
    /// "Multi-cut alpha-beta pruning", 1998, in the form Stockfish gives it).
    MultiCut(i32),
    /// Another move reached the bound, and the table says the hash move beats beta: the node
    /// is expected to fail high whichever of the two does it, so the hash move, no longer the
    /// one move the line hangs on, is searched a ply shallower (M9's negative extension,
    /// Stockfish's form).
    NotAlone,
    /// None of these: the test did not apply, or another move reached a bound below beta.
    Neither,
}
// ANCHOR_END: singularity

impl Worker<'_> {
    // ANCHOR: negamax
    /// The score of the position for the side to move, searched `depth` plies deep at `ply`
    /// from the root, within the window (`alpha`, `beta`) (CPW "Alpha-Beta", in negamax
    /// form: each side maximises, and a child's score is the negation of the parent's).
    ///
    /// `node` is the kind of node the search expects. A PV node is on the principal
    /// variation: the root, and the first child of a PV node; such nodes are never cut short
    /// by the table or pruned. Cut and all nodes matter only to M8's reductions. `excluded`
    /// is the move a singular-extension test leaves out.
    pub(super) fn negamax(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        node: Node,
        excluded: Option<Move>,
    ) -> i32 {
        let pv = node == Node::Pv;
        if !self.switches.alphabeta {
            // Minimax, for chapter 7's comparison: with the widest window no move can fail
            // high, so every move of every node is searched and each score is exact.
            (alpha, beta) = (-INFINITY, INFINITY);
        }
        self.pv.clear(ply);
        if depth <= 0 {
            return self.horizon(alpha, beta, ply);
        }
        if self.should_stop() {
            return 0;
        }
        self.count_node(ply);
        let root = ply == 0;
        if !root {
            if self.is_draw(ply) {
                return DRAW;
            }
            // Mate distance pruning: no line from here can beat a mate already found nearer
            // the root (CPW "Mate Distance Pruning").
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
            if ply >= MAX_PLY - 1 {
                return self.cached_eval();
            }
        }

        let in_check = self.pos.in_check();
        // ANCHOR: tt_probe
        let key = self.pos.key();
        let entry = self.probe_tt(key, excluded);
        if !pv && let Some(score) = entry.and_then(|e| tt_cutoff(e, depth, alpha, beta, ply)) {
            self.stats.tt_cutoffs += 1;
            return score;
        }
        let tt_move = entry.and_then(|e| e.best_move);
        // ANCHOR_END: tt_probe
        if self.internal_iterative_reduction(depth, tt_move, excluded) {
            depth -= 1;
        }

        // Pruning before any move is searched: only at non-PV nodes out of check. M3's
        // "improving" needs the evaluation at PV nodes too.
        let raw_eval = (!in_check && (!pv || self.switches.improving)).then(|| self.cached_eval());
        let eval = raw_eval.map(|raw| self.corrected_eval(raw));
        self.evals[ply] = eval.unwrap_or(NO_EVAL);
        let improving = self.is_improving(ply);
        let static_eval = eval
            .filter(|_| !pv)
            .map(|eval| self.table_refined_eval(eval, entry, ply));
        if let Some(eval) = static_eval
            && excluded.is_none()
        {
            if let Some(score) = self.razor(eval, alpha, depth, ply) {
                return score;
            }
            if let Some(score) = self.reverse_futility(eval, beta, depth, improving) {
                return score;
            }
            if let Some(score) = self.null_move(eval, beta, depth, ply, node) {
                return score;
            }
            if let Some(score) = self.probcut(eval, beta, depth, ply, node, entry) {
                return score;
            }
        }

        let killers = self.heuristics.killers(ply);
        let killers = if self.switches.killers {
            killers
        } else {
            [None, None]
        };
        let previous = self.previous_move(ply);
        let counter_move = previous
            .filter(|_| self.switches.countermove)
            .and_then(|previous| self.heuristics.counter_move(previous));
        let before = self.moves_before(ply);
        let mut picker = Picker::new(
            &self.pos,
            tt_move,
            killers,
            counter_move,
            before,
            self.heuristics,
            &self.switches,
        );

        // ANCHOR: extensions
        // Extensions stop at twice the iteration's depth, so that a long series of checks
        // cannot run the search to the ply limit.
        let can_extend = ply < 2 * self.root_depth as usize;
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let mut searched = 0;
        let mut tried = Tried::default();
        let mut any_legal = false;
        let mut move_number = 0;
        while let Some(m) = picker.next_move(&self.pos, self.heuristics, &self.switches) {
            any_legal = true;
            if Some(m) == excluded {
                continue;
            }
            move_number += 1;
            let quiet = is_quiet(m);
            let history = self.quiet_history(m, quiet, &before);
            // ANCHOR: m3_move_pruning
            // M3's pruning of a move before it is made: never at the root, never before a
            // move has given the node a score that is not a mate against it.
            if !root && !in_check && best_score > -MATE_BOUND {
                if quiet && self.late_move_prunes(depth, move_number, improving) {
                    self.stats.lmp_prunes += 1;
                    // M21: every later quiet move would be pruned here too.
                    if self.switches.skipquiets {
                        self.stats.quiet_skips += 1;
                        picker.skip_quiets();
                    }
                    continue;
                }
                if self.loses_exchange(m, quiet, depth) {
                    self.stats.exchange_prunes += 1;
                    continue;
                }
            }
            // ANCHOR_END: m3_move_pruning
            // ANCHOR: m2_move_pruning
            // M2's history pruning, under the same guards as M3's, and never for a killer or
            // the counter-move: they were tried early because they refuted something lately.
            let refutation = killers.contains(&Some(m)) || Some(m) == counter_move;
            let may_prune = !root && !in_check && best_score > -MATE_BOUND && !refutation;
            if may_prune && quiet && self.history_prunes(depth, history) {
                self.stats.history_prunes += 1;
                continue;
            }
            // ANCHOR_END: m2_move_pruning
            let mut extension = 0;
            if can_extend
                && Some(m) == tt_move
                && let Some(entry) = entry
                && !root
                && excluded.is_none()
            {
                match self.singularity(entry, depth, ply, beta, node) {
                    Singularity::Singular => extension = 1,
                    Singularity::MultiCut(score) => return score,
                    Singularity::NotAlone => extension = -1,
                    Singularity::Neither => {}
                }
            }
            if self.aborted {
                return 0;
            }

            self.played[ply] = Some(m);
            self.moved[ply] = Some((self.pos.piece_moved(m), m.to()));
            self.pos.make_move(m);
            let gives_check = self.pos.in_check();
            if can_extend && extension == 0 && gives_check && self.switches.checkext {
                extension = 1;
                self.stats.check_extensions += 1;
            }
            // ANCHOR_END: extensions
            if let Some(eval) = static_eval
                && searched > 0
                && quiet
                && !gives_check
                && self.is_futile(eval, alpha, depth)
            {
                self.pos.unmake_move();
                self.stats.futility_prunes += 1;
                continue;
            }

            if self.switches.tttouch && self.switches.tt {
                self.tt.touch(self.pos.key());
            }
            let new_depth = depth - 1 + extension;
            let nodes_before = self.stats.nodes;
            let score = if searched == 0 {
                let child = if pv { Node::Pv } else { node.scout_child() };
                -self.negamax(-beta, -alpha, new_depth, ply + 1, child, None)
            } else {
                let bad_noisy = !quiet && picker.handing_out_bad_noisy();
                let late = LateMove {
                    reducible: self.is_reducible(quiet, bad_noisy, in_check, gives_check),
                    quiet,
                    gives_check,
                    tt_move_noisy: tt_move.is_some_and(|t| !is_quiet(t)),
                    is_killer: killers.contains(&Some(m)),
                    number: searched + 1,
                    improving,
                    history,
                };
                self.search_late_move(alpha, beta, depth, new_depth, ply, node, late)
            };
            self.pos.unmake_move();
            if root {
                self.count_root_move_nodes(m, self.stats.nodes - nodes_before);
            }
            if self.aborted {
                return 0;
            }
            searched += 1;

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    self.pv.update(ply, m);
                    if root {
                        self.root_best = Some(m);
                    }
                    if score >= beta {
                        self.on_beta_cutoff(m, quiet, &tried, &before, depth, ply, searched);
                        if picker.generated() == 0 {
                            self.stats.cutoffs_before_generation += 1;
                        }
                        if quiet
                            && self.switches.countermove
                            && let Some(previous) = previous
                        {
                            self.heuristics.store_counter_move(previous, m);
                        }
                        break;
                    }
                    alpha = score;
                }
            }
            if quiet {
                tried.quiets.push(m);
            } else {
                tried.noisy.push(m);
            }
        }
        self.stats.moves_generated += picker.generated();
        if !any_legal {
            return if in_check { -MATE + ply as i32 } else { DRAW };
        }
        if searched == 0 {
            // Only the excluded move was legal: nothing else reaches the singular bound.
            return alpha;
        }

        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.count_node_kind(node, bound);
        if let (Some(raw), Some(eval)) = (raw_eval, eval)
            && excluded.is_none()
        {
            self.learn_correction(raw, eval, best_score, bound, best_move, depth);
        }
        if self.switches.tt && excluded.is_none() {
            let stored = score_to_tt(best_score, ply);
            self.tt.store(key, best_move, stored, depth as u32, bound);
        }
        best_score
    }
    // ANCHOR_END: negamax

    /// Counts whether a node turned out the kind the search expected (M8's figures): a cut
    /// node that failed high, an all node that failed low.
    fn count_node_kind(&mut self, node: Node, bound: Bound) {
        match node {
            Node::Cut => {
                self.stats.cut_nodes += 1;
                self.stats.cut_nodes_failing_high += u64::from(bound == Bound::Lower);
            }
            Node::All => {
                self.stats.all_nodes += 1;
                self.stats.all_nodes_failing_low += u64::from(bound == Bound::Upper);
            }
            Node::Pv => {}
        }
    }

    // ANCHOR: m7_learn
    /// M7's correction history learns from a finished node (switch `corrhist`): the search's
    /// score against the raw static evaluation. Only where the score says something about the
    /// evaluation: not a mate, not a node decided by a capture (the evaluation never claimed
    /// to see the exchange), and not a bound on the wrong side of the evaluation (a fail-high
    /// whose score is below it only says the node is at least that good).
    fn learn_correction(
        &mut self,
        raw_eval: i32,
        eval: i32,
        score: i32,
        bound: Bound,
        best_move: Option<Move>,
        depth: i32,
    ) {
        let decided_by_capture = best_move.is_some_and(|m| !is_quiet(m));
        let uninformative = match bound {
            Bound::Lower => score <= eval,
            Bound::Upper => score >= eval,
            Bound::Exact => false,
        };
        if self.switches.corrhist
            && !decided_by_capture
            && !uninformative
            && score.abs() < MATE_BOUND
        {
            let pos = &self.pos;
            self.heuristics
                .correction
                .learn(pos, depth, score, raw_eval);
        }
    }
    // ANCHOR_END: m7_learn

    /// At depth 0: the quiescence search, or with it switched off the static evaluation.
    fn horizon(&mut self, alpha: i32, beta: i32, ply: usize) -> i32 {
        if self.switches.qsearch {
            return self.quiescence(alpha, beta, ply);
        }
        if self.should_stop() {
            return 0;
        }
        self.count_node(ply);
        self.cached_eval()
    }

    /// The table's entry for `key`, counted; none with the table switched off or in a
    /// singular-extension test (whose result is not the node's).
    fn probe_tt(&mut self, key: u64, excluded: Option<Move>) -> Option<Entry> {
        if !self.switches.tt || excluded.is_some() {
            return None;
        }
        self.stats.tt_probes += 1;
        let entry = self.tt.probe(key);
        if entry.is_some() {
            self.stats.tt_hits += 1;
        }
        entry
    }

    // ANCHOR: reverse_futility
    /// Reverse futility pruning (chapter 13): a node whose static evaluation beats beta by a
    /// margin that grows with depth is expected to fail high, and does so at once.
    /// An improving position (M3) gets the margin of a ply less: its evaluation is on the way
    /// up, so less of a lead is needed to trust it.
    fn reverse_futility(
        &mut self,
        eval: i32,
        beta: i32,
        depth: i32,
        improving: bool,
    ) -> Option<i32> {
        let margin = self.params.rfp_margin(depth - i32::from(improving));
        let applies = self.switches.rfp
            && depth <= self.params.rfp_max_depth
            && beta.abs() < MATE_BOUND
            && eval - margin >= beta;
        if applies {
            self.stats.rfp_cutoffs += 1;
            return Some(eval);
        }
        None
    }
    // ANCHOR_END: reverse_futility

    // ANCHOR: null_move
    /// Null-move pruning (chapter 11): let the opponent move twice in a row. If a shallower
    /// search still fails high, the real moves, at least one of which is better than passing,
    /// would too (CPW "Null Move Pruning"). Passing is worse than any move except in zugzwang,
    /// so it is not tried with only king and pawns, where zugzwang is common, nor twice in a
    /// row.
    fn null_move(
        &mut self,
        eval: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        node: Node,
    ) -> Option<i32> {
        let side = self.pos.side_to_move();
        let pieces = self.pos.colour(side)
            & !self.pos.pieces(side, PieceKind::Pawn)
            & !self.pos.pieces(side, PieceKind::King);
        let after_null = ply > 0 && self.null_played[ply - 1];
        let applies = self.switches.nullmove
            && depth >= self.params.null_move_min_depth
            && eval >= beta
            && beta.abs() < MATE_BOUND
            && pieces.any()
            && !after_null;
        if !applies {
            return None;
        }
        self.stats.null_tries += 1;
        let reduction = self.null_move_reduction(eval, beta, depth);
        self.pos.make_null();
        self.null_played[ply] = true;
        let score = -self.negamax(
            -beta,
            -beta + 1,
            depth - 1 - reduction,
            ply + 1,
            node.scout_child(),
            None,
        );
        self.null_played[ply] = false;
        self.pos.unmake_null();
        if self.aborted || score < beta {
            return None;
        }
        self.stats.null_cutoffs += 1;
        // A mate found after passing is not a mate the side can force: report beta instead.
        Some(if score >= MATE_BOUND { beta } else { score })
    }
    // ANCHOR_END: null_move

    // ANCHOR: null_move_reduction
    /// The null-move search's reduction: chapter 11's, growing with depth, and with M11's
    /// `nulleval` also with the evaluation's lead over beta.
    fn null_move_reduction(&mut self, eval: i32, beta: i32, depth: i32) -> i32 {
        let by_depth = self.params.null_move_reduction(depth);
        if !self.switches.nulleval {
            return by_depth;
        }
        let by_eval = self.params.null_move_eval_reduction(eval - beta);
        self.stats.null_eval_plies += by_eval as u64;
        by_depth + by_eval
    }
    // ANCHOR_END: null_move_reduction

    // ANCHOR: m3_tteval
    /// The table's score as a better static evaluation (M3, switch `tteval`). An entry's
    /// score comes from a search, which saw more than the evaluation can; where its bound
    /// says the truth lies beyond the evaluation (a lower bound above it, an upper bound below
    /// it, or an exact score), the prunings test that score instead. Stockfish and Ethereal
    /// both do this; the evaluation that `improving` compares stays the static one.
    fn table_refined_eval(&mut self, eval: i32, entry: Option<Entry>, ply: usize) -> i32 {
        let Some(entry) = entry.filter(|_| self.switches.tteval) else {
            return eval;
        };
        let score = score_from_tt(entry.score, ply);
        let nearer_the_truth = match entry.bound {
            Bound::Exact => true,
            Bound::Lower => score > eval,
            Bound::Upper => score < eval,
        };
        if nearer_the_truth && score.abs() < MATE_BOUND {
            self.stats.tt_evals += 1;
            return score;
        }
        eval
    }
    // ANCHOR_END: m3_tteval

    // ANCHOR: m3_razoring
    /// Razoring (M3, switch `razoring`): near the horizon, a node whose evaluation is so far
    /// below alpha that no quiet move can make up the difference is settled by quiescence
    /// alone (the horizon's search: with `qsearch` off, the static evaluation). If even the
    /// captures cannot lift it above alpha, it fails low without a single move searched
    /// (Birmingham and Kent's idea of 1977; CPW "Razoring"; Stockfish's depth-squared margin).
    fn razor(&mut self, eval: i32, alpha: i32, depth: i32, ply: usize) -> Option<i32> {
        let applies = self.switches.razoring
            && depth <= self.params.razor_max_depth
            && alpha.abs() < MATE_BOUND
            && eval + self.params.razor_margin(depth) <= alpha;
        if !applies {
            return None;
        }
        self.stats.razor_tries += 1;
        let score = self.horizon(alpha, alpha + 1, ply);
        if self.aborted || score > alpha {
            return None;
        }
        self.stats.razor_cutoffs += 1;
        Some(score)
    }
    // ANCHOR_END: m3_razoring

    // ANCHOR: m3_probcut
    /// ProbCut (M3, switch `probcut`): a deep search's result is predicted by a shallow one,
    /// so if a capture beats beta by a margin in a search `probcut_reduction` plies shallower,
    /// the full-depth search would very probably fail high too, and the node is cut (Michael
    /// Buro, "ProbCut: An Effective Selective Extension of the Alpha-Beta Algorithm", ICCA
    /// Journal 18(2), 1995; in chess engines' form, captures only, as in Stockfish and
    /// Ethereal). Each capture is first tried by quiescence, which is cheap and usually enough
    /// to reject it; a capture whose static exchange cannot reach the raised beta is not tried.
    fn probcut(
        &mut self,
        eval: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        node: Node,
        entry: Option<Entry>,
    ) -> Option<i32> {
        if !self.switches.probcut
            || depth < self.params.probcut_min_depth
            || beta.abs() >= MATE_BOUND
        {
            return None;
        }
        let raised_beta = beta + self.params.probcut_margin;
        let shallow_depth = depth - self.params.probcut_reduction;
        // The table already knows a search about as deep that stayed below the raised beta.
        let table_says_no = entry.is_some_and(|e| {
            i32::from(e.depth) > shallow_depth && score_from_tt(e.score, ply) < raised_beta
        });
        if table_says_no {
            return None;
        }
        let mut captures = MovePicker::quiescence(&self.pos, false, None);
        while let Some(m) = captures.next_move() {
            if see::see(&self.pos, m) < raised_beta - eval {
                continue;
            }
            self.stats.probcut_tries += 1;
            self.played[ply] = Some(m);
            self.moved[ply] = Some((self.pos.piece_moved(m), m.to()));
            self.pos.make_move(m);
            let window = (-raised_beta, -raised_beta + 1);
            let mut score = -self.horizon(window.0, window.1, ply + 1);
            if score >= raised_beta {
                let child = node.scout_child();
                score = -self.negamax(window.0, window.1, shallow_depth, ply + 1, child, None);
            }
            self.pos.unmake_move();
            if self.aborted {
                return None;
            }
            if score >= raised_beta {
                self.stats.probcut_cutoffs += 1;
                if self.switches.tt {
                    let stored = score_to_tt(score, ply);
                    let key = self.pos.key();
                    let depth = (shallow_depth + 1) as u32;
                    self.tt.store(key, Some(m), stored, depth, Bound::Lower);
                }
                return Some(score);
            }
        }
        None
    }
    // ANCHOR_END: m3_probcut

    // ANCHOR: is_futile
    /// Futility pruning (chapter 13): near the horizon, a quiet move from a position whose
    /// static evaluation is far below alpha will not raise it.
    fn is_futile(&self, eval: i32, alpha: i32, depth: i32) -> bool {
        self.switches.futility
            && depth <= self.params.futility_max_depth
            && alpha.abs() < MATE_BOUND
            && eval + self.params.futility_margin(depth) <= alpha
    }
    // ANCHOR_END: is_futile

    // ANCHOR: singular
    /// Singular extension test (chapter 14.1): is the hash move much better than every other
    /// move? The table says it scored at least `score` (a lower or exact bound) at a depth
    /// near this one; search the other moves at about half depth with a null window just
    /// below `score - margin`. If all of them fail low, the hash move is singular, the line
    /// hangs on it, and it earns a ply more (CPW "Singular Extensions").
    ///
    /// M3's multi-cut reads the same search the other way: if another move reached the bound,
    /// and the bound is at least beta, the node has two moves that beat beta and fails high
    /// at once (`multicut`).
    fn singularity(
        &mut self,
        entry: Entry,
        depth: i32,
        ply: usize,
        beta: i32,
        node: Node,
    ) -> Singularity {
        let tt_score = score_from_tt(entry.score, ply);
        let applies = self.switches.singular
            && depth >= self.params.singular_min_depth
            && matches!(entry.bound, Bound::Lower | Bound::Exact)
            && i32::from(entry.depth) >= depth - self.params.singular_tt_depth_slack
            && tt_score.abs() < MATE_BOUND;
        let Some(hash_move) = entry.best_move.filter(|_| applies) else {
            return Singularity::Neither;
        };
        self.stats.singular_searches += 1;
        let singular_beta = tt_score - self.params.singular_margin(depth);
        let depth = self.params.singular_depth(depth);
        // The same node searched again, with a null window: a PV node's test is not PV.
        let kind = if node == Node::Pv { Node::All } else { node };
        let score = self.negamax(
            singular_beta - 1,
            singular_beta,
            depth,
            ply,
            kind,
            Some(hash_move),
        );
        if self.aborted {
            return Singularity::Neither;
        }
        if score < singular_beta {
            self.stats.singular_extensions += 1;
            return Singularity::Singular;
        }
        if self.switches.multicut && node != Node::Pv && singular_beta >= beta {
            self.stats.multicuts += 1;
            return Singularity::MultiCut(singular_beta);
        }
        if self.switches.negext && tt_score >= beta {
            self.stats.negative_extensions += 1;
            return Singularity::NotAlone;
        }
        Singularity::Neither
    }
    // ANCHOR_END: singular

    // ANCHOR: search_late_move
    /// Searches a move after the first: reduced if late and quiet (chapter 12), with a null
    /// window (chapter 10), and again at full depth or with the full window when the result
    /// says the shortcut may have been wrong.
    #[allow(clippy::too_many_arguments)]
    fn search_late_move(
        &mut self,
        alpha: i32,
        beta: i32,
        depth: i32,
        new_depth: i32,
        ply: usize,
        node: Node,
        late: LateMove,
    ) -> i32 {
        let reduction = self.late_move_reduction(depth, new_depth, node, late);
        // Principal variation search: prove the move is no better than alpha with the
        // cheapest window; without it, every move gets the full window.
        let (low, high) = if self.switches.pvs {
            (-alpha - 1, -alpha)
        } else {
            (-beta, -alpha)
        };
        // A reduced move is expected to be refuted: its child is a cut node. Searched again at
        // full depth, it is a child like any other.
        let child = if reduction > 0 {
            Node::Cut
        } else {
            node.scout_child()
        };
        let mut score = -self.negamax(low, high, new_depth - reduction, ply + 1, child, None);
        if reduction > 0 && score > alpha {
            self.stats.lmr_researches += 1;
            let child = node.scout_child();
            score = -self.negamax(low, high, new_depth, ply + 1, child, None);
        }
        if self.switches.pvs && node == Node::Pv {
            self.stats.pvs_scouts += 1;
            if score > alpha && score < beta {
                self.stats.pvs_researches += 1;
                score = -self.negamax(-beta, -alpha, new_depth, ply + 1, Node::Pv, None);
            }
        }
        score
    }
    // ANCHOR_END: search_late_move

    // ANCHOR: late_move_reduction
    /// How many plies to take off a late move (chapter 12): the table's reduction for this
    /// depth and move number, one less on the principal variation and for killers, and never
    /// so much that the move drops straight into quiescence.
    fn late_move_reduction(
        &mut self,
        depth: i32,
        new_depth: i32,
        node: Node,
        late: LateMove,
    ) -> i32 {
        if !self.switches.lmr || !late.reducible || depth < self.params.lmr_min_depth {
            return 0;
        }
        let mut reduction = self.lmr.reduction(depth, late.number);
        reduction -= i32::from(node == Node::Pv) + i32::from(late.is_killer);
        // M8: at a node expected to fail high, a late move is even less likely to matter:
        // the cut, if it comes, comes from an earlier one.
        if self.switches.cutnode && node == Node::Cut {
            reduction += 1;
            self.stats.cut_node_reductions += 1;
        }
        // M2: a move that has done well before is reduced less, one that has done badly more.
        if self.switches.histlmr {
            reduction -= self.params.history_reduction_change(late.history);
        }
        // M3: a node whose evaluation is falling is less promising: reduce its moves more.
        if self.switches.improving && !late.improving {
            reduction += 1;
        }
        reduction += self.m19_reduction_change(late);
        let reduction = reduction.clamp(0, (new_depth - 1).max(0));
        if reduction > 0 {
            self.count_reduction(late);
        }
        reduction
    }
    // ANCHOR_END: late_move_reduction

    // ANCHOR: m19_reducible
    /// Whether a late move may be reduced at all. Chapter 12 reduces only quiet moves, out of
    /// check, that give no check. M19 adds two kinds of late move: a quiet move that gives
    /// check (switch `lmrchecks`), and a capture or under-promotion the picker keeps for its
    /// last stage because the exchange loses material (switch `lmrnoisy`). Both come late in
    /// the order for a reason, and both are still searched, only less deeply at first: if one
    /// beats alpha, chapter 12's re-search at full depth finds out.
    fn is_reducible(
        &self,
        quiet: bool,
        bad_noisy: bool,
        in_check: bool,
        gives_check: bool,
    ) -> bool {
        let kind = quiet || (bad_noisy && self.switches.lmrnoisy);
        let check = !gives_check || (quiet && self.switches.lmrchecks);
        !in_check && kind && check
    }

    /// M19's changes to a reduction. A check is reduced a ply less than a quiet move that
    /// gives none: a check forces the reply, and a check that looked poor at low depth is the
    /// likeliest of late moves to turn out a combination. Where the hash move is noisy, the
    /// best move here is probably that capture, and the quiet moves a ply more doubtful
    /// (Stockfish's `ttCapture`, in its `search.cpp`).
    fn m19_reduction_change(&self, late: LateMove) -> i32 {
        let mut change = 0;
        if self.switches.lmrchecks && late.gives_check {
            change -= 1;
        }
        if self.switches.ttnoisy && late.quiet && late.tt_move_noisy {
            change += 1;
        }
        change
    }
    // ANCHOR_END: m19_reducible

    /// Counts a reduced move, and of what kind, for the figures.
    fn count_reduction(&mut self, late: LateMove) {
        self.stats.lmr_reductions += 1;
        if late.gives_check {
            self.stats.reduced_checks += 1;
        }
        if !late.quiet {
            self.stats.reduced_bad_noisy += 1;
        }
        if self.switches.ttnoisy && late.quiet && late.tt_move_noisy {
            self.stats.tt_noisy_reductions += 1;
        }
    }

    // ANCHOR: m3_fns
    /// Whether the static evaluation at `ply` is better than at `ply − 2`, the last time the
    /// same side was to move (M3, switch `improving`): a position that is getting better
    /// deserves less suspicion from the prunings. Unknown (in check at either ply) is false.
    fn is_improving(&self, ply: usize) -> bool {
        self.switches.improving
            && ply >= 2
            && self.evals[ply] != NO_EVAL
            && self.evals[ply - 2] != NO_EVAL
            && self.evals[ply] > self.evals[ply - 2]
    }

    /// Late move pruning (M3, switch `lmp`): at low depth, once enough moves are tried, a
    /// quiet move this late in the order is very unlikely to be the best one (CPW "Late Move
    /// Pruning"): the move ordering of chapter 9 and M1 is what makes this safe.
    fn late_move_prunes(&self, depth: i32, move_number: usize, improving: bool) -> bool {
        self.switches.lmp
            && depth <= self.params.lmp_max_depth
            && move_number > self.params.lmp_count(depth, improving)
    }

    /// Static exchange pruning (M3, switch `seeprune`): at low depth, a move that loses more
    /// material in the exchange on its square than the depth's threshold is not searched.
    fn loses_exchange(&self, m: Move, quiet: bool, depth: i32) -> bool {
        self.switches.seeprune
            && depth <= self.params.see_prune_max_depth
            && see::see(&self.pos, m) < self.params.see_prune_threshold(depth, quiet)
    }

    /// Internal iterative reduction (M3, switch `iir`): a node the table knows no move for is
    /// searched a ply shallower. With no hash move the ordering is poor and the node was
    /// probably not worth a deep search before; the next iteration will find the move in the
    /// table (Ed Schröder's idea, as in Rebel; CPW "Internal Iterative Reductions").
    fn internal_iterative_reduction(
        &mut self,
        depth: i32,
        tt_move: Option<Move>,
        excluded: Option<Move>,
    ) -> bool {
        let applies = self.switches.iir
            && depth >= self.params.iir_min_depth
            && tt_move.is_none()
            && excluded.is_none();
        if applies {
            self.stats.iir_reductions += 1;
        }
        applies
    }
    // ANCHOR_END: m3_fns

    // ANCHOR: m2_fns
    /// The history of a quiet move with its continuation histories, for M2's reductions and
    /// pruning (0 for a capture, or with neither switch on: nothing reads it then).
    fn quiet_history(&self, m: Move, quiet: bool, before: &MovesBefore) -> i32 {
        let wanted = self.switches.histlmr || self.switches.histprune;
        if !quiet || !wanted || !self.switches.history {
            return 0;
        }
        self.heuristics
            .quiet_score(&self.pos, m, before, self.switches.conthist)
    }

    /// History pruning (M2, switch `histprune`): at low depth, a quiet move whose history
    /// says it has failed again and again in this search is not searched (the history
    /// pruning of Stockfish and Ethereal; the threshold falls with depth, so a deeper node
    /// asks for a worse record before it skips a move).
    fn history_prunes(&self, depth: i32, history: i32) -> bool {
        self.switches.histprune
            && depth <= self.params.history_prune_max_depth
            && history < self.params.history_prune_threshold(depth)
    }

    /// The moves that led to the node at `ply`, one ply back and two plies back, for M2's
    /// continuation histories: the piece that moved (as it was before the move) and where to;
    /// `None` before the root and for a null move.
    fn moves_before(&self, ply: usize) -> MovesBefore {
        let back = |plies: usize| {
            let at = ply.checked_sub(plies)?;
            if self.null_played[at] {
                return None;
            }
            self.moved[at]
        };
        [back(1), back(2)]
    }
    // ANCHOR_END: m2_fns

    // ANCHOR: previous_move
    /// The move that led to the node at `ply`: the piece that moved (as it stands now) and
    /// where to. `None` at the root and after a null move.
    fn previous_move(&self, ply: usize) -> Option<(Piece, Square)> {
        if ply == 0 || self.null_played[ply - 1] {
            return None;
        }
        let to = self.played[ply - 1]?.to();
        Some((self.pos.piece_on(to)?, to))
    }
    // ANCHOR_END: previous_move

    // ANCHOR: on_beta_cutoff
    /// Book-keeping for a move that failed high: the counters, and for a quiet move the
    /// killers and the history (rewarding it and penalising the quiet moves tried before it).
    /// M2's capture history rewards a capture that cut off and penalises the captures tried
    /// before the move that did; its continuation histories learn as the history does.
    #[allow(clippy::too_many_arguments)]
    fn on_beta_cutoff(
        &mut self,
        m: Move,
        quiet: bool,
        tried: &Tried,
        before: &MovesBefore,
        depth: i32,
        ply: usize,
        searched: usize,
    ) {
        self.stats.beta_cutoffs += 1;
        if searched == 1 {
            self.stats.first_move_cutoffs += 1;
        }
        let bonus = self.params.history_bonus(depth);
        if self.switches.capthist {
            let best = (!quiet).then_some(m);
            let noisy = tried.noisy.as_slice();
            self.heuristics
                .update_capture_history(&self.pos, best, noisy, bonus);
        }
        if !quiet {
            return;
        }
        if self.switches.killers {
            self.heuristics.store_killer(ply, m);
        }
        if self.switches.history {
            let side = self.pos.side_to_move();
            let quiets = tried.quiets.as_slice();
            self.heuristics.update_history(side, m, quiets, bonus);
            if self.switches.conthist {
                self.heuristics
                    .update_continuation(&self.pos, before, m, quiets, bonus);
            }
        }
    }
    // ANCHOR_END: on_beta_cutoff
}

// ANCHOR: tt_cutoff
/// The score a table entry lets a non-PV node return at once: the entry must be at least as
/// deep as the node, and its bound must settle the window (an exact score always does; a
/// lower bound at or above beta fails high; an upper bound at or below alpha fails low).
pub(super) fn tt_cutoff(
    entry: Entry,
    depth: i32,
    alpha: i32,
    beta: i32,
    ply: usize,
) -> Option<i32> {
    if i32::from(entry.depth) < depth {
        return None;
    }
    let score = score_from_tt(entry.score, ply);
    let settles = match entry.bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    };
    settles.then_some(score)
}
// ANCHOR_END: tt_cutoff
