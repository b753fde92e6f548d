//! The staged move picker (milestone M1): each kind of move generated only when the search
//! reaches it.
//!
//! Chapter 9's [`MovePicker`] generates every legal move of a node and scores them all before
//! the first is searched. But most nodes that cut off do so on the hash move or a good capture
//! (chapter 9 counts it), and then the quiet moves were generated, scored and never looked at.
//! The staged picker hands out the same kinds of moves in the same order, and does only the
//! work each stage needs:
//!
//! 1. the hash move, checked for legality in the position without generating anything
//!    ([`Position::is_pseudo_legal_and_legal`]): a table entry may belong to another position
//!    with the same index, or come from a key collision;
//! 2. the noisy moves (captures, queen promotions), generated alone and sorted by MVV-LVA;
//!    those that lose material by static exchange evaluation are put aside for the end;
//! 3. the two killers of the ply and the counter-move (the quiet move that last refuted the
//!    opponent's move), each checked for legality as the hash move is;
//! 4. the quiet moves, generated alone, by history; under-promotions after them;
//! 5. the captures put aside.
//!
//! Late move pruning (M3) ends the quiet moves of a node: once one is pruned for coming too
//! late, every later one is too. With M21's switch `skipquiets` the search says so to the picker
//! ([`Picker::skip_quiets`]), which then hands out no more quiet moves instead of selecting each
//! one for the search to throw away.
//!
//! In check there are few moves, and all of them are generated at once (chapter 9's picker).
//! The idea is as old as engines (CPW "Move Generation", *Staged move generation*); Stockfish's
//! `movepick.cpp` and Ethereal's `movepicker.c` are well-known staged pickers.

use super::ordering::{Heuristics, MovePicker, MovesBefore, is_quiet, noisy_score, select_best};
use crate::movegen::MoveList;
use crate::moves::Move;
use crate::position::Position;
use crate::switches::Switches;

/// Where the staged picker is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    HashMove,
    GenerateNoisy,
    GoodNoisy,
    FirstKiller,
    SecondKiller,
    CounterMove,
    GenerateQuiets,
    Quiets,
    BadNoisy,
    Done,
}

/// Scores at or above this are good noisy moves; below it, bad ones (chapter 9's scale).
const GOOD_NOISY_FLOOR: i32 = 0;

// ANCHOR: staged_picker
/// The moves of an alpha-beta node out of check, generated stage by stage.
#[derive(Clone, Debug)]
pub struct StagedPicker {
    stage: Stage,
    hash_move: Option<Move>,
    killers: [Option<Move>; 2],
    counter_move: Option<Move>,
    /// The two moves before the node, for M2's continuation histories.
    before: MovesBefore,
    /// The stage's generated moves and their scores; `next` is the first not handed out.
    moves: MoveList,
    scores: [i32; 256],
    next: usize,
    /// Noisy moves that lose material, met best first, then under-promotions: kept for the
    /// last stage, with the next of them to hand out. (Chapter 9's picker sorts the two
    /// together by MVV-LVA; under-promotions are rare enough for the difference not to matter.)
    bad_noisy: MoveList,
    bad_next: usize,
    /// How many moves the generator listed, for the M1 figures.
    generated: u64,
    /// Whether the search has stopped the quiet moves (M21).
    quiets_skipped: bool,
}
// ANCHOR_END: staged_picker

impl StagedPicker {
    /// A picker for a node out of check with its hash move, killers and counter-move.
    pub fn new(
        hash_move: Option<Move>,
        killers: [Option<Move>; 2],
        counter_move: Option<Move>,
        before: MovesBefore,
    ) -> StagedPicker {
        StagedPicker {
            stage: Stage::HashMove,
            hash_move,
            before,
            counter_move: counter_move.filter(|&m| is_quiet(m)),
            // A killer is a quiet move; a capture there (a sibling's move that captures here)
            // belongs to the captures' stage.
            killers: killers.map(|killer| killer.filter(|&m| is_quiet(m))),
            moves: MoveList::new(),
            scores: [0; 256],
            next: 0,
            bad_noisy: MoveList::new(),
            bad_next: 0,
            generated: 0,
            quiets_skipped: false,
        }
    }

    /// How many moves the picker has generated so far.
    pub fn generated(&self) -> u64 {
        self.generated
    }

    // ANCHOR: next_staged
    /// The next move to search, or `None` when every legal move has been handed out. `pos` is
    /// the node's position, as it was when the picker was made.
    pub fn next_move(
        &mut self,
        pos: &Position,
        heuristics: &Heuristics,
        switches: &Switches,
    ) -> Option<Move> {
        loop {
            match self.stage {
                Stage::HashMove => {
                    self.stage = Stage::GenerateNoisy;
                    if let Some(m) = self.hash_move
                        && !(self.quiets_skipped && is_quiet(m))
                        && pos.is_pseudo_legal_and_legal(m)
                    {
                        return Some(m);
                    }
                    self.hash_move = None;
                }
                Stage::GenerateNoisy => {
                    self.generate(pos.legal_captures(), |m| {
                        noisy_score(pos, m, heuristics, switches)
                    });
                    self.stage = Stage::GoodNoisy;
                }
                Stage::GoodNoisy => match self.best_remaining() {
                    Some((m, score)) if score >= GOOD_NOISY_FLOOR => return Some(m),
                    Some((m, _)) => self.bad_noisy.push(m),
                    None => self.stage = Stage::FirstKiller,
                },
                Stage::FirstKiller | Stage::SecondKiller => {
                    let index = usize::from(self.stage == Stage::SecondKiller);
                    self.stage = if index == 0 {
                        Stage::SecondKiller
                    } else {
                        Stage::CounterMove
                    };
                    if let Some(m) = self.killers[index]
                        && !self.quiets_skipped
                        && self.is_new_killer(index, m)
                        && pos.is_pseudo_legal_and_legal(m)
                    {
                        return Some(m);
                    }
                    self.killers[index] = None;
                }
                Stage::CounterMove => {
                    self.stage = Stage::GenerateQuiets;
                    if let Some(m) = self.counter_move
                        && !self.quiets_skipped
                        && Some(m) != self.hash_move
                        && !self.killers.contains(&Some(m))
                        && pos.is_pseudo_legal_and_legal(m)
                    {
                        return Some(m);
                    }
                    self.counter_move = None;
                }
                Stage::GenerateQuiets => {
                    let before = self.before;
                    let skipped = self.quiets_skipped;
                    self.generate(pos.legal_quiets(), |m| {
                        if !is_quiet(m) {
                            noisy_score(pos, m, heuristics, switches)
                        } else if switches.history && !skipped {
                            heuristics.quiet_score(pos, m, &before, switches.conthist)
                        } else {
                            0
                        }
                    });
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets if self.quiets_skipped => {
                    self.put_aside_under_promotions();
                    self.stage = Stage::BadNoisy;
                }
                Stage::Quiets => match self.best_remaining() {
                    Some((m, _)) if !is_quiet(m) => self.bad_noisy.push(m),
                    Some((m, _)) => return Some(m),
                    None => self.stage = Stage::BadNoisy,
                },
                Stage::BadNoisy => {
                    let next = self.bad_noisy.as_slice().get(self.bad_next).copied();
                    self.bad_next += 1;
                    if next.is_none() {
                        self.stage = Stage::Done;
                    }
                    return next;
                }
                Stage::Done => return None,
            }
        }
    }
    // ANCHOR_END: next_staged

    // ANCHOR: skip_quiets
    /// Hands out no more quiet moves: no killer, no counter-move, no quiet move by history
    /// (M21, switch `skipquiets`). The search calls it when late move pruning prunes a quiet
    /// move, since every later quiet move would be pruned too; the picker then goes straight
    /// to the moves it keeps for last. Under-promotions are generated with the quiet moves, and
    /// are still handed out with the losing captures.
    pub fn skip_quiets(&mut self) {
        self.quiets_skipped = true;
    }

    /// The under-promotions among the quiet stage's moves not handed out, put aside for the
    /// last stage, best first (of equal scores, the first listed). They score below every quiet
    /// move, so without the skip they would have come after all of the quiet moves, in the same
    /// order but where two have equal scores: the selection's swaps may have reordered those.
    fn put_aside_under_promotions(&mut self) {
        let mut rest: Vec<(i32, usize)> = (self.next..self.moves.len())
            .filter(|&i| !is_quiet(self.moves[i]))
            .map(|i| (self.scores[i], i))
            .collect();
        rest.sort_by_key(|&(score, i)| (std::cmp::Reverse(score), i));
        for (_, i) in rest {
            self.bad_noisy.push(self.moves[i]);
        }
        self.next = self.moves.len();
    }
    // ANCHOR_END: skip_quiets

    /// Whether killer `index` is a quiet move not handed out already (the hash move, or the
    /// first killer when it is the same move).
    fn is_new_killer(&self, index: usize, m: Move) -> bool {
        is_quiet(m) && Some(m) != self.hash_move && (index == 0 || Some(m) != self.killers[0])
    }

    /// Makes `moves` the stage's list, scored by `score`, leaving out what was handed out
    /// before it was generated (the hash move, the killers).
    fn generate(&mut self, moves: MoveList, score: impl Fn(Move) -> i32) {
        self.generated += moves.len() as u64;
        self.moves = MoveList::new();
        self.next = 0;
        for &m in moves.iter() {
            let handed_out = Some(m) == self.hash_move
                || self.killers.contains(&Some(m))
                || Some(m) == self.counter_move;
            if !handed_out {
                self.scores[self.moves.len()] = score(m);
                self.moves.push(m);
            }
        }
    }

    /// The best-scored move of the stage not yet handed out, and its score (chapter 9's
    /// selection step).
    fn best_remaining(&mut self) -> Option<(Move, i32)> {
        select_best(&mut self.moves, &mut self.scores, &mut self.next)
    }
}

/// The move picker of an alpha-beta node: chapter 9's, or M1's staged one (switch `staged`),
/// which in check falls back to chapter 9's.
// Both variants live on the node's stack frame; boxing one would cost an allocation a node.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Picker {
    Scored(MovePicker),
    Staged(StagedPicker),
}

impl Picker {
    /// The picker the switches ask for. `counter_move` is `None` unless the switch
    /// `countermove` is on.
    pub fn new(
        pos: &Position,
        hash_move: Option<Move>,
        killers: [Option<Move>; 2],
        counter_move: Option<Move>,
        before: MovesBefore,
        heuristics: &Heuristics,
        switches: &Switches,
    ) -> Picker {
        if switches.staged && !pos.in_check() {
            return Picker::Staged(StagedPicker::new(hash_move, killers, counter_move, before));
        }
        let mut picker = MovePicker::new(pos, hash_move, killers, &before, heuristics, switches);
        if let Some(m) = counter_move {
            picker.prefer_counter_move(m);
        }
        Picker::Scored(picker)
    }

    /// The next move to search (see [`StagedPicker::next_move`]).
    #[inline]
    pub fn next_move(
        &mut self,
        pos: &Position,
        heuristics: &Heuristics,
        switches: &Switches,
    ) -> Option<Move> {
        match self {
            Picker::Scored(picker) => picker.next_move(),
            Picker::Staged(picker) => picker.next_move(pos, heuristics, switches),
        }
    }

    // ANCHOR: m19_bad_noisy
    /// Whether the move handed out last came from the staged picker's last stage: a capture
    /// the exchange says loses material, or an under-promotion (M19's `lmrnoisy` reduces
    /// those). Chapter 9's picker does not sort them apart, and says no.
    pub fn handing_out_bad_noisy(&self) -> bool {
        match self {
            Picker::Scored(_) => false,
            Picker::Staged(picker) => picker.stage == Stage::BadNoisy,
        }
    }
    // ANCHOR_END: m19_bad_noisy

    /// Hands out no more quiet moves (M21; see [`StagedPicker::skip_quiets`]). Chapter 9's
    /// picker, used in check, has every move in one list and goes on as before.
    pub fn skip_quiets(&mut self) {
        if let Picker::Staged(picker) = self {
            picker.skip_quiets();
        }
    }

    /// How many moves the picker has generated so far.
    pub fn generated(&self) -> u64 {
        match self {
            Picker::Scored(picker) => picker.len() as u64,
            Picker::Staged(picker) => picker.generated(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::magic::SplitMix64;
    use crate::search::ordering::Heuristics;
    use std::collections::BTreeSet;

    /// Every move the picker hands out, in order.
    fn drain(pos: &Position, mut picker: StagedPicker, switches: &Switches) -> Vec<Move> {
        let heuristics = Heuristics::default();
        std::iter::from_fn(|| picker.next_move(pos, &heuristics, switches)).collect()
    }

    fn pick<'a>(moves: &'a [Move], rng: &mut SplitMix64) -> Option<&'a Move> {
        (!moves.is_empty()).then(|| &moves[rng.next_u64() as usize % moves.len()])
    }

    /// Over random games, with hash moves and killers drawn from this position's moves or from
    /// other positions' (as a table entry or a sibling's killer may be), the staged picker hands
    /// out every legal move exactly once, and nothing else.
    #[test]
    fn the_staged_picker_hands_out_every_legal_move_once() {
        let mut rng = SplitMix64::new(2026);
        let switches = Switches::default();
        let mut foreign: Vec<Move> = Vec::new();
        for game in 0..60 {
            let mut pos = Position::startpos();
            for _ in 0..120 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                if !pos.in_check() {
                    let from_here = pick(legal.as_slice(), &mut rng).copied();
                    let from_elsewhere = pick(&foreign, &mut rng).copied();
                    let hash = if game % 2 == 0 {
                        from_here
                    } else {
                        from_elsewhere
                    };
                    let killers = [from_elsewhere, pick(legal.as_slice(), &mut rng).copied()];
                    let counter = if game % 3 == 0 {
                        from_here
                    } else {
                        from_elsewhere
                    };
                    let picker = StagedPicker::new(hash, killers, counter, [None, None]);
                    let order = drain(&pos, picker, &switches);
                    let handed: BTreeSet<u16> = order.iter().map(|m| m.to_bits()).collect();
                    let expected: BTreeSet<u16> = legal.iter().map(|m| m.to_bits()).collect();
                    assert_eq!(
                        handed.len(),
                        order.len(),
                        "a move twice in {}",
                        pos.to_fen()
                    );
                    assert_eq!(handed, expected, "{}", pos.to_fen());
                    if let Some(hash) = hash.filter(|m| legal.contains(m)) {
                        assert_eq!(order[0], hash, "the hash move first");
                    }
                }
                foreign.extend(legal.iter().copied().take(3));
                let m = *pick(legal.as_slice(), &mut rng).expect("a legal move");
                pos.make_move(m);
            }
        }
    }

    /// Over random games: a picker told to skip the quiet moves after handing out some moves
    /// hands out no quiet move after that, and every capture and promotion the picker without
    /// the skip would still have handed out: the captures in the same order, the
    /// under-promotions (which come last of all, and whose ties the selection may order either
    /// way) as the same set.
    #[test]
    fn skipping_quiets_keeps_every_capture_and_promotion() {
        let mut rng = SplitMix64::new(21);
        let switches = Switches::default();
        let heuristics = Heuristics::default();
        let mut skipped_some = 0;
        for _ in 0..40 {
            let mut pos = Position::startpos();
            for _ in 0..150 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                if !pos.in_check() {
                    let killers = [pick(legal.as_slice(), &mut rng).copied(), None];
                    let hash = pick(legal.as_slice(), &mut rng).copied();
                    let new = || StagedPicker::new(hash, killers, None, [None, None]);
                    let whole = drain(&pos, new(), &switches);
                    let cut = rng.next_u64() as usize % (whole.len() + 1);
                    let mut picker = new();
                    for expected in &whole[..cut] {
                        let m = picker.next_move(&pos, &heuristics, &switches);
                        assert_eq!(m, Some(*expected));
                    }
                    picker.skip_quiets();
                    let rest = drain(&pos, picker, &switches);
                    assert!(rest.iter().all(|&m| !is_quiet(m)), "{}", pos.to_fen());
                    let wanted: Vec<Move> = whole[cut..]
                        .iter()
                        .copied()
                        .filter(|&m| !is_quiet(m))
                        .collect();
                    let captures = |moves: &[Move]| -> Vec<Move> {
                        moves.iter().copied().filter(|m| m.is_capture()).collect()
                    };
                    let promotions = |moves: &[Move]| -> BTreeSet<u16> {
                        moves
                            .iter()
                            .filter(|m| !m.is_capture())
                            .map(|m| m.to_bits())
                            .collect()
                    };
                    assert_eq!(captures(&rest), captures(&wanted), "{}", pos.to_fen());
                    assert_eq!(promotions(&rest), promotions(&wanted), "{}", pos.to_fen());
                    assert_eq!(rest.len(), wanted.len(), "{}", pos.to_fen());
                    skipped_some += usize::from(whole[cut..].iter().any(|&m| is_quiet(m)));
                }
                let m = *pick(legal.as_slice(), &mut rng).expect("a legal move");
                pos.make_move(m);
            }
        }
        assert!(
            skipped_some > 1_000,
            "quiet moves were skipped: {skipped_some}"
        );
    }

    #[test]
    fn the_stages_come_in_chapter_nines_order() {
        // White to move: Qxd5 loses the queen to the c6 pawn (bad capture), exd5 wins a pawn
        // (good capture).
        let pos = Position::from_fen("4k3/8/2p5/3p4/4P3/8/8/3QK3 w - - 0 1").expect("valid");
        let mv = |t: &str| pos.parse_uci_move(t).expect("legal");
        let hash = mv("d1a4");
        let killer = mv("e1f2");
        let switches = Switches::default();
        let picker =
            StagedPicker::new(Some(hash), [Some(killer), Some(killer)], None, [None, None]);
        let order = drain(&pos, picker, &switches);
        assert_eq!(order.len(), pos.legal_moves().len());
        assert_eq!(&order[..3], &[hash, mv("e4d5"), killer]);
        assert_eq!(order.last(), Some(&mv("d1d5")));

        // A hash move of another position is skipped, and nothing is generated before a
        // legal hash move is handed out.
        let mut picker = StagedPicker::new(Some(mv("d1a4")), [None, None], None, [None, None]);
        let heuristics = Heuristics::default();
        assert_eq!(picker.next_move(&pos, &heuristics, &switches), Some(hash));
        assert_eq!(picker.generated(), 0);
        let other = Position::startpos().parse_uci_move("g1f3").expect("legal");
        let order = drain(
            &pos,
            StagedPicker::new(Some(other), [None, None], None, [None, None]),
            &switches,
        );
        assert_eq!(order[0], mv("e4d5"), "not g1f3: no knight there");
    }
}
