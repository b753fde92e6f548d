//! Move ordering (chapter 9): alpha-beta cuts off sooner the sooner it meets the best move, so
//! each node lists its moves best-guess first.
//!
//! The guesses, in order (CPW "Move Ordering"):
//!
//! 1. the transposition table's move, the best move of an earlier search of this position;
//! 2. good captures and queen promotions, the most valuable victim first and, among equal
//!    victims, the least valuable attacker first (MVV-LVA); "good" means static exchange
//!    evaluation does not lose material;
//! 3. the two killer moves of this ply: quiet moves that cut off in a sibling node;
//! 4. the other quiet moves by their history score: how often and how deep they cut off before;
//! 5. captures that lose material, and under-promotions.
//!
//! The picker scores the legal moves once and hands out the best remaining one at each call (a
//! selection sort that stops as soon as a move cuts off, so the rest is never sorted).

use super::MAX_PLY;
use super::correction::CorrectionHistory;
use super::evalcache::EvalCache;
use super::see;
use crate::eval2::PawnTable;
use crate::movegen::MoveList;
use crate::moves::Move;
use crate::position::{Piece, PieceKind, Position};
use crate::square::{Color, Square};
use crate::switches::Switches;

/// History scores stay within ±`HISTORY_MAX`: see [`Heuristics::update_history`].
pub const HISTORY_MAX: i32 = 16_384;

const TT_MOVE: i32 = 1 << 30;
const GOOD_NOISY: i32 = 1 << 28;
const KILLER: i32 = 1 << 27;
const BAD_NOISY: i32 = -(1 << 28);

/// Whether `m` is a quiet move: neither a capture nor a promotion.
#[inline]
pub fn is_quiet(m: Move) -> bool {
    !m.is_capture() && !m.is_promotion()
}

/// A move as the continuation histories see it: the piece that moved and where to.
pub type PieceTo = (Piece, Square);

/// The two moves before a node (one ply back, two plies back), each `None` at the root or
/// after a null move: the keys of M2's continuation histories.
pub type MovesBefore = [Option<PieceTo>; 2];

/// The continuation histories' entries: for each of the two plies back, every (piece, square)
/// before against every (piece, square) now.
const CONTINUATION_LEN: usize = 2 * 768 * 768;

/// What the search learns about moves across nodes: killers per ply and the history
/// table per side, from-square and to-square (CPW "Killer Heuristic", "History Heuristic");
/// M2's capture history and continuation histories.
/// Each search thread has its own, so it also holds the thread's pawn table (chapter 18's
/// evaluation), which is not about ordering but is per thread in the same way.
#[derive(Clone, Debug)]
pub struct Heuristics {
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
    history: [[[i32; 64]; 64]; 2],
    /// The quiet move that last refuted each move, by the moved piece and its destination
    /// (M1's counter-move heuristic).
    counter_moves: [[Option<Move>; 64]; 12],
    /// M2's capture history: by the capturing piece, the destination and the kind captured
    /// (the king's slot, which no capture can take, for a promotion that captures nothing).
    capture_history: [[[i32; 6]; 64]; 12],
    /// M2's continuation histories, flat: see [`continuation_index`]. `i16` keeps them at
    /// 2.4 MB a thread; gravity keeps every entry within ±[`HISTORY_MAX`], which fits.
    continuation: Vec<i16>,
    /// Evaluation II's pawn-structure table (allocated at its first use).
    pub pawns: PawnTable,
    /// M7's correction history: what the search found the static evaluation off by.
    pub correction: CorrectionHistory,
    /// M18's evaluation cache: the static evaluations this thread computed lately.
    pub evals: EvalCache,
}

impl Default for Heuristics {
    fn default() -> Heuristics {
        Heuristics {
            killers: [[None; 2]; MAX_PLY + 1],
            history: [[[0; 64]; 64]; 2],
            counter_moves: [[None; 64]; 12],
            capture_history: [[[0; 6]; 64]; 12],
            continuation: vec![0; CONTINUATION_LEN],
            pawns: PawnTable::new(),
            correction: CorrectionHistory::default(),
            evals: EvalCache::new(),
        }
    }
}

impl Heuristics {
    /// Forgets everything (a new game, or before each bench position).
    pub fn clear(&mut self) {
        *self = Heuristics::default();
    }

    /// Prepares for a new search: killers belong to the plies of the last search's tree and
    /// are dropped; history is halved, so old experience fades but still counts (aging).
    /// M2's histories are kept as they are: gravity alone lets them forget (as in Stockfish,
    /// which never ages its histories), and halving 1.2 million entries a move costs time.
    pub fn prepare_for_search(&mut self) {
        self.killers = [[None; 2]; MAX_PLY + 1];
        for entry in self.history.iter_mut().flatten().flatten() {
            *entry /= 2;
        }
    }

    /// The killer moves of `ply`, newest first.
    #[inline]
    pub fn killers(&self, ply: usize) -> [Option<Move>; 2] {
        self.killers[ply.min(MAX_PLY)]
    }

    /// Remembers `m` as the newest killer of `ply`; the older of the two is dropped.
    pub fn store_killer(&mut self, ply: usize, m: Move) {
        let slot = &mut self.killers[ply.min(MAX_PLY)];
        if slot[0] != Some(m) {
            slot[1] = slot[0];
            slot[0] = Some(m);
        }
    }

    // ANCHOR: counter_move
    /// The quiet move that last cut off in reply to `previous`, the piece that moved and
    /// where to (CPW "Countermove Heuristic", Jos Uiterwijk 1992): a refutation that
    /// depends on the move it answers rather than on the ply, as a killer does.
    #[inline]
    pub fn counter_move(&self, previous: (Piece, Square)) -> Option<Move> {
        let (piece, to) = previous;
        self.counter_moves[piece_index(piece)][to.index()]
    }

    /// Remembers `m` as the refutation of `previous`.
    pub fn store_counter_move(&mut self, previous: (Piece, Square), m: Move) {
        let (piece, to) = previous;
        self.counter_moves[piece_index(piece)][to.index()] = Some(m);
    }
    // ANCHOR_END: counter_move

    /// The history score of `side` playing `m`.
    #[inline]
    pub fn history(&self, side: Color, m: Move) -> i32 {
        self.history[side.index()][m.from().index()][m.to().index()]
    }

    // ANCHOR: update_history
    /// After a quiet move `best` cut off: reward it with `bonus` (which grows with the depth,
    /// `Params::history_bonus`), and penalise the quiet moves tried before it (`tried`), which
    /// failed to. The update has "gravity": it shrinks as the score nears ±[`HISTORY_MAX`],
    /// `h += bonus - h × |bonus| / HISTORY_MAX`, so a score can never leave the range and
    /// recent results weigh more than old ones (the form of Stockfish and Ethereal; CPW
    /// "History Heuristic").
    pub fn update_history(&mut self, side: Color, best: Move, tried: &[Move], bonus: i32) {
        self.nudge(side, best, bonus);
        for &m in tried {
            self.nudge(side, m, -bonus);
        }
    }

    fn nudge(&mut self, side: Color, m: Move, bonus: i32) {
        gravity(
            &mut self.history[side.index()][m.from().index()][m.to().index()],
            bonus,
        );
    }
    // ANCHOR_END: update_history

    // ANCHOR: quiet_score
    /// How good a quiet move `m` of `pos` looks from experience: its history and, with M2's
    /// `conthist`, its two continuation histories, how it fared as a reply to the move just
    /// played and as a follow-up to our own move before that (CPW "History Heuristic",
    /// *Continuation History*; the tables of Stockfish's `movepick.h`). A move can be good
    /// in general and bad after this particular move; the sum sees both.
    pub fn quiet_score(
        &self,
        pos: &Position,
        m: Move,
        before: &MovesBefore,
        conthist: bool,
    ) -> i32 {
        let mut score = self.history(pos.side_to_move(), m);
        if conthist {
            let now = (pos.piece_moved(m), m.to());
            for (offset, previous) in before.iter().enumerate() {
                if let Some(previous) = *previous {
                    score +=
                        i32::from(self.continuation[continuation_index(offset, previous, now)]);
                }
            }
        }
        score
    }

    /// After a quiet move `best` of `pos` cut off: M2's continuation histories learn it as
    /// chapter 9's history does, a bonus for `best` and a malus for each quiet move tried
    /// before it, under the same gravity.
    pub fn update_continuation(
        &mut self,
        pos: &Position,
        before: &MovesBefore,
        best: Move,
        tried: &[Move],
        bonus: i32,
    ) {
        let moves = std::iter::once((best, bonus)).chain(tried.iter().map(|&m| (m, -bonus)));
        for (m, bonus) in moves {
            let now = (pos.piece_moved(m), m.to());
            for (offset, previous) in before.iter().enumerate() {
                if let Some(previous) = *previous {
                    let entry = &mut self.continuation[continuation_index(offset, previous, now)];
                    let mut value = i32::from(*entry);
                    gravity(&mut value, bonus);
                    *entry = value as i16;
                }
            }
        }
    }
    // ANCHOR_END: quiet_score

    // ANCHOR: capture_history
    /// The capture history of a capture or promotion `m` of `pos` (M2's `capthist`): how often
    /// this piece taking this kind of piece on this square cut off before. MVV-LVA ranks
    /// captures by what they take; this learns which of them work in the positions of this
    /// search (CPW "History Heuristic"; the capture history of Stockfish and Ethereal).
    pub fn capture_history(&self, pos: &Position, m: Move) -> i32 {
        let (piece, to, victim) = capture_key(pos, m);
        self.capture_history[piece][to][victim]
    }

    /// After a node cut off: a bonus for `best` if it is a capture or promotion, and a malus
    /// for the captures and promotions tried before it, which did not cut off.
    pub fn update_capture_history(
        &mut self,
        pos: &Position,
        best: Option<Move>,
        tried: &[Move],
        bonus: i32,
    ) {
        let moves = best.into_iter().map(|m| (m, bonus));
        for (m, bonus) in moves.chain(tried.iter().map(|&m| (m, -bonus))) {
            let (piece, to, victim) = capture_key(pos, m);
            gravity(&mut self.capture_history[piece][to][victim], bonus);
        }
    }
    // ANCHOR_END: capture_history
}

/// The history update with gravity of [`Heuristics::update_history`]:
/// `h += bonus - h × |bonus| / HISTORY_MAX`.
fn gravity(entry: &mut i32, bonus: i32) {
    *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
}

/// Where the continuation history of the move `now`, `offset + 1` plies after `previous`, is.
fn continuation_index(offset: usize, previous: PieceTo, now: PieceTo) -> usize {
    let square_of = |(piece, square): PieceTo| piece_index(piece) * 64 + square.index();
    (offset * 768 + square_of(previous)) * 768 + square_of(now)
}

/// The capture history's indices of `m`: the moving piece, the destination, the kind taken.
fn capture_key(pos: &Position, m: Move) -> (usize, usize, usize) {
    let victim = pos
        .captured_piece(m)
        .map_or(PieceKind::King.index(), |p| p.kind.index());
    (piece_index(pos.piece_moved(m)), m.to().index(), victim)
}

/// 0 to 11: White's pawn to king, then Black's.
fn piece_index(piece: Piece) -> usize {
    piece.color.index() * 6 + piece.kind.index()
}

// ANCHOR: mvv_lva
/// Most valuable victim, least valuable attacker: the victim's kind counts eight times the
/// attacker's, and a promotion counts as capturing the new piece.
fn mvv_lva(pos: &Position, m: Move) -> i32 {
    let victim = pos
        .captured_piece(m)
        .map_or(0, |p| p.kind.index() as i32 + 1);
    let promotion = see::promotion_kind(m).map_or(0, |kind| kind.index() as i32);
    let attacker = pos.piece_moved(m).kind.index() as i32;
    8 * (victim + promotion) - attacker
}
// ANCHOR_END: mvv_lva

/// The legal moves of a node with their ordering scores, handed out best first.
#[derive(Clone)]
pub struct MovePicker {
    moves: MoveList,
    scores: [i32; 256],
    next: usize,
}

impl std::fmt::Debug for MovePicker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MovePicker")
            .field("moves", &self.moves)
            .field("next", &self.next)
            .finish()
    }
}

impl MovePicker {
    // ANCHOR: move_picker
    /// Every legal move of an alpha-beta node, scored in the order of the module comment.
    /// Switched-off features leave their moves where the others put them.
    pub fn new(
        pos: &Position,
        tt_move: Option<Move>,
        killers: [Option<Move>; 2],
        before: &MovesBefore,
        heuristics: &Heuristics,
        switches: &Switches,
    ) -> MovePicker {
        let moves = pos.legal_moves();
        let mut scores = [0; 256];
        for (score, &m) in scores.iter_mut().zip(moves.iter()) {
            *score = if Some(m) == tt_move {
                TT_MOVE
            } else if !is_quiet(m) {
                noisy_score(pos, m, heuristics, switches)
            } else if killers[0] == Some(m) {
                KILLER
            } else if killers[1] == Some(m) {
                KILLER - 1
            } else if switches.history {
                heuristics.quiet_score(pos, m, before, switches.conthist)
            } else {
                0
            };
        }
        MovePicker {
            moves,
            scores,
            next: 0,
        }
    }
    // ANCHOR_END: move_picker

    /// Moves the counter-move `m` (M1) just after the killers, if it is a quiet move of this
    /// node that is neither the hash move nor a killer.
    pub fn prefer_counter_move(&mut self, m: Move) {
        let counter = KILLER - 2;
        let moves = self.moves.as_slice();
        if let Some(i) = moves.iter().position(|&listed| listed == m)
            && is_quiet(m)
            && self.scores[i] < counter
        {
            self.scores[i] = counter;
        }
    }

    /// The moves of a quiescence node: captures and queen promotions by MVV-LVA, or every
    /// evasion when in check (captures first); the table's move, if it is one of them, before
    /// all (M17). Being in the list is its legality check.
    pub fn quiescence(pos: &Position, in_check: bool, table_move: Option<Move>) -> MovePicker {
        let moves = if in_check {
            pos.legal_moves()
        } else {
            pos.legal_captures()
        };
        let mut scores = [0; 256];
        for (score, &m) in scores.iter_mut().zip(moves.iter()) {
            *score = if Some(m) == table_move {
                TT_MOVE
            } else if is_quiet(m) {
                0
            } else {
                GOOD_NOISY + mvv_lva(pos, m)
            };
        }
        MovePicker {
            moves,
            scores,
            next: 0,
        }
    }

    /// How many legal moves the node has.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the node has no legal move (mate or stalemate).
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The best-scored move not yet handed out. Of equal scores the one generated first comes
    /// first, so the order is deterministic.
    pub fn next_move(&mut self) -> Option<Move> {
        select_best(&mut self.moves, &mut self.scores, &mut self.next).map(|(m, _)| m)
    }
}

/// One step of a selection sort: the best-scored of `moves[*next..]` (of equal scores the one
/// listed first), swapped to `*next`, which moves on; with its score. The sort stops as soon as
/// a move cuts off, so the rest is never sorted.
pub(super) fn select_best(
    moves: &mut MoveList,
    scores: &mut [i32; 256],
    next: &mut usize,
) -> Option<(Move, i32)> {
    if *next >= moves.len() {
        return None;
    }
    let mut best = *next;
    for i in *next + 1..moves.len() {
        // Strictly greater: of equal scores the first listed stays.
        if scores[i] > scores[best] {
            best = i;
        }
    }
    moves.as_mut_slice().swap(*next, best);
    scores.swap(*next, best);
    let picked = (moves[*next], scores[*next]);
    *next += 1;
    Some(picked)
}

// ANCHOR: noisy_score
/// The score of a capture or promotion: good ones before the killers, losing captures and
/// under-promotions after every quiet move. Within each group MVV-LVA ranks them, and M2's
/// capture history (switch `capthist`) adds what it learnt: a step of MVV-LVA is worth
/// `MVV_LVA_STEP` and a victim kind eight steps, so a history at its limit is worth four
/// victim kinds.
pub(super) fn noisy_score(
    pos: &Position,
    m: Move,
    heuristics: &Heuristics,
    switches: &Switches,
) -> i32 {
    let under_promotion = see::promotion_kind(m).is_some_and(|kind| kind != PieceKind::Queen);
    let good = !under_promotion && (!switches.see || see::is_non_negative(pos, m));
    let base = if good { GOOD_NOISY } else { BAD_NOISY };
    let learnt = if switches.capthist {
        heuristics.capture_history(pos, m)
    } else {
        0
    };
    base + MVV_LVA_STEP * mvv_lva(pos, m) + learnt
}
// ANCHOR_END: noisy_score

/// The weight of one step of MVV-LVA against the capture history (see [`noisy_score`]).
const MVV_LVA_STEP: i32 = 512;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::pruning::Params;

    #[test]
    fn history_stays_in_range_under_gravity() {
        let mut heuristics = Heuristics::default();
        let pos = Position::startpos();
        let m = pos.parse_uci_move("e2e4").expect("legal");
        for _ in 0..10_000 {
            heuristics.update_history(Color::White, m, &[], Params::DEFAULT.history_bonus(40));
        }
        let score = heuristics.history(Color::White, m);
        assert!(score > HISTORY_MAX / 2 && score <= HISTORY_MAX, "{score}");
        heuristics.prepare_for_search();
        assert_eq!(heuristics.history(Color::White, m), score / 2);
    }

    #[test]
    fn killers_keep_the_two_newest() {
        let pos = Position::startpos();
        let [a, b, c] = ["e2e4", "d2d4", "g1f3"].map(|t| pos.parse_uci_move(t).expect("legal"));
        let mut heuristics = Heuristics::default();
        heuristics.store_killer(3, a);
        heuristics.store_killer(3, b);
        heuristics.store_killer(3, b);
        assert_eq!(heuristics.killers(3), [Some(b), Some(a)]);
        heuristics.store_killer(3, c);
        assert_eq!(heuristics.killers(3), [Some(c), Some(b)]);
        assert_eq!(heuristics.killers(4), [None, None]);
    }

    #[test]
    fn picker_orders_tt_move_good_captures_killers_quiets_bad_captures() {
        // White to move: Qxd5 loses the queen to the c6 pawn (bad capture), exd5 wins a pawn
        // (good capture).
        let pos = Position::from_fen("4k3/8/2p5/3p4/4P3/8/8/3QK3 w - - 0 1").expect("valid");
        let mv = |t: &str| pos.parse_uci_move(t).expect("legal");
        let tt_move = mv("d1a4");
        let killer = mv("e1f2");
        let heuristics = Heuristics::default();
        let mut picker = MovePicker::new(
            &pos,
            Some(tt_move),
            [Some(killer), None],
            &[None, None],
            &heuristics,
            &Switches::default(),
        );
        let order: Vec<Move> = std::iter::from_fn(|| picker.next_move()).collect();
        assert_eq!(order.len(), pos.legal_moves().len());
        assert_eq!(&order[..3], &[tt_move, mv("e4d5"), killer]);
        assert_eq!(order.last(), Some(&mv("d1d5")));

        let no_see = Switches {
            see: false,
            ..Switches::default()
        };
        let mut picker = MovePicker::new(
            &pos,
            None,
            [Some(killer), None],
            &[None, None],
            &heuristics,
            &no_see,
        );
        let order: Vec<Move> = std::iter::from_fn(|| picker.next_move()).collect();
        assert_eq!(
            &order[..3],
            &[mv("e4d5"), mv("d1d5"), killer],
            "without SEE no capture is bad"
        );
    }
}
