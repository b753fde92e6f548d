//! The position: where the pieces are, whose move it is, and what the rules remember (chapter 4).
//!
//! Two views of the same board are kept in step: a bitboard per piece kind and per colour, which
//! move generation works with, and a "mailbox" (what stands on each square), which answers
//! "which piece is on e4?" in one lookup when a move is made (CPW: Board Representation).
//!
//! **Copy-make.** Everything that changes when a move is made fits in one small `Copy` struct,
//! [`Board`] (about 150 bytes). `make_move` pushes a copy of it onto a stack and changes the
//! board in place; `unmake_move` pops the copy back. Unmaking therefore cannot get anything
//! wrong (there is nothing to undo by hand: no captured piece, old castling rights, old
//! en-passant square or old clock to restore), and copying 150 bytes is a handful of vector
//! moves. The stack doubles as the history of keys for repetition detection. Perft, which makes
//! nothing but moves, skips even the stack: it copies each child board on the call stack and
//! never unmakes, about 20% faster than `make_move`/`unmake_move` (chapter 5).

use crate::attacks::{self, Sliders};
use crate::bitboard::Bitboard;
use crate::eval2::{PSQ, Packed, WeightSet};
use crate::moves::{Move, MoveKind};
use crate::square::{Color, Square};
use crate::zobrist::KEYS;
use std::fmt;

/// The six kinds of piece, indexed 0..6 for tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PieceKind {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
}

impl PieceKind {
    /// Every kind, in index order.
    pub const ALL: [PieceKind; 6] = [
        PieceKind::Pawn,
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
        PieceKind::King,
    ];

    /// 0 for a pawn up to 5 for a king.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lowercase letter of FEN and of UCI promotions: `p n b r q k`.
    pub const fn letter(self) -> char {
        match self {
            PieceKind::Pawn => 'p',
            PieceKind::Knight => 'n',
            PieceKind::Bishop => 'b',
            PieceKind::Rook => 'r',
            PieceKind::Queen => 'q',
            PieceKind::King => 'k',
        }
    }
}

/// A piece: a colour and a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub kind: PieceKind,
}

impl Piece {
    /// The piece of `color` and `kind`.
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }

    /// FEN's letter: uppercase for White (`N`), lowercase for Black (`n`).
    pub const fn to_char(self) -> char {
        let letter = self.kind.letter();
        match self.color {
            Color::White => letter.to_ascii_uppercase(),
            Color::Black => letter,
        }
    }

    /// The piece a FEN letter names; `None` for any other character.
    pub fn from_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let kind = PieceKind::ALL
            .into_iter()
            .find(|kind| kind.letter() == c.to_ascii_lowercase())?;
        Some(Piece::new(color, kind))
    }
}

/// The four castling rights as bits: White king side 1, White queen side 2, Black king side 4,
/// Black queen side 8.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CastlingRights(pub u8);

impl CastlingRights {
    pub const NONE: CastlingRights = CastlingRights(0);
    pub const WHITE_KING_SIDE: CastlingRights = CastlingRights(1);
    pub const WHITE_QUEEN_SIDE: CastlingRights = CastlingRights(2);
    pub const BLACK_KING_SIDE: CastlingRights = CastlingRights(4);
    pub const BLACK_QUEEN_SIDE: CastlingRights = CastlingRights(8);
    pub const ALL: CastlingRights = CastlingRights(15);

    /// Whether every right of `other` is held.
    #[inline]
    pub const fn contains(self, other: CastlingRights) -> bool {
        self.0 & other.0 == other.0
    }

    /// The king-side right of `color`.
    #[inline]
    pub const fn king_side(color: Color) -> CastlingRights {
        match color {
            Color::White => CastlingRights::WHITE_KING_SIDE,
            Color::Black => CastlingRights::BLACK_KING_SIDE,
        }
    }

    /// The queen-side right of `color`.
    #[inline]
    pub const fn queen_side(color: Color) -> CastlingRights {
        match color {
            Color::White => CastlingRights::WHITE_QUEEN_SIDE,
            Color::Black => CastlingRights::BLACK_QUEEN_SIDE,
        }
    }
}

// ANCHOR: castling_kept
/// The rights that survive a move touching each square: a move from or to e1 loses both white
/// rights, one from or to h1 the white king side, and so on (the king or rook moved, or the rook
/// was captured). Every other square keeps all four.
static CASTLING_KEPT: [u8; 64] = {
    let mut kept = [15u8; 64];
    kept[0] = 15 & !2; // a1
    kept[4] = 15 & !3; // e1
    kept[7] = 15 & !1; // h1
    kept[56] = 15 & !8; // a8
    kept[60] = 15 & !12; // e8
    kept[63] = 15 & !4; // h8
    kept
};
// ANCHOR_END: castling_kept

// ANCHOR: board_struct
/// Everything a move changes: the state `make_move` copies and `unmake_move` restores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Board {
    /// The squares of each piece kind, both colours together.
    pub(crate) by_kind: [Bitboard; 6],
    /// The squares of each colour's pieces.
    pub(crate) by_color: [Bitboard; 2],
    /// What stands on each square (its colour is in `by_color`).
    pub(crate) mailbox: [Option<PieceKind>; 64],
    /// The Zobrist key, kept up to date move by move.
    pub(crate) key: u64,
    pub(crate) side_to_move: Color,
    pub(crate) castling: CastlingRights,
    /// Set only when a pawn of the side to move attacks it, so that the key does not depend on
    /// a square no one can use (as Stockfish does; Polyglot keys follow the same rule).
    pub(crate) en_passant: Option<Square>,
    pub(crate) halfmove_clock: u16,
    pub(crate) fullmove_number: u16,
    /// Plies since the last null move (`u16::MAX` when there was none): a repetition may not
    /// reach back across a null move, which is no real move.
    pub(crate) plies_since_null: u16,
    /// Material and piece-square values, White's minus Black's, middlegame and endgame packed
    /// in one `i32` (chapter 18): kept up to date piece by piece like the key, so the
    /// evaluation reads it instead of summing 32 pieces at every node. One sum per weight set
    /// ([`WeightSet`]: hand-set, tuned, teacher, M13's, M14's), so the switches `tuned`,
    /// `teacher`, `kingsafety` and `eval3` cost no recomputation.
    pub(crate) psq: [Packed; WeightSet::ALL.len()],
}
// ANCHOR_END: board_struct

impl Board {
    /// A board with no pieces, White to move.
    pub(crate) fn empty() -> Board {
        Board {
            by_kind: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            mailbox: [None; 64],
            key: 0,
            side_to_move: Color::White,
            castling: CastlingRights::NONE,
            en_passant: None,
            halfmove_clock: 0,
            fullmove_number: 1,
            plies_since_null: u16::MAX,
            psq: [Packed::ZERO; WeightSet::ALL.len()],
        }
    }

    #[inline]
    pub(crate) fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_color[color.index()] & self.by_kind[kind.index()]
    }

    #[inline]
    pub(crate) fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The square of `color`'s king. A position always has exactly one king per colour (FEN
    /// parsing refuses anything else and no legal move captures a king).
    #[inline]
    pub(crate) fn king_square(&self, color: Color) -> Square {
        let king = self.pieces(color, PieceKind::King);
        Square::new((king.0.trailing_zeros() & 63) as u8)
    }

    /// The pieces of both colours attacking `square` when the board is occupied by `occupied`:
    /// look from the square outwards with each kind's attack pattern and see whom it meets
    /// (CPW: Square Attacked By). Pawns are the exception: a white pawn attacks `square` from
    /// the squares a *black* pawn on `square` would attack.
    #[inline]
    pub(crate) fn attackers_to(
        &self,
        square: Square,
        occupied: Bitboard,
        sliders: &Sliders,
    ) -> Bitboard {
        let diagonal =
            self.by_kind[PieceKind::Bishop.index()] | self.by_kind[PieceKind::Queen.index()];
        let straight =
            self.by_kind[PieceKind::Rook.index()] | self.by_kind[PieceKind::Queen.index()];
        (attacks::pawn_attacks(Color::Black, square) & self.pieces(Color::White, PieceKind::Pawn))
            | (attacks::pawn_attacks(Color::White, square)
                & self.pieces(Color::Black, PieceKind::Pawn))
            | (attacks::knight_attacks(square) & self.by_kind[PieceKind::Knight.index()])
            | (attacks::king_attacks(square) & self.by_kind[PieceKind::King.index()])
            | (sliders.bishop(square, occupied) & diagonal)
            | (sliders.rook(square, occupied) & straight)
    }

    /// Whether any piece of `by` attacks `square` with the board occupied by `occupied`. The
    /// cheap leaper tests come first so the slider lookups are often skipped.
    #[inline]
    pub(crate) fn is_attacked_by(
        &self,
        by: Color,
        square: Square,
        occupied: Bitboard,
        sliders: &Sliders,
    ) -> bool {
        let theirs = self.by_color[by.index()];
        let queens = self.by_kind[PieceKind::Queen.index()];
        (attacks::knight_attacks(square) & self.by_kind[PieceKind::Knight.index()] & theirs).any()
            || (attacks::pawn_attacks(by.flip(), square)
                & self.by_kind[PieceKind::Pawn.index()]
                & theirs)
                .any()
            || (attacks::king_attacks(square) & self.by_kind[PieceKind::King.index()] & theirs)
                .any()
            || (sliders.bishop(square, occupied)
                & (self.by_kind[PieceKind::Bishop.index()] | queens)
                & theirs)
                .any()
            || (sliders.rook(square, occupied)
                & (self.by_kind[PieceKind::Rook.index()] | queens)
                & theirs)
                .any()
    }

    /// The enemy pieces giving check to the side to move.
    #[inline]
    pub(crate) fn checkers(&self, sliders: &Sliders) -> Bitboard {
        let us = self.side_to_move;
        let king = self.king_square(us);
        self.attackers_to(king, self.occupied(), sliders) & self.by_color[us.flip().index()]
    }

    // ANCHOR: put_piece
    /// Puts a piece of `color` and `kind` on the empty `square`: bitboards, mailbox and key.
    #[inline]
    pub(crate) fn put_piece(&mut self, color: Color, kind: PieceKind, square: Square) {
        let bit = Bitboard::from_square(square);
        self.by_kind[kind.index()] |= bit;
        self.by_color[color.index()] |= bit;
        self.mailbox[square.index()] = Some(kind);
        self.key ^= KEYS.pieces[color.index()][kind.index()][square.index()];
        for (sum, table) in self.psq.iter_mut().zip(&PSQ) {
            *sum += table[color.index()][kind.index()][square.index()];
        }
    }
    // ANCHOR_END: put_piece

    /// Takes the piece of `color` and `kind` off `square`.
    #[inline]
    pub(crate) fn remove_piece(&mut self, color: Color, kind: PieceKind, square: Square) {
        let bit = Bitboard::from_square(square);
        self.by_kind[kind.index()] ^= bit;
        self.by_color[color.index()] ^= bit;
        self.mailbox[square.index()] = None;
        self.key ^= KEYS.pieces[color.index()][kind.index()][square.index()];
        for (sum, table) in self.psq.iter_mut().zip(&PSQ) {
            *sum -= table[color.index()][kind.index()][square.index()];
        }
    }

    /// Moves the piece of `color` and `kind` from `from` to the empty `to`.
    #[inline]
    fn move_piece(&mut self, color: Color, kind: PieceKind, from: Square, to: Square) {
        let bits = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.by_kind[kind.index()] ^= bits;
        self.by_color[color.index()] ^= bits;
        self.mailbox[from.index()] = None;
        self.mailbox[to.index()] = Some(kind);
        let keys = &KEYS.pieces[color.index()][kind.index()];
        self.key ^= keys[from.index()] ^ keys[to.index()];
        for (sum, table) in self.psq.iter_mut().zip(&PSQ) {
            let values = &table[color.index()][kind.index()];
            *sum += values[to.index()] - values[from.index()];
        }
    }

    // ANCHOR: set_en_passant
    /// Sets the en-passant square after a double push to `target`, if a pawn of `capturer`
    /// could take there (see the field's comment).
    #[inline]
    fn set_en_passant(&mut self, target: Square, capturer: Color) {
        let pawns = self.pieces(capturer, PieceKind::Pawn);
        if (attacks::pawn_attacks(capturer.flip(), target) & pawns).any() {
            self.en_passant = Some(target);
            self.key ^= KEYS.en_passant[target.file() as usize];
        }
    }
    // ANCHOR_END: set_en_passant

    // ANCHOR: apply_move
    /// Plays `m`, which must be legal here, updating the key as it goes.
    pub(crate) fn apply(&mut self, m: Move) {
        let us = self.side_to_move;
        let them = us.flip();
        let (from, to) = (m.from(), m.to());
        let moved = self.mailbox[from.index()].expect("make_move: no piece on the from square");

        if let Some(square) = self.en_passant.take() {
            self.key ^= KEYS.en_passant[square.file() as usize];
        }
        self.halfmove_clock = self.halfmove_clock.saturating_add(1);
        self.plies_since_null = self.plies_since_null.saturating_add(1);

        match m.kind() {
            MoveKind::Quiet => self.move_piece(us, moved, from, to),
            MoveKind::DoublePawnPush => {
                self.move_piece(us, moved, from, to);
                let passed = Square::new((from.index() + to.index()) as u8 / 2);
                self.set_en_passant(passed, them);
            }
            MoveKind::KingCastle | MoveKind::QueenCastle => {
                self.move_piece(us, PieceKind::King, from, to);
                let (rook_from, rook_to) = castling_rook_squares(to);
                self.move_piece(us, PieceKind::Rook, rook_from, rook_to);
            }
            MoveKind::Capture => {
                self.capture_on(to, them);
                self.move_piece(us, moved, from, to);
            }
            MoveKind::EnPassant => {
                let captured = Square::new(((from.index() & !7) | (to.index() & 7)) as u8);
                self.remove_piece(them, PieceKind::Pawn, captured);
                self.move_piece(us, PieceKind::Pawn, from, to);
            }
            _ => {
                if m.is_capture() {
                    self.capture_on(to, them);
                }
                self.remove_piece(us, PieceKind::Pawn, from);
                self.put_piece(us, promotion_kind(m), to);
            }
        }

        if moved == PieceKind::Pawn || m.is_capture() {
            self.halfmove_clock = 0;
        }
        if self.castling.0 != 0 {
            let kept = CASTLING_KEPT[from.index()] & CASTLING_KEPT[to.index()];
            self.key ^= KEYS.castling[self.castling.0 as usize];
            self.castling.0 &= kept;
            self.key ^= KEYS.castling[self.castling.0 as usize];
        }
        if us == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        self.side_to_move = them;
        self.key ^= KEYS.black_to_move;
    }
    // ANCHOR_END: apply_move

    /// Removes whatever piece of `color` stands on `square`.
    #[inline]
    fn capture_on(&mut self, square: Square, color: Color) {
        let captured = self.mailbox[square.index()].expect("make_move: capture of an empty square");
        self.remove_piece(color, captured, square);
    }

    // ANCHOR: compute_key
    /// The key computed from scratch, by XORing the number of everything true on the board:
    /// what the incremental key must always equal.
    pub(crate) fn compute_key(&self) -> u64 {
        let mut key = 0;
        for color in Color::BOTH {
            for kind in PieceKind::ALL {
                for square in self.pieces(color, kind) {
                    key ^= KEYS.pieces[color.index()][kind.index()][square.index()];
                }
            }
        }
        if self.side_to_move == Color::Black {
            key ^= KEYS.black_to_move;
        }
        key ^= KEYS.castling[self.castling.0 as usize];
        if let Some(square) = self.en_passant {
            key ^= KEYS.en_passant[square.file() as usize];
        }
        key
    }
    // ANCHOR_END: compute_key

    /// Material and piece-square values computed from scratch: what the incremental
    /// [`Board::psq`] must always equal.
    pub(crate) fn compute_psq(&self, set: WeightSet) -> Packed {
        let mut psq = Packed::ZERO;
        for color in Color::BOTH {
            for kind in PieceKind::ALL {
                for square in self.pieces(color, kind) {
                    psq += PSQ[set.index()][color.index()][kind.index()][square.index()];
                }
            }
        }
        psq
    }
}

/// Where the rook goes from and to when the king castles to `king_to` (g1, c1, g8 or c8).
#[inline]
pub(crate) fn castling_rook_squares(king_to: Square) -> (Square, Square) {
    let rank_start = king_to.index() & !7;
    let (from_file, to_file) = if king_to.file() == 6 { (7, 5) } else { (0, 3) };
    (
        Square::new((rank_start + from_file) as u8),
        Square::new((rank_start + to_file) as u8),
    )
}

/// The piece a promotion move promotes to.
#[inline]
pub(crate) fn promotion_kind(m: Move) -> PieceKind {
    match m.kind() {
        MoveKind::KnightPromotion | MoveKind::KnightPromotionCapture => PieceKind::Knight,
        MoveKind::BishopPromotion | MoveKind::BishopPromotionCapture => PieceKind::Bishop,
        MoveKind::RookPromotion | MoveKind::RookPromotionCapture => PieceKind::Rook,
        _ => PieceKind::Queen,
    }
}

/// A position and the positions that led to it: the current [`Board`] and a stack of the
/// boards before each move made since the position was set up.
#[derive(Clone, Debug)]
pub struct Position {
    pub(crate) board: Board,
    pub(crate) history: Vec<Board>,
}

/// The standard starting position.
pub const STARTPOS_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

impl Position {
    /// The standard starting position.
    pub fn startpos() -> Position {
        Position::from_fen(STARTPOS_FEN).expect("the start position's FEN is valid")
    }

    pub(crate) fn from_board(board: Board) -> Position {
        Position {
            board,
            history: Vec::with_capacity(256),
        }
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.board.side_to_move
    }

    /// The Zobrist key of the position (pieces, side to move, castling rights, en passant).
    #[inline]
    pub fn key(&self) -> u64 {
        self.board.key
    }

    /// Material and piece-square values of weight set `set`, White's minus Black's, kept by
    /// make-move (chapter 18).
    #[inline]
    pub fn psq(&self, set: WeightSet) -> Packed {
        self.board.psq[set.index()]
    }

    /// [`Position::psq`] computed from scratch (a property test checks they are equal).
    pub fn psq_from_scratch(&self, set: WeightSet) -> Packed {
        self.board.compute_psq(set)
    }

    /// The key computed from scratch: equal to [`Position::key`], always (a test checks it).
    pub fn key_from_scratch(&self) -> u64 {
        self.board.compute_key()
    }

    /// The piece on `square`, if any.
    #[inline]
    pub fn piece_on(&self, square: Square) -> Option<Piece> {
        let kind = self.board.mailbox[square.index()]?;
        let color = if self.board.by_color[0].contains(square) {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece::new(color, kind))
    }

    /// The squares of `color`'s pieces of `kind`.
    #[inline]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.board.pieces(color, kind)
    }

    /// The squares of pieces of `kind`, both colours.
    #[inline]
    pub fn pieces_of_kind(&self, kind: PieceKind) -> Bitboard {
        self.board.by_kind[kind.index()]
    }

    /// The squares of all of `color`'s pieces.
    #[inline]
    pub fn colour(&self, color: Color) -> Bitboard {
        self.board.by_color[color.index()]
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.board.occupied()
    }

    /// The square of `color`'s king.
    #[inline]
    pub fn king_square(&self, color: Color) -> Square {
        self.board.king_square(color)
    }

    /// The castling rights still held.
    #[inline]
    pub fn castling_rights(&self) -> CastlingRights {
        self.board.castling
    }

    /// The en-passant target square, set only when a pawn of the side to move attacks it.
    #[inline]
    pub fn en_passant(&self) -> Option<Square> {
        self.board.en_passant
    }

    /// Plies since the last capture or pawn move (the fifty-move rule counts to 100).
    #[inline]
    pub fn halfmove_clock(&self) -> u16 {
        self.board.halfmove_clock
    }

    /// The move number FEN shows: 1 at the start, up by one after each Black move.
    #[inline]
    pub fn fullmove_number(&self) -> u16 {
        self.board.fullmove_number
    }

    /// Pieces of both colours that attack `square` with the board occupied by `occupied`. Pass
    /// an occupancy with pieces removed to see the x-ray attackers behind them (static exchange
    /// evaluation does); pieces missing from `occupied` are not reported.
    #[inline]
    pub fn attackers_to(&self, square: Square, occupied: Bitboard) -> Bitboard {
        self.board
            .attackers_to(square, occupied, attacks::sliders())
            & occupied
    }

    /// The enemy pieces that give check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.board.checkers(attacks::sliders())
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.checkers().any()
    }

    /// The piece that `m` moves (before promotion). `m` must be a move of this position (from
    /// [`Position::legal_moves`] or checked by [`Position::is_pseudo_legal_and_legal`]): a move
    /// from an empty square panics.
    #[inline]
    pub fn piece_moved(&self, m: Move) -> Piece {
        self.piece_on(m.from())
            .expect("piece_moved: the move's from square is empty")
    }

    /// The piece that `m` captures, if any (the pawn beside the target for en passant).
    #[inline]
    pub fn captured_piece(&self, m: Move) -> Option<Piece> {
        match m.kind() {
            MoveKind::EnPassant => Some(Piece::new(self.side_to_move().flip(), PieceKind::Pawn)),
            _ if m.is_capture() => self.piece_on(m.to()),
            _ => None,
        }
    }

    // ANCHOR: make_unmake
    /// Plays `m`, which must be legal in this position (from [`Position::legal_moves`], or
    /// checked with [`Position::is_pseudo_legal_and_legal`]).
    #[inline]
    pub fn make_move(&mut self, m: Move) {
        self.history.push(self.board);
        self.board.apply(m);
    }

    /// Takes back the last move (or null move); does nothing when there is none.
    #[inline]
    pub fn unmake_move(&mut self) {
        if let Some(board) = self.history.pop() {
            self.board = board;
        }
    }
    // ANCHOR_END: make_unmake

    /// Passes the move to the opponent (null-move pruning). Must not be used in check: the
    /// position after it would have the side not to move in check.
    pub fn make_null(&mut self) {
        self.history.push(self.board);
        let board = &mut self.board;
        if let Some(square) = board.en_passant.take() {
            board.key ^= KEYS.en_passant[square.file() as usize];
        }
        board.side_to_move = board.side_to_move.flip();
        board.key ^= KEYS.black_to_move;
        board.halfmove_clock = board.halfmove_clock.saturating_add(1);
        board.plies_since_null = 0;
    }

    /// Takes back a null move.
    #[inline]
    pub fn unmake_null(&mut self) {
        self.unmake_move();
    }

    /// The number of moves (and null moves) made since the position was set up.
    #[inline]
    pub fn plies_played(&self) -> usize {
        self.history.len()
    }

    // ANCHOR: is_repetition
    /// Whether this position occurred before since the last irreversible move (capture, pawn
    /// move, loss of castling rights all reset the halfmove clock or change the key for good)
    /// and since the last null move. Only positions with the same side to move can be equal, so
    /// the walk looks 2, 4, 6, ... plies back. One earlier occurrence is enough: inside a search
    /// a repeated position is scored as a draw (CPW: Repetitions).
    pub fn is_repetition(&self) -> bool {
        let reach = self.board.halfmove_clock.min(self.board.plies_since_null) as usize;
        let key = self.board.key;
        self.history
            .iter()
            .rev()
            .take(reach)
            .skip(1)
            .step_by(2)
            .any(|earlier| earlier.key == key)
    }
    // ANCHOR_END: is_repetition

    // ANCHOR: is_search_repetition
    /// Whether a search `ply` plies below its root should score this position a draw by
    /// repetition. One earlier occurrence inside the search, the root included, is enough: the
    /// line went round a cycle the search chose, and the side that chose it can go round again.
    /// An occurrence before the root was played in the game, and repeating it once is not yet a
    /// draw: the rules ask for a third occurrence (FIDE article 9.2), so two are needed there.
    /// Counting a single game occurrence as a draw lets a lost side believe it holds by
    /// stepping back into any position it has seen, while the opponent simply plays another
    /// move. Stockfish and Ethereal also ask for two occurrences before the root (CPW:
    /// Repetitions). A search from a FEN, with no game behind it, sees no difference.
    pub fn is_search_repetition(&self, ply: usize) -> bool {
        let reach = self.board.halfmove_clock.min(self.board.plies_since_null) as usize;
        let key = self.board.key;
        let mut in_game = 0;
        for (index, earlier) in self.history.iter().rev().enumerate().take(reach) {
            let plies_back = index + 1;
            if plies_back % 2 == 1 || earlier.key != key {
                continue;
            }
            if plies_back <= ply {
                return true;
            }
            in_game += 1;
            if in_game == 2 {
                return true;
            }
        }
        false
    }
    // ANCHOR_END: is_search_repetition

    /// Whether neither side can possibly mate: bare kings, a lone minor piece, or bishops all on
    /// squares of one colour (FIDE article 5.2.2, in the cases that are cheap to see). A rule
    /// of the game, so it lives with the position; the search scores such a position a draw.
    pub fn insufficient_material(&self) -> bool {
        let heavy_or_pawns = self.pieces_of_kind(PieceKind::Pawn)
            | self.pieces_of_kind(PieceKind::Rook)
            | self.pieces_of_kind(PieceKind::Queen);
        if heavy_or_pawns.any() {
            return false;
        }
        let knights = self.pieces_of_kind(PieceKind::Knight);
        let bishops = self.pieces_of_kind(PieceKind::Bishop);
        if (knights | bishops).count() <= 1 {
            return true;
        }
        const DARK_SQUARES: u64 = 0xAA55_AA55_AA55_AA55;
        knights.is_empty() && (bishops.0 & DARK_SQUARES == 0 || bishops.0 & !DARK_SQUARES == 0)
    }
}

impl PartialEq for Position {
    /// Two positions are equal when their boards are (history is not compared).
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
    }
}

impl Eq for Position {}

impl fmt::Display for Position {
    /// The board as a diagram with the FEN and the key below it, as Stockfish's `d` prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const BORDER: &str = " +---+---+---+---+---+---+---+---+";
        writeln!(f, "{BORDER}")?;
        for rank in (0..8).rev() {
            for file in 0..8 {
                let square = Square::from_file_rank(file, rank);
                let letter = self.piece_on(square).map_or(' ', Piece::to_char);
                write!(f, " | {letter}")?;
            }
            writeln!(f, " | {}", rank + 1)?;
            writeln!(f, "{BORDER}")?;
        }
        writeln!(f, "   a   b   c   d   e   f   g   h")?;
        writeln!(f)?;
        writeln!(f, "Fen: {}", self.to_fen())?;
        writeln!(f, "Key: {:016X}", self.key())?;
        let checkers: Vec<String> = self.checkers().iter().map(|s| s.to_string()).collect();
        write!(f, "Checkers: {}", checkers.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        Square::parse(name).expect("a valid square name")
    }

    fn play(position: &mut Position, moves: &[&str]) {
        for text in moves {
            let m = position.parse_uci_move(text).expect("a legal move");
            position.make_move(m);
        }
    }

    #[test]
    fn startpos_has_the_pieces_where_they_belong() {
        let p = Position::startpos();
        assert_eq!(
            p.piece_on(sq("e1")),
            Some(Piece::new(Color::White, PieceKind::King))
        );
        assert_eq!(
            p.piece_on(sq("d8")),
            Some(Piece::new(Color::Black, PieceKind::Queen))
        );
        assert_eq!(p.piece_on(sq("e4")), None);
        assert_eq!(p.occupied().count(), 32);
        assert_eq!(p.pieces(Color::White, PieceKind::Pawn), Bitboard::rank(1));
        assert_eq!(
            p.colour(Color::Black),
            Bitboard::rank(6) | Bitboard::rank(7)
        );
        assert!(!p.in_check());
        assert_eq!(p.key(), p.key_from_scratch());
    }

    #[test]
    fn make_then_unmake_restores_everything() {
        let mut p = Position::startpos();
        let before = p.clone();
        play(
            &mut p,
            &[
                "e2e4", "d7d5", "e4d5", "g8f6", "f1b5", "c7c6", "d5c6", "d8d2",
            ],
        );
        assert_eq!(p.key(), p.key_from_scratch());
        for _ in 0..8 {
            p.unmake_move();
        }
        assert_eq!(p, before);
        p.unmake_move();
        assert_eq!(p, before);
    }

    #[test]
    fn clocks_and_rights_follow_the_rules() {
        let mut p = Position::startpos();
        play(&mut p, &["g1f3", "g8f6"]);
        assert_eq!((p.halfmove_clock(), p.fullmove_number()), (2, 2));
        play(&mut p, &["e2e4"]);
        assert_eq!(p.halfmove_clock(), 0);
        play(&mut p, &["f6e4", "h1g1"]);
        assert_eq!(p.halfmove_clock(), 1);
        assert_eq!(p.castling_rights(), CastlingRights(2 | 4 | 8));
        play(&mut p, &["h8g8"]);
        assert_eq!(p.castling_rights(), CastlingRights(2 | 8));
    }

    #[test]
    fn en_passant_square_is_set_only_when_a_pawn_can_take() {
        let mut p = Position::startpos();
        play(&mut p, &["e2e4"]);
        assert_eq!(p.en_passant(), None);
        play(&mut p, &["d7d5", "e4e5", "f7f5"]);
        assert_eq!(p.en_passant(), Some(sq("f6")));
        play(&mut p, &["e5f6"]);
        assert_eq!(p.piece_on(sq("f5")), None);
        assert_eq!(p.key(), p.key_from_scratch());
    }

    #[test]
    fn castling_moves_the_rook() {
        let mut p = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").expect("valid");
        play(&mut p, &["e1g1", "e8c8"]);
        assert_eq!(
            p.piece_on(sq("f1")),
            Some(Piece::new(Color::White, PieceKind::Rook))
        );
        assert_eq!(
            p.piece_on(sq("d8")),
            Some(Piece::new(Color::Black, PieceKind::Rook))
        );
        assert_eq!(p.piece_on(sq("h1")), None);
        assert_eq!(p.castling_rights(), CastlingRights::NONE);
        assert_eq!(p.key(), p.key_from_scratch());
    }

    #[test]
    fn promotion_replaces_the_pawn() {
        let mut p = Position::from_fen("1r5k/P7/8/8/8/8/8/K7 w - - 0 1").expect("valid");
        play(&mut p, &["a7b8n"]);
        assert_eq!(
            p.piece_on(sq("b8")),
            Some(Piece::new(Color::White, PieceKind::Knight))
        );
        assert_eq!(p.pieces(Color::White, PieceKind::Pawn), Bitboard::EMPTY);
        assert_eq!(p.colour(Color::Black).count(), 1);
        assert_eq!(p.key(), p.key_from_scratch());
    }

    #[test]
    fn repetition_is_seen_two_plies_apart_but_not_across_irreversible_moves() {
        let mut p = Position::startpos();
        play(&mut p, &["g1f3", "g8f6", "f3g1"]);
        assert!(!p.is_repetition());
        play(&mut p, &["f6g8"]);
        assert!(p.is_repetition());
        play(&mut p, &["e2e4", "e7e5", "g1f3", "g8f6", "f3g1", "f6g8"]);
        assert!(p.is_repetition());
        let mut q = Position::startpos();
        play(&mut q, &["g1f3", "g8f6", "f3g1"]);
        q.make_null();
        assert!(
            !q.is_repetition(),
            "a repetition does not reach across a null move"
        );
    }

    #[test]
    fn search_repetition_needs_two_game_occurrences_but_one_inside_the_search() {
        let mut p = Position::startpos();
        play(&mut p, &["g1f3", "g8f6", "f3g1", "f6g8"]);
        assert!(p.is_repetition());
        assert!(
            !p.is_search_repetition(0),
            "the start position occurred once in the game: not yet a draw"
        );
        assert!(
            !p.is_search_repetition(3),
            "a search from the position after 1.Nf3 finds the start position before its root"
        );
        assert!(
            p.is_search_repetition(4),
            "a search from the start position went round a cycle of its own"
        );
        play(&mut p, &["g1f3", "g8f6", "f3g1", "f6g8"]);
        assert!(
            p.is_search_repetition(0),
            "the third occurrence: two in the game before it"
        );
        let mut q = Position::startpos();
        play(&mut q, &["g1f3", "g8f6", "f3g1"]);
        assert!(
            !q.is_search_repetition(10),
            "a new position is no repetition"
        );
    }

    #[test]
    fn null_move_passes_the_turn_and_comes_back() {
        let mut p = Position::from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1").expect("valid");
        let before = p.clone();
        p.make_null();
        assert_eq!(p.side_to_move(), Color::Black);
        assert_eq!(p.en_passant(), None);
        assert_eq!(p.key(), p.key_from_scratch());
        p.unmake_null();
        assert_eq!(p, before);
    }

    #[test]
    fn captured_and_moved_pieces() {
        let p = Position::from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1").expect("valid");
        let m = p.parse_uci_move("e5d6").expect("legal");
        assert_eq!(m.kind(), MoveKind::EnPassant);
        assert_eq!(
            p.captured_piece(m),
            Some(Piece::new(Color::Black, PieceKind::Pawn))
        );
        assert_eq!(p.piece_moved(m), Piece::new(Color::White, PieceKind::Pawn));
        let quiet = p.parse_uci_move("e1d1").expect("legal");
        assert_eq!(p.captured_piece(quiet), None);
    }

    #[test]
    fn attackers_see_through_removed_pieces() {
        let p = Position::from_fen("k7/8/8/8/8/8/4R3/4RK2 w - - 0 1").expect("valid");
        let target = sq("e7");
        assert_eq!(
            p.attackers_to(target, p.occupied()),
            Bitboard::from_square(sq("e2"))
        );
        let without_front = p.occupied().without(sq("e2"));
        assert_eq!(
            p.attackers_to(target, without_front),
            Bitboard::from_square(sq("e1"))
        );
        // Both colours: the knight on c6 and the pawn on d6 attack e5 as well as the rook on e2.
        let p = Position::from_fen("k7/8/2np4/8/8/8/4R3/4K3 w - - 0 1").expect("valid");
        let expected: Bitboard = [sq("c6"), sq("d6"), sq("e2")].into_iter().collect();
        assert_eq!(p.attackers_to(sq("e5"), p.occupied()), expected);
    }

    #[test]
    fn insufficient_material_cases() {
        let draw = |fen: &str| {
            Position::from_fen(fen)
                .expect("valid")
                .insufficient_material()
        };
        assert!(draw("8/8/4k3/8/8/3K4/8/8 w - - 0 1"));
        assert!(draw("8/8/4k3/8/8/3KN3/8/8 w - - 0 1"));
        assert!(
            draw("8/8/4kb2/8/8/3KB3/8/8 w - - 0 1"),
            "bishops on light squares"
        );
        assert!(
            !draw("8/8/4k1b1/8/8/3KB3/8/8 w - - 0 1"),
            "bishops on both colours"
        );
        assert!(!draw("8/8/4k3/8/8/3KNN2/8/8 w - - 0 1"));
        assert!(!draw("8/8/4k3/8/8/3K4/4P3/8 w - - 0 1"));
    }
}
