//! FEN: reading and writing positions as text (chapter 4).
//!
//! A FEN has six fields separated by spaces: piece placement (rank 8 first, `/` between ranks,
//! digits for runs of empty squares), side to move, castling rights, en-passant square,
//! halfmove clock and fullmove number (CPW: Forsyth-Edwards Notation). The two clocks may be
//! missing, as in EPD files and some GUIs; they then default to 0 and 1.
//!
//! Parsing refuses every position the engine could not play from safely, with an error that
//! names the field and the fault. It never panics, whatever the bytes.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::position::{Board, CastlingRights, Piece, PieceKind, Position};
use crate::square::{Color, Square};
use std::fmt;

/// The six fields of a FEN, for error messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FenField {
    Placement,
    SideToMove,
    Castling,
    EnPassant,
    HalfmoveClock,
    FullmoveNumber,
}

impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FenField::Placement => "piece placement",
            FenField::SideToMove => "side to move",
            FenField::Castling => "castling rights",
            FenField::EnPassant => "en passant square",
            FenField::HalfmoveClock => "halfmove clock",
            FenField::FullmoveNumber => "fullmove number",
        })
    }
}

/// Why a FEN was refused. Text taken from the input is kept to at most 20 characters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// The FEN ends before this field.
    MissingField(FenField),
    /// Something follows the fullmove number.
    TrailingText(String),
    /// Not 8 ranks separated by `/`.
    WrongRankCount(usize),
    /// A character in the placement that is neither a piece letter nor a digit 1-8.
    BadPieceLetter { rank: u8, letter: char },
    /// A rank describing more than 8 squares.
    RankTooLong { rank: u8 },
    /// A rank describing fewer than 8 squares.
    RankTooShort { rank: u8, squares: u8 },
    /// Not exactly one king of this colour.
    KingCount { color: Color, count: u32 },
    /// A pawn on the first or eighth rank.
    PawnOnBackRank(Square),
    /// More pieces of one colour than a game can produce: over 8 pawns, or more promoted
    /// pieces (queens beyond 1, rooks, bishops, knights beyond 2) than missing pawns.
    TooManyPieces { color: Color, kind: PieceKind },
    /// The side to move is neither `w` nor `b`.
    BadSideToMove(String),
    /// A character other than `K Q k q` (or a lone `-`), or one of them twice.
    BadCastlingCharacter(char),
    /// A castling right whose king is not on its home square.
    CastlingWithoutKing(char),
    /// A castling right whose rook is not on its home square.
    CastlingWithoutRook(char),
    /// The en-passant field is neither `-` nor a square name.
    BadEnPassantSquare(String),
    /// An en-passant square on a rank where no pawn can just have passed.
    EnPassantWrongRank { square: Square, side_to_move: Color },
    /// No pawn stands where the double push would have put it.
    EnPassantNoPawn(Square),
    /// The square passed over, or the pawn's starting square, is occupied.
    EnPassantOccupied(Square),
    /// The halfmove clock is not a non-negative number that fits (0 to 65535).
    BadHalfmoveClock(String),
    /// The fullmove number is not a non-negative number that fits.
    BadFullmoveNumber(String),
    /// The side not to move is in check: its king could be captured.
    OpponentInCheck(Color),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use FenField::*;
        match self {
            FenError::MissingField(field) => write!(f, "{field}: missing field"),
            FenError::TrailingText(text) => {
                write!(
                    f,
                    "fullmove number: unexpected text '{text}' after the last field"
                )
            }
            FenError::WrongRankCount(n) => {
                write!(f, "{Placement}: wrong number of ranks, {n} instead of 8")
            }
            FenError::BadPieceLetter { rank, letter } => write!(
                f,
                "{Placement}: bad piece letter '{letter}' on rank {}",
                rank + 1
            ),
            FenError::RankTooLong { rank } => {
                write!(
                    f,
                    "{Placement}: rank {} has too many squares (more than 8)",
                    rank + 1
                )
            }
            FenError::RankTooShort { rank, squares } => write!(
                f,
                "{Placement}: rank {} has too few squares ({squares} instead of 8)",
                rank + 1
            ),
            FenError::KingCount { color, count } => write!(
                f,
                "{Placement}: {color:?} has {count} kings, needs exactly one king"
            ),
            FenError::PawnOnBackRank(square) => write!(
                f,
                "{Placement}: pawn on {square}, pawns never stand on the first or eighth rank"
            ),
            FenError::TooManyPieces { color, kind } => write!(
                f,
                "{Placement}: {color:?} has too many {kind:?}s for a game to reach: \
                 each extra piece needs a pawn that promoted"
            ),
            FenError::BadSideToMove(text) => {
                write!(f, "{SideToMove}: '{text}' is neither w nor b")
            }
            FenError::BadCastlingCharacter(c) => write!(
                f,
                "{Castling}: bad castling character '{c}' (expected - or each of KQkq at most once)"
            ),
            FenError::CastlingWithoutKing(c) => {
                let square = if c.is_ascii_uppercase() { "e1" } else { "e8" };
                write!(
                    f,
                    "{Castling}: right '{c}' but no king on its home square {square}"
                )
            }
            FenError::CastlingWithoutRook(c) => {
                let square = match c {
                    'K' => "h1",
                    'Q' => "a1",
                    'k' => "h8",
                    _ => "a8",
                };
                write!(
                    f,
                    "{Castling}: right '{c}' but no rook on its home square {square}"
                )
            }
            FenError::BadEnPassantSquare(text) => {
                write!(f, "{EnPassant}: '{text}' is neither - nor a square")
            }
            FenError::EnPassantWrongRank {
                square,
                side_to_move,
            } => {
                let rank = if *side_to_move == Color::White { 6 } else { 3 };
                write!(
                    f,
                    "{EnPassant}: {square} is impossible, with {side_to_move:?} to move it must be on rank {rank}"
                )
            }
            FenError::EnPassantNoPawn(square) => write!(
                f,
                "{EnPassant}: {square} is impossible, no pawn that could have just double-pushed past it"
            ),
            FenError::EnPassantOccupied(square) => write!(
                f,
                "{EnPassant}: {square} is impossible, a pawn cannot have just passed over an occupied square"
            ),
            FenError::BadHalfmoveClock(text) => {
                write!(
                    f,
                    "{HalfmoveClock}: '{text}' is not a non-negative number (0 to 65535)"
                )
            }
            FenError::BadFullmoveNumber(text) => {
                write!(
                    f,
                    "{FullmoveNumber}: '{text}' is not a non-negative number (0 to 65535)"
                )
            }
            FenError::OpponentInCheck(color) => write!(
                f,
                "{SideToMove}: {color:?} is in check but it is not {color:?}'s move"
            ),
        }
    }
}

impl std::error::Error for FenError {}

/// At most 20 characters of `text`, for an error message.
fn excerpt(text: &str) -> String {
    text.chars().take(20).collect()
}

impl Position {
    // ANCHOR: from_fen
    /// The position a FEN describes, or why it cannot be one.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let mut fields = fen.split_ascii_whitespace();
        let mut next = |field| fields.next().ok_or(FenError::MissingField(field));
        let placement = next(FenField::Placement)?;
        let side = next(FenField::SideToMove)?;
        let castling = next(FenField::Castling)?;
        let en_passant = next(FenField::EnPassant)?;
        let halfmove = fields.next();
        let fullmove = fields.next();
        if let Some(extra) = fields.next() {
            return Err(FenError::TrailingText(excerpt(extra)));
        }

        let mut board = Board::empty();
        parse_placement(placement, &mut board)?;
        check_pieces(&board)?;
        board.side_to_move = parse_side(side)?;
        board.castling = parse_castling(castling, &board)?;
        board.en_passant = parse_en_passant(en_passant, &board)?;
        board.halfmove_clock = match halfmove {
            None => 0,
            Some(text) => {
                parse_count(text).ok_or_else(|| FenError::BadHalfmoveClock(excerpt(text)))?
            }
        };
        board.fullmove_number = match fullmove {
            None => 1,
            // Some tools write 0; the count starts at 1.
            Some(text) => parse_count(text)
                .ok_or_else(|| FenError::BadFullmoveNumber(excerpt(text)))?
                .max(1),
        };
        check_opponent_not_in_check(&board)?;
        board.key = board.compute_key();
        Ok(Position::from_board(board))
    }
    // ANCHOR_END: from_fen

    /// The position as a FEN with all six fields.
    pub fn to_fen(&self) -> String {
        let board = &self.board;
        let mut fen = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.piece_on(Square::from_file_rank(file, rank)) {
                    None => empty += 1,
                    Some(piece) => {
                        if empty > 0 {
                            fen.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        fen.push(piece.to_char());
                    }
                }
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push_str(if board.side_to_move == Color::White {
            " w "
        } else {
            " b "
        });
        let rights = [('K', 1), ('Q', 2), ('k', 4), ('q', 8)];
        let held: String = rights
            .iter()
            .filter(|&&(_, bit)| board.castling.0 & bit != 0)
            .map(|&(c, _)| c)
            .collect();
        fen.push_str(if held.is_empty() { "-" } else { &held });
        match board.en_passant {
            Some(square) => fen.push_str(&format!(" {square}")),
            None => fen.push_str(" -"),
        }
        fen.push_str(&format!(
            " {} {}",
            board.halfmove_clock, board.fullmove_number
        ));
        fen
    }

    /// The same position with the colours swapped: the board turned upside down, White's pieces
    /// made Black's and Black's White's, the other side to move, and the castling rights and the
    /// en-passant square turned with it. Each side sees in the mirror what the other saw, so a
    /// colour-blind evaluation scores both alike (`tests/eval_symmetry.rs` checks this over the
    /// perft suite). Stockfish's console offers the same as `flip`.
    pub fn mirrored(&self) -> Position {
        let fen = self.to_fen();
        let fields: Vec<&str> = fen.split(' ').collect();
        let [placement, side, castling, en_passant, halfmoves, fullmoves] = fields[..] else {
            unreachable!("to_fen writes six fields");
        };
        let swap_colour = |c: char| {
            if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            }
        };
        let ranks: Vec<String> = placement
            .split('/')
            .rev()
            .map(|rank| rank.chars().map(swap_colour).collect())
            .collect();
        let side = if side == "w" { "b" } else { "w" };
        // Black's rights become White's: swapped, then back in FEN's order `KQkq`.
        let mut rights: Vec<char> = castling.chars().map(swap_colour).collect();
        rights.sort_by_key(|&c| "KQkq-".find(c));
        let rights: String = rights.into_iter().collect();
        let en_passant = match en_passant.as_bytes() {
            [file, rank] => format!("{}{}", char::from(*file), char::from(b'1' + b'8' - rank)),
            _ => "-".to_string(),
        };
        let mirror = format!(
            "{} {side} {rights} {en_passant} {halfmoves} {fullmoves}",
            ranks.join("/")
        );
        Position::from_fen(&mirror).expect("the mirror of a legal position is legal")
    }
}

/// Puts the pieces of the placement field on `board`.
fn parse_placement(placement: &str, board: &mut Board) -> Result<(), FenError> {
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::WrongRankCount(ranks.len()));
    }
    for (row, text) in ranks.iter().enumerate() {
        let rank = 7 - row as u8;
        let mut file = 0u8;
        for letter in text.chars() {
            if let Some(run) = letter.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += run as u8;
            } else {
                let piece =
                    Piece::from_char(letter).ok_or(FenError::BadPieceLetter { rank, letter })?;
                if file >= 8 {
                    return Err(FenError::RankTooLong { rank });
                }
                board.put_piece(piece.color, piece.kind, Square::from_file_rank(file, rank));
                file += 1;
            }
            if file > 8 {
                return Err(FenError::RankTooLong { rank });
            }
        }
        if file < 8 {
            return Err(FenError::RankTooShort {
                rank,
                squares: file,
            });
        }
    }
    Ok(())
}

/// One king per colour, material a game can reach, no pawn on the first or eighth rank.
fn check_pieces(board: &Board) -> Result<(), FenError> {
    for color in Color::BOTH {
        let count = board.pieces(color, PieceKind::King).count();
        if count != 1 {
            return Err(FenError::KingCount { color, count });
        }
        check_material(board, color)?;
    }
    let back_ranks = Bitboard::RANK_1 | Bitboard::RANK_8;
    match (board.by_kind[PieceKind::Pawn.index()] & back_ranks).first() {
        Some(square) => Err(FenError::PawnOnBackRank(square)),
        None => Ok(()),
    }
}

/// Every piece beyond the starting set (a second queen, a third rook, ...) is a promoted pawn,
/// so a side has at most 8 pawns and no more promoted pieces than missing pawns. Besides refusing
/// positions no game reaches, this bounds the number of legal moves: the most any such position
/// has is 218, which is why a [`MoveList`](crate::movegen::MoveList) of 256 never overflows.
fn check_material(board: &Board, color: Color) -> Result<(), FenError> {
    let count = |kind| board.pieces(color, kind).count();
    let pawns = count(PieceKind::Pawn);
    if pawns > 8 {
        return Err(FenError::TooManyPieces {
            color,
            kind: PieceKind::Pawn,
        });
    }
    let mut promoted = 0;
    for (kind, at_start) in [
        (PieceKind::Queen, 1),
        (PieceKind::Rook, 2),
        (PieceKind::Bishop, 2),
        (PieceKind::Knight, 2),
    ] {
        promoted += count(kind).saturating_sub(at_start);
        if promoted > 8 - pawns {
            return Err(FenError::TooManyPieces { color, kind });
        }
    }
    Ok(())
}

fn parse_side(text: &str) -> Result<Color, FenError> {
    match text {
        "w" => Ok(Color::White),
        "b" => Ok(Color::Black),
        _ => Err(FenError::BadSideToMove(excerpt(text))),
    }
}

/// `-` or some of `KQkq`, each at most once, each with its king and rook at home.
fn parse_castling(text: &str, board: &Board) -> Result<CastlingRights, FenError> {
    let mut rights = CastlingRights::NONE;
    if text == "-" {
        return Ok(rights);
    }
    for c in text.chars() {
        let (color, right, rook_file) = match c {
            'K' => (Color::White, CastlingRights::WHITE_KING_SIDE, 7),
            'Q' => (Color::White, CastlingRights::WHITE_QUEEN_SIDE, 0),
            'k' => (Color::Black, CastlingRights::BLACK_KING_SIDE, 7),
            'q' => (Color::Black, CastlingRights::BLACK_QUEEN_SIDE, 0),
            _ => return Err(FenError::BadCastlingCharacter(c)),
        };
        if rights.contains(right) {
            return Err(FenError::BadCastlingCharacter(c));
        }
        let home_rank = if color == Color::White { 0 } else { 7 };
        let king_home = Square::from_file_rank(4, home_rank);
        let rook_home = Square::from_file_rank(rook_file, home_rank);
        if !board.pieces(color, PieceKind::King).contains(king_home) {
            return Err(FenError::CastlingWithoutKing(c));
        }
        if !board.pieces(color, PieceKind::Rook).contains(rook_home) {
            return Err(FenError::CastlingWithoutRook(c));
        }
        rights.0 |= right.0;
    }
    Ok(rights)
}

/// `-` or the square a pawn of the side not to move just passed over. The square is kept only
/// when a pawn of the side to move attacks it (see `Board::en_passant`).
fn parse_en_passant(text: &str, board: &Board) -> Result<Option<Square>, FenError> {
    if text == "-" {
        return Ok(None);
    }
    let square = Square::parse(text).ok_or_else(|| FenError::BadEnPassantSquare(excerpt(text)))?;
    let us = board.side_to_move;
    let them = us.flip();
    let (expected_rank, pawn_rank, start_rank) = match us {
        Color::White => (5, 4, 6),
        Color::Black => (2, 3, 1),
    };
    if square.rank() != expected_rank {
        return Err(FenError::EnPassantWrongRank {
            square,
            side_to_move: us,
        });
    }
    let pawn = Square::from_file_rank(square.file(), pawn_rank);
    if !board.pieces(them, PieceKind::Pawn).contains(pawn) {
        return Err(FenError::EnPassantNoPawn(square));
    }
    let start = Square::from_file_rank(square.file(), start_rank);
    if board.occupied().contains(square) || board.occupied().contains(start) {
        return Err(FenError::EnPassantOccupied(square));
    }
    let capturers = attacks::pawn_attacks(them, square) & board.pieces(us, PieceKind::Pawn);
    Ok(capturers.any().then_some(square))
}

/// A count made of ASCII digits only (no sign) that fits in 16 bits.
fn parse_count(text: &str) -> Option<u16> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

fn check_opponent_not_in_check(board: &Board) -> Result<(), FenError> {
    let them = board.side_to_move.flip();
    let king = board.king_square(them);
    if board.is_attacked_by(
        board.side_to_move,
        king,
        board.occupied(),
        attacks::sliders(),
    ) {
        return Err(FenError::OpponentInCheck(them));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mirror_swaps_colours_ranks_rights_and_en_passant() {
        let position = Position::from_fen("r3k2r/8/8/8/3pP3/8/8/R3K1R1 b Qkq e3 0 1").unwrap();
        assert_eq!(
            position.mirrored().to_fen(),
            "r3k1r1/8/8/3Pp3/8/8/8/R3K2R w KQq e6 0 1"
        );
        assert_eq!(position.mirrored().mirrored().to_fen(), position.to_fen());
    }
    use crate::position::STARTPOS_FEN;

    #[test]
    fn round_trips_common_positions() {
        for fen in [
            STARTPOS_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "4k3/8/8/8/8/8/8/4K2R b K - 12 40",
        ] {
            let position = Position::from_fen(fen).expect("a valid FEN");
            assert_eq!(position.to_fen(), fen);
        }
    }

    #[test]
    fn clocks_may_be_omitted() {
        let p = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - -").expect("valid without clocks");
        assert_eq!((p.halfmove_clock(), p.fullmove_number()), (0, 1));
        let p = Position::from_fen("4k3/8/8/8/8/8/8/4K3 b - - 7").expect("valid with one clock");
        assert_eq!((p.halfmove_clock(), p.fullmove_number()), (7, 1));
    }

    #[test]
    fn an_uncapturable_en_passant_square_is_accepted_and_dropped() {
        let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
        let p = Position::from_fen(fen).expect("valid");
        assert_eq!(p.en_passant(), None);
        assert_eq!(p.to_fen(), fen.replace("e3", "-"));
    }
}
