//! Moves packed into 16 bits (chapter 3).
//!
//! A move is `from` (6 bits), `to` (6 bits) and a 4-bit kind, the "from-to based" encoding of
//! the Chess Programming Wiki (Encoding Moves). Sixteen bits matter because moves are stored
//! by the million: in move lists, killer and history tables, and in every transposition-table
//! slot. A move never has `from == to`, so the packed value is never zero, and `Option<Move>`
//! costs no more than a `Move` (the zero is the `None`).

use crate::square::Square;
use std::fmt;
use std::num::NonZeroU16;

// ANCHOR: move_kind
/// What a move does besides moving a piece from one square to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    Quiet = 0,
    DoublePawnPush = 1,
    KingCastle = 2,
    QueenCastle = 3,
    Capture = 4,
    EnPassant = 5,
    KnightPromotion = 8,
    BishopPromotion = 9,
    RookPromotion = 10,
    QueenPromotion = 11,
    KnightPromotionCapture = 12,
    BishopPromotionCapture = 13,
    RookPromotionCapture = 14,
    QueenPromotionCapture = 15,
}
// ANCHOR_END: move_kind

impl MoveKind {
    const ALL: [Option<MoveKind>; 16] = [
        Some(MoveKind::Quiet),
        Some(MoveKind::DoublePawnPush),
        Some(MoveKind::KingCastle),
        Some(MoveKind::QueenCastle),
        Some(MoveKind::Capture),
        Some(MoveKind::EnPassant),
        None,
        None,
        Some(MoveKind::KnightPromotion),
        Some(MoveKind::BishopPromotion),
        Some(MoveKind::RookPromotion),
        Some(MoveKind::QueenPromotion),
        Some(MoveKind::KnightPromotionCapture),
        Some(MoveKind::BishopPromotionCapture),
        Some(MoveKind::RookPromotionCapture),
        Some(MoveKind::QueenPromotionCapture),
    ];
}

// ANCHOR: move_type
/// A move: from, to and kind in 16 bits.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(NonZeroU16);

impl Move {
    /// Packs a move. `from` and `to` must differ (every chess move changes square).
    #[inline]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        let bits = (from.index() as u16) | ((to.index() as u16) << 6) | ((kind as u16) << 12);
        match NonZeroU16::new(bits) {
            Some(bits) => Move(bits),
            None => panic!("a move must change square"),
        }
    }
    // ANCHOR_END: move_type

    /// The square the piece leaves.
    #[inline]
    pub const fn from(self) -> Square {
        Square::new((self.0.get() & 63) as u8)
    }

    /// The square the piece arrives on (for castling, the king's destination).
    #[inline]
    pub const fn to(self) -> Square {
        Square::new(((self.0.get() >> 6) & 63) as u8)
    }

    /// The move's kind.
    #[inline]
    pub fn kind(self) -> MoveKind {
        MoveKind::ALL[(self.0.get() >> 12) as usize].expect("kinds 6 and 7 are never packed")
    }

    // ANCHOR: move_flags
    /// Whether the move takes a piece (en passant included): the kinds with bit 2 set
    /// (4, 5 and 12 to 15), which is why the kinds are numbered as they are.
    #[inline]
    pub const fn is_capture(self) -> bool {
        self.0.get() & (4 << 12) != 0
    }

    /// Whether the move promotes a pawn.
    #[inline]
    pub const fn is_promotion(self) -> bool {
        self.0.get() & (8 << 12) != 0
    }
    // ANCHOR_END: move_flags

    /// Whether the move is "noisy", one that `Position::legal_captures` generates for the
    /// quiescence search: a capture that does not under-promote, or a promotion to a queen.
    /// Every other move (under-promotions included) is quiet.
    #[inline]
    pub fn is_noisy(self) -> bool {
        match self.kind() {
            MoveKind::QueenPromotion => true,
            MoveKind::KnightPromotionCapture
            | MoveKind::BishopPromotionCapture
            | MoveKind::RookPromotionCapture => false,
            _ => self.is_capture(),
        }
    }

    /// The 16 bits, for tables that store moves (never 0).
    #[inline]
    pub const fn to_bits(self) -> u16 {
        self.0.get()
    }

    /// The move stored as `bits` by [`Move::to_bits`]; `None` for 0 (no move) or bits that no
    /// move packs to.
    #[inline]
    pub fn from_bits(bits: u16) -> Option<Move> {
        let kind_ok = MoveKind::ALL[(bits >> 12) as usize].is_some();
        let squares_differ = bits & 63 != (bits >> 6) & 63;
        if kind_ok && squares_differ {
            NonZeroU16::new(bits).map(Move)
        } else {
            None
        }
    }
}

impl fmt::Display for Move {
    /// UCI's long algebraic form: `e2e4`, `e7e8q`, castling as the king's move `e1g1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        let promotion = match self.kind() {
            MoveKind::KnightPromotion | MoveKind::KnightPromotionCapture => "n",
            MoveKind::BishopPromotion | MoveKind::BishopPromotionCapture => "b",
            MoveKind::RookPromotion | MoveKind::RookPromotionCapture => "r",
            MoveKind::QueenPromotion | MoveKind::QueenPromotionCapture => "q",
            _ => "",
        };
        f.write_str(promotion)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self} ({:?})", self.kind())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        Square::parse(name).expect("a valid square name")
    }

    #[test]
    fn packing_round_trips_every_kind() {
        for bits in 0..16u16 {
            let Some(kind) = MoveKind::ALL[bits as usize] else {
                continue;
            };
            let m = Move::new(sq("b7"), sq("a8"), kind);
            assert_eq!((m.from(), m.to(), m.kind()), (sq("b7"), sq("a8"), kind));
            assert_eq!(Move::from_bits(m.to_bits()), Some(m));
        }
    }

    #[test]
    fn zero_and_unused_kinds_are_not_moves() {
        assert_eq!(Move::from_bits(0), None);
        assert_eq!(Move::from_bits(6 << 12 | 8 << 6), None);
        assert_eq!(Move::from_bits(5 << 6 | 5), None);
    }

    #[test]
    fn captures_and_promotions_are_told_apart() {
        let capture = |kind| Move::new(sq("e7"), sq("d8"), kind).is_capture();
        assert!(capture(MoveKind::Capture));
        assert!(capture(MoveKind::EnPassant));
        assert!(capture(MoveKind::QueenPromotionCapture));
        assert!(!capture(MoveKind::QueenPromotion));
        assert!(!capture(MoveKind::KingCastle));
        assert!(Move::new(sq("e7"), sq("e8"), MoveKind::KnightPromotion).is_promotion());
        assert!(!Move::new(sq("e2"), sq("e4"), MoveKind::DoublePawnPush).is_promotion());
    }

    #[test]
    fn uci_text_names_the_promotion_piece() {
        assert_eq!(
            Move::new(sq("e7"), sq("e8"), MoveKind::QueenPromotion).to_string(),
            "e7e8q"
        );
        assert_eq!(
            Move::new(sq("e1"), sq("g1"), MoveKind::KingCastle).to_string(),
            "e1g1"
        );
    }
}
