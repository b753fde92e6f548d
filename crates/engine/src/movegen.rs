//! Legal move generation (chapter 3).
//!
//! The generator produces only legal moves, with no "make it and see whether the king hangs"
//! step. Three facts about the king decide legality (CPW: Pin, Checks and Pinned Pieces, and
//! the approach of fast perft programs such as qperft and Gigantua):
//!
//! - **Checkers.** In double check only the king may move. In single check every other piece
//!   must capture the checker or step between it and the king: its targets are limited to the
//!   *check mask* `between(king, checker) | checker`.
//! - **Pins.** A piece standing alone between its king and an enemy slider on the same line may
//!   move only along that line: its targets are limited to `line(king, piece)`.
//! - **The king** may not step onto an attacked square, and the test must look *through* the king
//!   itself (a king retreating along a rook's ray is still attacked there).
//!
//! En passant is the one move that removes two pieces from a rank at once, so it is tested the
//! slow way: make the capture on a copy of the occupancy and look for attackers of the king.
//!
//! The same generator either lists moves or only counts them: it hands sets of target squares to
//! a [`MoveSink`], and the counting sink adds up their popcounts. Perft's last ply needs only the
//! count, so it never materialises a move ("bulk counting").

use crate::attacks::{self, Sliders, between, king_attacks, knight_attacks, line};
use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveKind};
use crate::position::{Board, CastlingRights, PieceKind, Position};
use crate::square::{Color, Square};
use std::fmt;

// ANCHOR: move_list
/// A list of moves with room for 256, on the stack: no allocation. No legal position has more
/// than 218 moves.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; 256],
    len: usize,
}
// ANCHOR_END: move_list

/// Fills the unused slots of a `MoveList` (never read).
const FILLER: Move = Move::new(Square::new(0), Square::new(1), MoveKind::Quiet);

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        MoveList {
            moves: [FILLER; 256],
            len: 0,
        }
    }

    /// Appends `m`.
    #[inline]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len] = m;
        self.len += 1;
    }

    /// The moves, as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves, as a mutable slice (to sort them, for instance).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];

    #[inline]
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl std::ops::DerefMut for MoveList {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Move] {
        self.as_mut_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.iter().map(|m| m.to_string()))
            .finish()
    }
}

// ANCHOR: move_sink
/// Where the generator puts what it finds: whole sets of target squares at a time, so that a
/// sink that only counts can add popcounts instead of looking at each move.
trait MoveSink {
    /// A piece on `from` may go to each of `targets`; those in `enemies` are captures.
    fn piece_moves(&mut self, from: Square, targets: Bitboard, enemies: Bitboard);
    /// Pawn moves of one `kind` to each of `targets`, each from `offset` squares back.
    fn pawn_moves(&mut self, targets: Bitboard, offset: i8, kind: MoveKind);
    /// Promotions to each of `targets`, one move per kind in `kinds`.
    fn promotions(&mut self, targets: Bitboard, offset: i8, kinds: &[MoveKind]);
    /// One move (castling, en passant).
    fn single(&mut self, m: Move);
}

/// Counts moves without making them.
struct Counter(usize);

impl MoveSink for Counter {
    #[inline]
    fn piece_moves(&mut self, _: Square, targets: Bitboard, _: Bitboard) {
        self.0 += targets.count() as usize;
    }

    #[inline]
    fn pawn_moves(&mut self, targets: Bitboard, _: i8, _: MoveKind) {
        self.0 += targets.count() as usize;
    }

    #[inline]
    fn promotions(&mut self, targets: Bitboard, _: i8, kinds: &[MoveKind]) {
        self.0 += targets.count() as usize * kinds.len();
    }

    #[inline]
    fn single(&mut self, _: Move) {
        self.0 += 1;
    }
}
// ANCHOR_END: move_sink

/// The square `offset` squares before `to` (`offset` is `to - from`).
#[inline]
fn origin(to: Square, offset: i8) -> Square {
    Square::new((to.index() as i8 - offset) as u8)
}

impl MoveSink for MoveList {
    #[inline]
    fn piece_moves(&mut self, from: Square, targets: Bitboard, enemies: Bitboard) {
        for to in targets & enemies {
            self.push(Move::new(from, to, MoveKind::Capture));
        }
        for to in targets - enemies {
            self.push(Move::new(from, to, MoveKind::Quiet));
        }
    }

    #[inline]
    fn pawn_moves(&mut self, targets: Bitboard, offset: i8, kind: MoveKind) {
        for to in targets {
            self.push(Move::new(origin(to, offset), to, kind));
        }
    }

    #[inline]
    fn promotions(&mut self, targets: Bitboard, offset: i8, kinds: &[MoveKind]) {
        for to in targets {
            for &kind in kinds {
                self.push(Move::new(origin(to, offset), to, kind));
            }
        }
    }

    #[inline]
    fn single(&mut self, m: Move) {
        self.push(m);
    }
}

/// Which moves to generate. `NOISY` generation (for quiescence search) keeps captures, queen
/// promotions and captures promoting to a queen; under-promotions count as quiet (as in
/// Stockfish). `QUIET` generation is the rest, for a move picker that generates the quiet
/// moves only once the captures have failed to cut off (M1). The choice is a const generic, so
/// each variant compiles to its own code.
const ALL: u8 = 0;
const NOISY: u8 = 1;
const QUIET: u8 = 2;

const QUIET_PROMOTIONS: [MoveKind; 4] = [
    MoveKind::QueenPromotion,
    MoveKind::RookPromotion,
    MoveKind::BishopPromotion,
    MoveKind::KnightPromotion,
];
const CAPTURE_PROMOTIONS: [MoveKind; 4] = [
    MoveKind::QueenPromotionCapture,
    MoveKind::RookPromotionCapture,
    MoveKind::BishopPromotionCapture,
    MoveKind::KnightPromotionCapture,
];

/// What every part of the generator needs to know about the position, computed once.
struct Context<'a> {
    board: &'a Board,
    sliders: &'static Sliders,
    us: Color,
    them: Color,
    ours: Bitboard,
    theirs: Bitboard,
    occupied: Bitboard,
    king: Square,
}

impl<'a> Context<'a> {
    #[inline]
    fn new(board: &'a Board) -> Context<'a> {
        let us = board.side_to_move;
        let them = us.flip();
        let ours = board.by_color[us.index()];
        let theirs = board.by_color[them.index()];
        Context {
            board,
            sliders: attacks::sliders(),
            us,
            them,
            ours,
            theirs,
            occupied: ours | theirs,
            king: board.king_square(us),
        }
    }

    /// Enemy sliders and pieces attacking our king.
    #[inline]
    fn checkers(&self) -> Bitboard {
        self.board
            .attackers_to(self.king, self.occupied, self.sliders)
            & self.theirs
    }

    // ANCHOR: pinned
    /// Our pieces pinned to our king. Look from the king with our own pieces made transparent
    /// (occupancy = the enemy's pieces only): the enemy sliders seen that way are the possible
    /// pinners. Each pins whatever single piece of ours stands between it and the king.
    #[inline]
    fn pinned(&self) -> Bitboard {
        let board = self.board;
        let queens = board.by_kind[PieceKind::Queen.index()];
        let diagonal = (board.by_kind[PieceKind::Bishop.index()] | queens) & self.theirs;
        let straight = (board.by_kind[PieceKind::Rook.index()] | queens) & self.theirs;
        let pinners = (self.sliders.bishop(self.king, self.theirs) & diagonal)
            | (self.sliders.rook(self.king, self.theirs) & straight);
        let mut pinned = Bitboard::EMPTY;
        for pinner in pinners {
            let blockers = between(self.king, pinner) & self.occupied;
            if !blockers.more_than_one() {
                pinned |= blockers & self.ours;
            }
        }
        pinned
    }
    // ANCHOR_END: pinned

    // ANCHOR: king_safe_after
    /// Whether our king would be attacked after a move from `from` to `to` that also removes an
    /// enemy piece from `captured` (the target square, or the pawn taken en passant). The slow,
    /// sure test: rebuild the occupancy and look for attackers.
    #[inline]
    fn king_safe_after(&self, from: Square, to: Square, captured: Square) -> bool {
        let occupied = self.occupied.without(from).without(captured).with(to);
        let king = if from == self.king { to } else { self.king };
        let attackers = self.board.attackers_to(king, occupied, self.sliders);
        (attackers & self.theirs.without(captured)).is_empty()
    }
    // ANCHOR_END: king_safe_after

    // ANCHOR: king_moves
    /// The king's moves to squares no enemy piece attacks, with the king removed from the
    /// board so that it does not hide the squares behind it from a slider.
    #[inline]
    fn king_moves<S: MoveSink>(&self, targets: Bitboard, sink: &mut S) {
        let without_king = self.occupied.without(self.king);
        let mut safe = Bitboard::EMPTY;
        for to in king_attacks(self.king) & targets {
            if !self
                .board
                .is_attacked_by(self.them, to, without_king, self.sliders)
            {
                safe = safe.with(to);
            }
        }
        sink.piece_moves(self.king, safe, self.theirs);
    }
    // ANCHOR_END: king_moves

    // ANCHOR: castling_moves
    /// Castling: the right is still held (so king and rook are at home), the squares between
    /// them are empty, and the king is not in check, does not pass through an attacked square
    /// and does not land on one. Called only when not in check.
    #[inline]
    fn castling_moves<S: MoveSink>(&self, sink: &mut S) {
        let rights = self.board.castling;
        let home = self.king;
        let king_side = CastlingRights::king_side(self.us);
        let queen_side = CastlingRights::queen_side(self.us);
        if rights.contains(king_side) {
            let (f, g) = (offset_square(home, 1), offset_square(home, 2));
            let path = Bitboard::from_square(f) | Bitboard::from_square(g);
            if (path & self.occupied).is_empty() && !self.attacked(f) && !self.attacked(g) {
                sink.single(Move::new(home, g, MoveKind::KingCastle));
            }
        }
        if rights.contains(queen_side) {
            let (d, c, b) = (
                offset_square(home, -1),
                offset_square(home, -2),
                offset_square(home, -3),
            );
            let path =
                Bitboard::from_square(d) | Bitboard::from_square(c) | Bitboard::from_square(b);
            if (path & self.occupied).is_empty() && !self.attacked(d) && !self.attacked(c) {
                sink.single(Move::new(home, c, MoveKind::QueenCastle));
            }
        }
    }
    // ANCHOR_END: castling_moves

    #[inline]
    fn attacked(&self, square: Square) -> bool {
        self.board
            .is_attacked_by(self.them, square, self.occupied, self.sliders)
    }

    // ANCHOR: pawn_moves
    /// Moves of the pawns in `pawns`, each limited to `allowed` (the check mask, and for a
    /// pinned pawn also its pin line). All pawns move at once: one shift gives every single
    /// push, a second every double push, and one shift plus a step aside every capture.
    #[inline]
    fn pawn_moves<S: MoveSink, const KIND: u8>(
        &self,
        pawns: Bitboard,
        allowed: Bitboard,
        sink: &mut S,
    ) {
        let (up, third_rank, last_rank) = match self.us {
            Color::White => (8, Bitboard::rank(2), Bitboard::RANK_8),
            Color::Black => (-8, Bitboard::rank(5), Bitboard::RANK_1),
        };
        let empty = !self.occupied;
        let advanced = pawns.forward(self.us);
        let single = advanced & empty;
        let double = (single & third_rank).forward(self.us) & empty & allowed;
        let single = single & allowed;
        let captures_west = advanced.west() & self.theirs & allowed;
        let captures_east = advanced.east() & self.theirs & allowed;

        if KIND != NOISY {
            sink.pawn_moves(single - last_rank, up, MoveKind::Quiet);
            sink.pawn_moves(double, 2 * up, MoveKind::DoublePawnPush);
        }
        if KIND != QUIET {
            sink.pawn_moves(captures_west - last_rank, up - 1, MoveKind::Capture);
            sink.pawn_moves(captures_east - last_rank, up + 1, MoveKind::Capture);
        }
        let (quiet, captures): (&[MoveKind], &[MoveKind]) = match KIND {
            NOISY => (&QUIET_PROMOTIONS[..1], &CAPTURE_PROMOTIONS[..1]),
            QUIET => (&QUIET_PROMOTIONS[1..], &CAPTURE_PROMOTIONS[1..]),
            _ => (&QUIET_PROMOTIONS, &CAPTURE_PROMOTIONS),
        };
        sink.promotions(single & last_rank, up, quiet);
        sink.promotions(captures_west & last_rank, up - 1, captures);
        sink.promotions(captures_east & last_rank, up + 1, captures);
    }
    // ANCHOR_END: pawn_moves

    // ANCHOR: en_passant_moves
    /// En-passant captures, each tested by making it on the occupancy (see the module comment).
    #[inline]
    fn en_passant_moves<S: MoveSink>(&self, sink: &mut S) {
        let Some(target) = self.board.en_passant else {
            return;
        };
        let captured = Square::new(match self.us {
            Color::White => target.index() as u8 - 8,
            Color::Black => target.index() as u8 + 8,
        });
        let pawns = self.board.pieces(self.us, PieceKind::Pawn);
        for from in attacks::pawn_attacks(self.them, target) & pawns {
            if self.king_safe_after(from, target, captured) {
                sink.single(Move::new(from, target, MoveKind::EnPassant));
            }
        }
    }
    // ANCHOR_END: en_passant_moves

    // ANCHOR: generate
    /// Every legal move (`KIND == ALL`), every legal noisy move (`KIND == NOISY`) or every
    /// other one (`KIND == QUIET`).
    #[inline]
    fn generate<S: MoveSink, const KIND: u8>(&self, sink: &mut S) {
        let enemy_or_empty = match KIND {
            NOISY => self.theirs,
            QUIET => !self.occupied,
            _ => !self.ours,
        };
        self.king_moves(enemy_or_empty, sink);

        let checkers = self.checkers();
        if checkers.more_than_one() {
            return;
        }
        let check_mask = match checkers.first() {
            Some(checker) => between(self.king, checker).with(checker),
            None => Bitboard::ALL,
        };
        let targets = enemy_or_empty & check_mask;
        let pinned = self.pinned();
        let board = self.board;
        let (us, occupied, theirs) = (self.us, self.occupied, self.theirs);

        for from in board.pieces(us, PieceKind::Knight) - pinned {
            sink.piece_moves(from, knight_attacks(from) & targets, theirs);
        }
        let queens = board.pieces(us, PieceKind::Queen);
        for from in board.pieces(us, PieceKind::Bishop) | queens {
            let mut reach = self.sliders.bishop(from, occupied) & targets;
            if pinned.contains(from) {
                reach &= line(self.king, from);
            }
            sink.piece_moves(from, reach, theirs);
        }
        for from in board.pieces(us, PieceKind::Rook) | queens {
            let mut reach = self.sliders.rook(from, occupied) & targets;
            if pinned.contains(from) {
                reach &= line(self.king, from);
            }
            sink.piece_moves(from, reach, theirs);
        }

        let pawns = board.pieces(us, PieceKind::Pawn);
        self.pawn_moves::<S, KIND>(pawns - pinned, check_mask, sink);
        // A pinned piece can never answer a check: its line and the check's meet only at the king.
        if checkers.is_empty() {
            for from in pawns & pinned {
                let allowed = line(self.king, from);
                self.pawn_moves::<S, KIND>(Bitboard::from_square(from), allowed, sink);
            }
        }
        if KIND != QUIET {
            self.en_passant_moves(sink);
        }
        if KIND != NOISY && checkers.is_empty() {
            self.castling_moves(sink);
        }
    }
    // ANCHOR_END: generate
}

/// The square `files` files east (negative: west) of `square`, on the same rank.
#[inline]
fn offset_square(square: Square, files: i8) -> Square {
    Square::new((square.index() as i8 + files) as u8)
}

/// Why a move in UCI notation was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not of the form `e2e4` or `e7e8q`.
    Malformed(String),
    /// Well formed, but not a legal move in the position.
    Illegal(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Malformed(text) => write!(
                f,
                "'{text}' is not a move in UCI notation (like e2e4 or e7e8q)"
            ),
            MoveError::Illegal(text) => write!(f, "{text} is not a legal move in this position"),
        }
    }
}

impl std::error::Error for MoveError {}

impl Board {
    /// Every legal move.
    #[inline]
    pub(crate) fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        Context::new(self).generate::<MoveList, ALL>(&mut list);
        list
    }

    // ANCHOR: count_legal_moves
    /// The number of legal moves, counted without listing them.
    #[inline]
    pub(crate) fn count_legal_moves(&self) -> usize {
        let mut counter = Counter(0);
        Context::new(self).generate::<Counter, ALL>(&mut counter);
        counter.0
    }
    // ANCHOR_END: count_legal_moves
}

impl Position {
    /// Every legal move.
    #[inline]
    pub fn legal_moves(&self) -> MoveList {
        self.board.legal_moves()
    }

    /// The legal "noisy" moves, for quiescence search: captures (en passant included) and
    /// promotions to a queen, capturing or not. Under-promotions are left out. In check this is
    /// not every evasion: a quiescence search in check should use [`Position::legal_moves`].
    #[inline]
    pub fn legal_captures(&self) -> MoveList {
        let mut list = MoveList::new();
        Context::new(&self.board).generate::<MoveList, NOISY>(&mut list);
        list
    }

    /// The legal moves [`Position::legal_captures`] leaves out: quiet moves, castling and
    /// under-promotions (capturing or not). The two lists together are the legal moves.
    #[inline]
    pub fn legal_quiets(&self) -> MoveList {
        let mut list = MoveList::new();
        Context::new(&self.board).generate::<MoveList, QUIET>(&mut list);
        list
    }

    /// The number of legal moves, counted without listing them (perft's "bulk counting").
    #[inline]
    pub fn count_legal_moves(&self) -> usize {
        self.board.count_legal_moves()
    }

    /// The legal move written `text` in UCI notation (`e2e4`, `e7e8q`, castling as the king's
    /// move `e1g1`).
    pub fn parse_uci_move(&self, text: &str) -> Result<Move, MoveError> {
        let bytes = text.as_bytes();
        let well_formed = matches!(bytes.len(), 4 | 5)
            && text.is_ascii()
            && Square::parse(&text[0..2]).is_some()
            && Square::parse(&text[2..4]).is_some()
            && (bytes.len() == 4 || matches!(bytes[4], b'q' | b'r' | b'b' | b'n'));
        if !well_formed {
            return Err(MoveError::Malformed(text.chars().take(20).collect()));
        }
        self.legal_moves()
            .iter()
            .copied()
            .find(|m| m.to_string() == text)
            .ok_or_else(|| MoveError::Illegal(text.to_string()))
    }

    /// Whether `m` is a legal move here: a cheap test for a move that comes from somewhere
    /// other than this position's generator (a transposition-table entry, a killer slot), which
    /// may belong to another position. It checks the piece, the kind, the path, and then the
    /// king's safety after the move, without generating the other moves.
    pub fn is_pseudo_legal_and_legal(&self, m: Move) -> bool {
        let context = Context::new(&self.board);
        let board = &self.board;
        let (from, to) = (m.from(), m.to());
        if !context.ours.contains(from) || context.ours.contains(to) {
            return false;
        }
        let Some(moved) = board.mailbox[from.index()] else {
            return false;
        };
        match m.kind() {
            MoveKind::KingCastle | MoveKind::QueenCastle => {
                if context.checkers().any() {
                    return false;
                }
                let mut castles = MoveList::new();
                context.castling_moves(&mut castles);
                return castles.contains(&m);
            }
            MoveKind::EnPassant => {
                return moved == PieceKind::Pawn
                    && board.en_passant == Some(to)
                    && attacks::pawn_attacks(context.us, from).contains(to)
                    && context.king_safe_after(
                        from,
                        to,
                        Square::new(((from.index() & !7) | (to.index() & 7)) as u8),
                    );
            }
            _ => {}
        }
        if m.is_capture() != context.theirs.contains(to) {
            return false;
        }
        if !reaches(&context, moved, m) {
            return false;
        }
        context.king_safe_after(from, to, to)
    }
}

/// Whether the piece `moved` on `m.from()` can make the non-castling, non-en-passant move `m`
/// as far as its pattern and the board's occupancy go (the target's occupant is already checked).
fn reaches(context: &Context, moved: PieceKind, m: Move) -> bool {
    let (from, to) = (m.from(), m.to());
    let last_rank = match context.us {
        Color::White => Bitboard::RANK_8,
        Color::Black => Bitboard::RANK_1,
    };
    if moved != PieceKind::Pawn {
        let pattern = match moved {
            PieceKind::Knight => knight_attacks(from),
            PieceKind::Bishop => context.sliders.bishop(from, context.occupied),
            PieceKind::Rook => context.sliders.rook(from, context.occupied),
            PieceKind::Queen => {
                context.sliders.bishop(from, context.occupied)
                    | context.sliders.rook(from, context.occupied)
            }
            _ => king_attacks(from),
        };
        return matches!(m.kind(), MoveKind::Quiet | MoveKind::Capture) && pattern.contains(to);
    }
    if m.is_promotion() != last_rank.contains(to) {
        return false;
    }
    let one_step = Bitboard::from_square(from).forward(context.us);
    if m.is_capture() {
        return attacks::pawn_attacks(context.us, from).contains(to);
    }
    let empty = !context.occupied;
    match m.kind() {
        MoveKind::DoublePawnPush => {
            let start_rank = match context.us {
                Color::White => Bitboard::rank(1),
                Color::Black => Bitboard::rank(6),
            };
            start_rank.contains(from) && (one_step & empty).forward(context.us).contains(to)
        }
        _ => one_step.contains(to),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves_of(fen: &str) -> Vec<String> {
        let position = Position::from_fen(fen).expect("a valid FEN");
        let mut moves: Vec<String> = position
            .legal_moves()
            .iter()
            .map(|m| m.to_string())
            .collect();
        moves.sort();
        moves
    }

    #[test]
    fn startpos_has_twenty_moves_and_counting_agrees() {
        let p = Position::startpos();
        assert_eq!(p.legal_moves().len(), 20);
        assert_eq!(p.count_legal_moves(), 20);
        assert!(p.legal_captures().is_empty());
    }

    #[test]
    fn double_check_allows_only_king_moves() {
        // Black king e8 in check from the rook on e1 and the knight on d6.
        let moves = moves_of("4k3/8/3N4/8/8/8/8/4RK2 b - - 0 1");
        assert_eq!(moves, vec!["e8d7", "e8d8", "e8f8"]);
    }

    #[test]
    fn a_pinned_piece_moves_only_along_its_pin() {
        let moves = moves_of("4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1");
        let rook_moves: Vec<&String> = moves.iter().filter(|m| m.starts_with("e2")).collect();
        assert_eq!(rook_moves, vec!["e2e3", "e2e4", "e2e5", "e2e6", "e2e7"]);
    }

    #[test]
    fn en_passant_that_uncovers_a_check_along_the_rank_is_illegal() {
        let moves = moves_of("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1");
        assert!(!moves.contains(&"e5d6".to_string()));
        let moves = moves_of("8/8/8/K2pP3/8/8/8/7k w - d6 0 1");
        assert!(moves.contains(&"e5d6".to_string()));
    }

    #[test]
    fn castling_is_refused_through_or_into_check() {
        // The black rook on f8 covers f1: no king-side castling; queen side is free.
        let moves = moves_of("4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
        assert!(!moves.contains(&"e1g1".to_string()));
        assert!(moves.contains(&"e1c1".to_string()));
        // A rook on b8 attacks b1, which the king does not cross: queen side still allowed.
        let moves = moves_of("1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
        assert!(moves.contains(&"e1c1".to_string()));
        // In check: no castling at all.
        let moves = moves_of("4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1");
        assert!(!moves.iter().any(|m| m == "e1g1" || m == "e1c1"));
    }

    #[test]
    fn promotions_come_in_four_and_noisy_keeps_queens() {
        let p = Position::from_fen("1n5k/P7/8/8/8/8/8/K7 w - - 0 1").expect("valid");
        let all: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
        for m in [
            "a7a8q", "a7a8r", "a7a8b", "a7a8n", "a7b8q", "a7b8r", "a7b8b", "a7b8n",
        ] {
            assert!(all.contains(&m.to_string()), "{m} missing");
        }
        let mut noisy: Vec<String> = p.legal_captures().iter().map(|m| m.to_string()).collect();
        noisy.sort();
        assert_eq!(noisy, vec!["a7a8q", "a7b8q"]);
    }

    #[test]
    fn uci_moves_are_parsed_against_the_legal_moves() {
        let p = Position::startpos();
        assert_eq!(
            p.parse_uci_move("e2e4").map(|m| m.kind()),
            Ok(MoveKind::DoublePawnPush)
        );
        assert!(matches!(
            p.parse_uci_move("e2e5"),
            Err(MoveError::Illegal(_))
        ));
        assert!(matches!(
            p.parse_uci_move("e2"),
            Err(MoveError::Malformed(_))
        ));
        assert!(matches!(
            p.parse_uci_move("é2e4"),
            Err(MoveError::Malformed(_))
        ));
        assert!(matches!(
            p.parse_uci_move("e7e8k"),
            Err(MoveError::Malformed(_))
        ));
    }

    /// Every 16-bit pattern is tested against the generator in positions full of special
    /// cases: `is_pseudo_legal_and_legal` must accept exactly the legal moves.
    #[test]
    fn pseudo_legality_check_agrees_with_the_generator_on_every_bit_pattern() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1",
            "4k3/8/3N4/8/8/8/8/4RK2 b - - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "4k3/8/8/8/8/8/1p6/R3K2R b KQ - 0 1",
        ] {
            let p = Position::from_fen(fen).expect("valid");
            let legal = p.legal_moves();
            for bits in 0..=u16::MAX {
                let Some(m) = Move::from_bits(bits) else {
                    continue;
                };
                assert_eq!(
                    p.is_pseudo_legal_and_legal(m),
                    legal.contains(&m),
                    "{m:?} in {fen}"
                );
            }
        }
    }
}
