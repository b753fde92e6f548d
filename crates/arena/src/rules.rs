//! The rules the arena enforces, on top of `cozy-chess`'s move generation: moves in UCI notation
//! (with standard castling), the end of a game by checkmate, stalemate, threefold repetition, the
//! fifty-move rule and insufficient material.
//!
//! Castling needs care. UCI writes castling as the king's two-square move, `e1g1`. `cozy-chess` writes
//! it as "king takes own rook", `e1h1`, which also covers Chess960. The arena converts both ways and
//! accepts only the standard form from an engine: an engine that sends `e1h1` in standard chess has
//! sent an illegal move.

use cozy_chess::{BitBoard, Board, Color, File, GameStatus, Move, Piece, Square};

/// The legal move an engine means by `text` in this position, or `None` if the text is not a legal
/// move in UCI notation (standard castling only).
pub fn move_from_uci(board: &Board, text: &str) -> Option<Move> {
    let mut mv: Move = text.parse().ok()?;
    if text.len() > 5 || text.bytes().any(|b| b.is_ascii_uppercase()) {
        return None;
    }
    if board.piece_on(mv.from) == Some(Piece::King) {
        if is_own_rook(board, mv.to) {
            return None; // king-takes-rook is cozy-chess's notation, not UCI's
        }
        if let Some(rook) = castling_rook_square(board, mv) {
            mv.to = rook;
        }
    }
    board.is_legal(mv).then_some(mv)
}

/// A legal move written in UCI notation: castling as the king's two-square move (`e1g1`, `e8c8`).
pub fn move_to_uci(board: &Board, mv: Move) -> String {
    let mut shown = mv;
    if board.piece_on(mv.from) == Some(Piece::King) && is_own_rook(board, mv.to) {
        let file = if mv.to.file() > mv.from.file() {
            File::G
        } else {
            File::C
        };
        shown.to = Square::new(file, mv.from.rank());
    }
    shown.to_string()
}

fn is_own_rook(board: &Board, square: Square) -> bool {
    board
        .colored_pieces(board.side_to_move(), Piece::Rook)
        .has(square)
}

/// For a king move two files along its rank (`e1g1`), the square of the rook it castles with, if
/// the side still has that right.
fn castling_rook_square(board: &Board, mv: Move) -> Option<Square> {
    if mv.from.rank() != mv.to.rank() || (mv.from.file() as i8 - mv.to.file() as i8).abs() != 2 {
        return None;
    }
    let rights = board.castle_rights(board.side_to_move());
    let rook_file = if mv.to.file() > mv.from.file() {
        rights.short
    } else {
        rights.long
    };
    rook_file.map(|file| Square::new(file, mv.from.rank()))
}

/// Why a game ended by the rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RulesEnd {
    /// The side to move is checkmated.
    Checkmate,
    Stalemate,
    ThreefoldRepetition,
    FiftyMoves,
    InsufficientMaterial,
}

/// Positions since the last irreversible move, for threefold repetition.
///
/// Two positions are the same in FIDE's sense (Article 9.2) when pieces, side to move, castling
/// rights and the possibility of an en passant capture agree: `cozy_chess::Board::same_position`.
/// A capture or pawn move (the halfmove clock returning to 0) makes every earlier position
/// unreachable, so the list is cleared then and stays at most 100 long.
#[derive(Debug, Clone, Default)]
pub struct History {
    since_irreversible: Vec<Board>,
}

impl History {
    /// Records the position reached (call with the start position, then after every move).
    pub fn push(&mut self, board: &Board) {
        if board.halfmove_clock() == 0 {
            self.since_irreversible.clear();
        }
        self.since_irreversible.push(board.clone());
    }

    /// How often the latest position has occurred.
    pub fn repetitions(&self) -> usize {
        let Some(last) = self.since_irreversible.last() else {
            return 0;
        };
        self.since_irreversible
            .iter()
            .filter(|b| b.same_position(last))
            .count()
    }
}

/// Whether the game is over by the rules in `board` (its latest position in `history`).
///
/// Checkmate is tested first: a mate delivered on the hundredth half-move stands (FIDE 9.3).
pub fn game_over(board: &Board, history: &History) -> Option<RulesEnd> {
    let has_moves = board.generate_moves(|_| true);
    if !has_moves {
        return Some(if board.checkers().is_empty() {
            RulesEnd::Stalemate
        } else {
            RulesEnd::Checkmate
        });
    }
    if board.halfmove_clock() >= 100 {
        return Some(RulesEnd::FiftyMoves);
    }
    if history.repetitions() >= 3 {
        return Some(RulesEnd::ThreefoldRepetition);
    }
    if insufficient_material(board) {
        return Some(RulesEnd::InsufficientMaterial);
    }
    debug_assert_eq!(board.status(), GameStatus::Ongoing);
    None
}

/// Neither side can ever mate: no pawns, rooks or queens, and either at most one minor piece on the
/// board, or only bishops, all on squares of one colour. (The dead positions cutechess-cli and
/// fastchess detect; other dead positions play on until another rule ends them.)
pub fn insufficient_material(board: &Board) -> bool {
    let heavy_or_pawn =
        board.pieces(Piece::Pawn) | board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    if !heavy_or_pawn.is_empty() {
        return false;
    }
    let knights = board.pieces(Piece::Knight);
    let bishops = board.pieces(Piece::Bishop);
    if (knights | bishops).len() <= 1 {
        return true;
    }
    knights.is_empty()
        && (bishops.is_subset(BitBoard::DARK_SQUARES) || bishops.is_subset(BitBoard::LIGHT_SQUARES))
}

/// The winner when the side to move is checkmated.
pub fn winner_of_mate(board: &Board) -> Color {
    !board.side_to_move()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> Board {
        fen.parse().unwrap()
    }

    const CASTLING: &str = "r3k2r/pppq1ppp/2npbn2/4p3/4P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 0 1";

    #[test]
    fn castling_converts_both_ways() {
        let b = board(CASTLING);
        let short = move_from_uci(&b, "e1g1").unwrap();
        assert_eq!(short.to.to_string(), "h1");
        assert_eq!(move_to_uci(&b, short), "e1g1");
        let long = move_from_uci(&b, "e1c1").unwrap();
        assert_eq!(long.to.to_string(), "a1");
        assert_eq!(move_to_uci(&b, long), "e1c1");
        let black = board(&CASTLING.replace(" w ", " b "));
        assert_eq!(
            move_to_uci(&black, move_from_uci(&black, "e8c8").unwrap()),
            "e8c8"
        );
    }

    #[test]
    fn king_takes_rook_is_not_uci() {
        let b = board(CASTLING);
        assert_eq!(move_from_uci(&b, "e1h1"), None);
        assert_eq!(move_from_uci(&b, "e1a1"), None);
    }

    #[test]
    fn castling_without_the_right_is_illegal() {
        let b = board("r3k2r/pppq1ppp/2npbn2/4p3/4P3/2NPBN2/PPPQ1PPP/R3K2R w Qkq - 0 1");
        assert_eq!(move_from_uci(&b, "e1g1"), None);
        assert!(move_from_uci(&b, "e1c1").is_some());
    }

    #[test]
    fn ordinary_and_promotion_moves() {
        let b = Board::default();
        assert_eq!(move_to_uci(&b, move_from_uci(&b, "e2e4").unwrap()), "e2e4");
        assert_eq!(move_from_uci(&b, "e2e5"), None);
        assert_eq!(move_from_uci(&b, "e7e5"), None); // not White's piece
        assert_eq!(move_from_uci(&b, "0000"), None);
        assert_eq!(move_from_uci(&b, "(none)"), None);
        let p = board("8/4P1k1/8/8/8/8/6K1/8 w - - 0 1");
        assert_eq!(
            move_to_uci(&p, move_from_uci(&p, "e7e8q").unwrap()),
            "e7e8q"
        );
        assert_eq!(move_from_uci(&p, "e7e8"), None); // a promotion must name its piece
        assert_eq!(move_from_uci(&p, "e7e8Q"), None);
    }

    #[test]
    fn mate_and_stalemate() {
        let mated = board("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
        assert_eq!(
            game_over(&mated, &History::default()),
            Some(RulesEnd::Checkmate)
        );
        assert_eq!(winner_of_mate(&mated), Color::White);
        let stalemate = board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
        assert_eq!(
            game_over(&stalemate, &History::default()),
            Some(RulesEnd::Stalemate)
        );
    }

    #[test]
    fn fifty_moves_and_insufficient_material() {
        let fifty = board("8/8/4k3/8/8/4K3/4R3/8 w - - 100 80");
        assert_eq!(
            game_over(&fifty, &History::default()),
            Some(RulesEnd::FiftyMoves)
        );
        assert!(insufficient_material(&board(
            "8/8/4k3/8/8/4K3/4N3/8 w - - 0 1"
        )));
        assert!(insufficient_material(&board(
            "8/8/4k3/8/8/4K3/8/8 w - - 0 1"
        )));
        // Bishops on one colour (c1 and f4 are both dark) cannot mate; on both colours they can.
        assert!(insufficient_material(&board(
            "8/8/4k3/8/5b2/4K3/8/2B5 w - - 0 1"
        )));
        assert!(!insufficient_material(&board(
            "8/8/4k3/8/5b2/4K3/8/3B4 w - - 0 1"
        )));
        assert!(!insufficient_material(&board(
            "8/8/4k3/8/5n2/4K3/8/2B5 w - - 0 1"
        )));
        assert!(!insufficient_material(&board(
            "8/8/4k3/8/8/4K3/4P3/8 w - - 0 1"
        )));
    }

    #[test]
    fn threefold_repetition_counts_positions_not_moves() {
        let mut b = Board::default();
        let mut history = History::default();
        history.push(&b);
        let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
        for (i, text) in shuffle.iter().cycle().take(8).enumerate() {
            assert_eq!(game_over(&b, &history), None, "ended early at ply {i}");
            let mv = move_from_uci(&b, text).unwrap();
            b.play(mv);
            history.push(&b);
        }
        // The start position has now occurred three times.
        assert_eq!(history.repetitions(), 3);
        assert_eq!(game_over(&b, &history), Some(RulesEnd::ThreefoldRepetition));
    }
}
