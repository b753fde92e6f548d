//! SAN, standard algebraic notation: the moves of books, PGN files and test suites (`Nf3`,
//! `exd5`, `Rfe1`, `e8=Q`, `O-O`, with `+` after a check and `#` after mate; FIDE Laws of
//! Chess, appendix C, and section 8.2.3 of the PGN standard).
//!
//! A SAN move names only as much as the position needs: the piece and its destination, and the
//! file or rank it comes from only when another piece of that kind could go there too. So
//! neither direction works on a move alone. [`to_move`] matches the text against the legal
//! moves of the position, which also makes it lenient, as readers of SAN should be: check
//! marks, annotations (`!`, `?`), a missing `=` before a promotion piece and a disambiguation
//! that was not needed are all accepted. [`name`] writes the strict form.

use crate::moves::{Move, MoveKind};
use crate::position::{PieceKind, Position, promotion_kind};
use crate::square::Square;
use std::fmt;

/// Why a text names no move of the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SanError {
    /// The text is not SAN at all.
    NotSan { san: String },
    /// It reads as SAN, but no legal move of the position (given as FEN) fits it.
    NoLegalMove { san: String, fen: String },
    /// More than one legal move fits it (`Re1` when both rooks reach e1).
    Ambiguous { san: String, fen: String },
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SanError::NotSan { san } => write!(f, "'{san}' is not SAN"),
            SanError::NoLegalMove { san, fen } => write!(f, "'{san}' is no legal move in {fen}"),
            SanError::Ambiguous { san, fen } => write!(f, "'{san}' is ambiguous in {fen}"),
        }
    }
}

impl std::error::Error for SanError {}

/// The legal move that `san` names in `position`. Exactly one legal move must fit.
pub fn to_move(position: &Position, san: &str) -> Result<Move, SanError> {
    let text = san.trim_end_matches(['+', '#', '!', '?']);
    let legal = position.legal_moves();
    let fits: Vec<Move> = match text {
        "O-O" | "0-0" => castles(&legal, MoveKind::KingCastle),
        "O-O-O" | "0-0-0" => castles(&legal, MoveKind::QueenCastle),
        _ => {
            let pattern = Pattern::parse(text).ok_or_else(|| SanError::NotSan {
                san: san.to_string(),
            })?;
            legal
                .iter()
                .copied()
                .filter(|&m| pattern.fits(position, m))
                .collect()
        }
    };
    match fits[..] {
        [m] => Ok(m),
        [] => Err(SanError::NoLegalMove {
            san: san.to_string(),
            fen: position.to_fen(),
        }),
        _ => Err(SanError::Ambiguous {
            san: san.to_string(),
            fen: position.to_fen(),
        }),
    }
}

/// The castling moves of `kind` among `legal` (one or none).
fn castles(legal: &[Move], kind: MoveKind) -> Vec<Move> {
    legal.iter().copied().filter(|m| m.kind() == kind).collect()
}

/// What a SAN move other than castling says about the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pattern {
    piece: PieceKind,
    to: Square,
    from_file: Option<u8>,
    from_rank: Option<u8>,
    promotion: Option<PieceKind>,
}

impl Pattern {
    /// Reads `Nf3`, `exd5`, `Rfe1`, `Qh4xe1`, `e8=Q` or `e8Q` (check marks already removed).
    fn parse(text: &str) -> Option<Pattern> {
        let (body, promotion) = split_promotion(text)?;
        let (piece, rest) = match body.chars().next()? {
            'K' => (PieceKind::King, &body[1..]),
            'Q' => (PieceKind::Queen, &body[1..]),
            'R' => (PieceKind::Rook, &body[1..]),
            'B' => (PieceKind::Bishop, &body[1..]),
            'N' => (PieceKind::Knight, &body[1..]),
            _ => (PieceKind::Pawn, body),
        };
        let rest = rest.replace(['x', ':', '-'], "");
        if rest.len() < 2 || !rest.is_ascii() {
            return None;
        }
        let (hints, to) = rest.split_at(rest.len() - 2);
        let mut pattern = Pattern {
            piece,
            to: Square::parse(to)?,
            from_file: None,
            from_rank: None,
            promotion,
        };
        for c in hints.chars() {
            match c {
                'a'..='h' => pattern.from_file = Some(c as u8 - b'a'),
                '1'..='8' => pattern.from_rank = Some(c as u8 - b'1'),
                _ => return None,
            }
        }
        Some(pattern)
    }

    /// Whether the legal move `m` is one the pattern describes.
    fn fits(&self, position: &Position, m: Move) -> bool {
        let promotion = m.is_promotion().then(|| promotion_kind(m));
        position.piece_moved(m).kind == self.piece
            && m.to() == self.to
            && !matches!(m.kind(), MoveKind::KingCastle | MoveKind::QueenCastle)
            && self.from_file.is_none_or(|f| m.from().file() == f)
            && self.from_rank.is_none_or(|r| m.from().rank() == r)
            && promotion == self.promotion
    }
}

/// The move part and the promotion piece of `e8=Q` or `e8Q`; `None` for a promotion to
/// something that is not a piece a pawn becomes.
fn split_promotion(text: &str) -> Option<(&str, Option<PieceKind>)> {
    let (body, piece) = match text.split_once('=') {
        Some((body, piece)) => (body, piece),
        None => match text.char_indices().last() {
            Some((i, c)) if "QRBN".contains(c) && i > 0 => (&text[..i], &text[i..]),
            _ => return Some((text, None)),
        },
    };
    let kind = match piece {
        "Q" | "q" => PieceKind::Queen,
        "R" | "r" => PieceKind::Rook,
        "B" | "b" => PieceKind::Bishop,
        "N" | "n" => PieceKind::Knight,
        _ => return None,
    };
    Some((body, Some(kind)))
}

/// The SAN of the legal move `m` in `position`: `Nf3`, `exd5`, `Rfe1`, `e8=Q+`, `O-O#`.
pub fn name(position: &Position, m: Move) -> String {
    let mut text = match m.kind() {
        MoveKind::KingCastle => "O-O".to_string(),
        MoveKind::QueenCastle => "O-O-O".to_string(),
        _ => move_text(position, m),
    };
    text.push_str(check_mark(position, m));
    text
}

/// The SAN of a move that is not castling, without its check mark.
fn move_text(position: &Position, m: Move) -> String {
    let piece = position.piece_moved(m).kind;
    let mut text = String::new();
    if piece == PieceKind::Pawn {
        if m.is_capture() {
            text.push((b'a' + m.from().file()) as char);
        }
    } else {
        text.push(piece.letter().to_ascii_uppercase());
        text.push_str(&disambiguation(position, m, piece));
    }
    if m.is_capture() {
        text.push('x');
    }
    text.push_str(&m.to().to_string());
    if m.is_promotion() {
        text.push('=');
        text.push(promotion_kind(m).letter().to_ascii_uppercase());
    }
    text
}

/// What must be said of where `m`'s piece comes from: nothing if no other piece of its kind
/// can go to the same square, else its file if that tells them apart, else its rank, else both.
fn disambiguation(position: &Position, m: Move, piece: PieceKind) -> String {
    let rivals: Vec<Square> = position
        .legal_moves()
        .iter()
        .filter(|&&o| o != m && o.to() == m.to() && position.piece_moved(o).kind == piece)
        .map(|o| o.from())
        .collect();
    let from = m.from();
    if rivals.is_empty() {
        String::new()
    } else if rivals.iter().all(|r| r.file() != from.file()) {
        ((b'a' + from.file()) as char).to_string()
    } else if rivals.iter().all(|r| r.rank() != from.rank()) {
        ((b'1' + from.rank()) as char).to_string()
    } else {
        from.to_string()
    }
}

/// `#` if `m` mates, `+` if it checks, else nothing.
fn check_mark(position: &Position, m: Move) -> &'static str {
    let mut after = position.clone();
    after.make_move(m);
    if !after.in_check() {
        ""
    } else if after.legal_moves().is_empty() {
        "#"
    } else {
        "+"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::epd;

    fn uci(fen: &str, san: &str) -> Result<String, SanError> {
        let position = Position::from_fen(fen).expect("a valid FEN");
        to_move(&position, san).map(|m| m.to_string())
    }

    fn named(fen: &str, uci: &str) -> String {
        let position = Position::from_fen(fen).expect("a valid FEN");
        name(&position, position.parse_uci_move(uci).expect("legal"))
    }

    #[test]
    fn san_reads_pieces_captures_checks_and_disambiguation() {
        let start = crate::position::STARTPOS_FEN;
        assert_eq!(uci(start, "Nf3").as_deref(), Ok("g1f3"));
        assert_eq!(uci(start, "e4").as_deref(), Ok("e2e4"));
        assert!(matches!(
            uci(start, "Nd4"),
            Err(SanError::NoLegalMove { .. })
        ));
        assert!(uci(start, "e5").is_err());
        assert!(matches!(uci(start, "Zz9"), Err(SanError::NotSan { .. })));
        let wac1 = "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1";
        assert_eq!(uci(wac1, "Qg6").as_deref(), Ok("g3g6"));
        assert_eq!(uci(wac1, "Qg6!").as_deref(), Ok("g3g6"));
        // Two rooks reach e1 here: "Re1" is ambiguous, "Rfe1" and "Rae1" are not.
        let rooks = "4k3/8/8/8/8/8/8/R4RK1 w - - 0 1";
        let ambiguous = uci(rooks, "Re1").unwrap_err();
        assert!(ambiguous.to_string().contains("ambiguous"), "{ambiguous}");
        assert_eq!(uci(rooks, "Rfe1").as_deref(), Ok("f1e1"));
        assert_eq!(uci(rooks, "Rae1+").as_deref(), Ok("a1e1"));
    }

    #[test]
    fn san_reads_castling_and_promotions() {
        let castle = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1";
        assert_eq!(uci(castle, "O-O").as_deref(), Ok("e8g8"));
        assert_eq!(uci(castle, "O-O-O").as_deref(), Ok("e8c8"));
        assert_eq!(uci(castle, "0-0").as_deref(), Ok("e8g8"));
        let promote = "1n5k/P7/8/8/8/8/8/7K w - - 0 1";
        assert_eq!(uci(promote, "a8=Q").as_deref(), Ok("a7a8q"));
        assert_eq!(uci(promote, "a8Q").as_deref(), Ok("a7a8q"));
        assert_eq!(uci(promote, "axb8N+").as_deref(), Ok("a7b8n"));
        assert!(
            uci(promote, "a8").is_err(),
            "a promotion must say its piece"
        );
        assert!(uci(promote, "a8=K").is_err());
    }

    #[test]
    fn names_say_only_what_the_position_needs() {
        let rooks = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        assert_eq!(named(rooks, "e1c1"), "O-O-O");
        assert_eq!(named(rooks, "a1b1"), "Rb1", "no other rook reaches b1");
        assert_eq!(named(rooks, "a1a8"), "Rxa8+");
        let files = "4k3/8/8/8/8/8/4K3/R6R w - - 0 1";
        assert_eq!(named(files, "h1d1"), "Rhd1");
        let ranks = "4k3/8/8/8/R7/8/4K3/R7 w - - 0 1";
        assert_eq!(named(ranks, "a4a3"), "R4a3");
        let three_queens = "7k/8/8/8/Q1Q5/8/Q7/4K3 w - - 0 1";
        assert_eq!(named(three_queens, "a4b3"), "Qa4b3");
        assert_eq!(named("1n5k/P7/8/8/8/8/8/7K w - - 0 1", "a7b8q"), "axb8=Q+");
        assert_eq!(
            named("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "d1d8"),
            "Rd8#"
        );
        assert_eq!(
            named("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"),
            "exd6",
            "en passant"
        );
    }

    /// Every legal move of every position of the perft suite is named, and the name read back
    /// is the move: the two directions agree, and no name is ambiguous.
    #[test]
    fn every_name_reads_back_as_its_move() {
        let suite =
            epd::perft_suite(include_str!("../../../data/perft-standard.epd")).expect("the suite");
        let mut named = 0;
        for entry in suite {
            let position = Position::from_fen(&entry.fen).expect("a valid FEN");
            for &m in &position.legal_moves() {
                let san = name(&position, m);
                assert_eq!(to_move(&position, &san), Ok(m), "{san} in {}", entry.fen);
                named += 1;
            }
        }
        assert!(named > 1000, "only {named} moves");
    }

    #[test]
    fn every_suite_move_names_exactly_one_legal_move() {
        let suites = [
            (include_str!("../../../data/suites/wac.epd"), 300),
            (include_str!("../../../data/suites/bratko-kopec.epd"), 24),
        ];
        for (text, count) in suites {
            let lines = epd::parse(text).expect("valid EPD");
            assert_eq!(lines.len(), count);
            for line in &lines {
                let position = Position::from_fen(&line.fen).expect("a valid FEN");
                for san in line.best_moves().iter().chain(line.avoid_moves()) {
                    assert!(to_move(&position, san).is_ok(), "{:?}: {san}", line.id());
                }
            }
        }
    }
}
