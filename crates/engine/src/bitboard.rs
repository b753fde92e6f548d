//! Bitboards: a set of squares in one 64-bit word, bit `n` for square `n` (chapter 1).
//!
//! With the little-endian rank-file mapping of `square.rs`, a step north is a shift left by 8
//! and a step east a shift left by 1, so "every white pawn one square forward" is one shift
//! of a whole set (Chess Programming Wiki: Bitboards, General Setwise Operations). Shifts that
//! move east or west must first drop the squares on the edge file, or they would wrap around to
//! the other side of the board.

use crate::square::{Color, Square};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

// ANCHOR: bitboard_type
/// A set of squares: bit `n` is set when square `n` is in the set.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u64);
// ANCHOR_END: bitboard_type

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 64 squares.
    pub const ALL: Bitboard = Bitboard(!0);

    /// The a-file (a1, a2, ... a8).
    pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    /// The h-file.
    pub const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);
    /// The first rank (a1 ... h1).
    pub const RANK_1: Bitboard = Bitboard(0xFF);
    /// The eighth rank.
    pub const RANK_8: Bitboard = Bitboard(0xFF << 56);

    /// The file `file` (0 = a).
    #[inline]
    pub const fn file(file: u8) -> Bitboard {
        Bitboard(Bitboard::FILE_A.0 << file)
    }

    /// The rank `rank` (0 = the first rank).
    #[inline]
    pub const fn rank(rank: u8) -> Bitboard {
        Bitboard(Bitboard::RANK_1.0 << (8 * rank))
    }

    /// The set holding `square` alone.
    #[inline]
    pub const fn from_square(square: Square) -> Bitboard {
        Bitboard(1 << square.index())
    }

    /// Whether `square` is in the set.
    #[inline]
    pub const fn contains(self, square: Square) -> bool {
        self.0 & (1 << square.index()) != 0
    }

    /// Whether the set has no square.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has at least one square.
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    // ANCHOR: counting
    /// The number of squares in the set (one `popcnt` instruction where the CPU has it).
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set has two or more squares: clearing the lowest bit leaves something.
    /// Cheaper than `count() > 1` on CPUs without `popcnt`, and says what it means.
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest-numbered square of the set, `None` when it is empty.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new(self.0.trailing_zeros() as u8))
        }
    }
    // ANCHOR_END: counting

    /// The set with `square` added.
    #[inline]
    pub const fn with(self, square: Square) -> Bitboard {
        Bitboard(self.0 | (1 << square.index()))
    }

    /// The set with `square` removed.
    #[inline]
    pub const fn without(self, square: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << square.index()))
    }

    // ANCHOR: shifts
    /// Every square one step north (towards the eighth rank); the eighth rank falls off.
    #[inline]
    pub const fn north(self) -> Bitboard {
        Bitboard(self.0 << 8)
    }

    /// Every square one step south; the first rank falls off.
    #[inline]
    pub const fn south(self) -> Bitboard {
        Bitboard(self.0 >> 8)
    }

    /// Every square one step east (towards the h-file); the h-file falls off instead of
    /// wrapping onto the a-file of the next rank.
    #[inline]
    pub const fn east(self) -> Bitboard {
        Bitboard((self.0 & !Bitboard::FILE_H.0) << 1)
    }

    /// Every square one step west; the a-file falls off.
    #[inline]
    pub const fn west(self) -> Bitboard {
        Bitboard((self.0 & !Bitboard::FILE_A.0) >> 1)
    }
    // ANCHOR_END: shifts

    /// One step forward for `color`'s pawns: north for White, south for Black.
    #[inline]
    pub const fn forward(self, color: Color) -> Bitboard {
        match color {
            Color::White => self.north(),
            Color::Black => self.south(),
        }
    }

    /// The squares of the set, lowest first.
    #[inline]
    pub const fn iter(self) -> Squares {
        Squares(self.0)
    }
}

// ANCHOR: squares_iter
/// The squares of a bitboard, lowest first: each step takes the lowest set bit and clears it
/// (`x & (x - 1)`), so the loop runs once per square, not 64 times.
#[derive(Clone, Copy, Debug)]
pub struct Squares(u64);

impl Iterator for Squares {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let square = Square::new(self.0.trailing_zeros() as u8);
        self.0 &= self.0 - 1;
        Some(square)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}
// ANCHOR_END: squares_iter

impl ExactSizeIterator for Squares {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;

    #[inline]
    fn into_iter(self) -> Squares {
        self.iter()
    }
}

impl From<Square> for Bitboard {
    #[inline]
    fn from(square: Square) -> Bitboard {
        Bitboard::from_square(square)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(squares: I) -> Bitboard {
        squares.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

macro_rules! bit_operator {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $method(self, other: Bitboard) -> Bitboard {
                Bitboard(self.0 $op other.0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline]
            fn $assign_method(&mut self, other: Bitboard) {
                self.0 = self.0 $op other.0;
            }
        }
    };
}

bit_operator!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_operator!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_operator!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Sub for Bitboard {
    type Output = Bitboard;

    /// Set difference: the squares of `self` that are not in `other`.
    #[inline]
    fn sub(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & !other.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;

    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl fmt::Debug for Bitboard {
    /// The board as eight lines, the eighth rank first, `x` for a square in the set.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard({:#018x})", self.0)?;
        for rank in (0..8).rev() {
            for file in 0..8 {
                let square = Square::from_file_rank(file, rank);
                f.write_str(if self.contains(square) { " x" } else { " ." })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        Square::parse(name).expect("a valid square name")
    }

    fn set(names: &[&str]) -> Bitboard {
        names.iter().map(|name| sq(name)).collect()
    }

    #[test]
    fn iteration_yields_each_square_once_lowest_first() {
        let b = set(&["h8", "a1", "e4"]);
        let squares: Vec<Square> = b.iter().collect();
        assert_eq!(squares, vec![sq("a1"), sq("e4"), sq("h8")]);
        assert_eq!(b.iter().len(), 3);
        assert_eq!(Bitboard::EMPTY.iter().next(), None);
        assert_eq!(Bitboard::ALL.iter().count(), 64);
    }

    #[test]
    fn counting_and_membership() {
        let b = set(&["b2", "g7"]);
        assert_eq!(b.count(), 2);
        assert!(b.contains(sq("b2")) && !b.contains(sq("b3")));
        assert!(b.more_than_one());
        assert!(!set(&["b2"]).more_than_one());
        assert!(!Bitboard::EMPTY.more_than_one());
        assert_eq!(b.first(), Some(sq("b2")));
        assert_eq!(Bitboard::EMPTY.first(), None);
        assert_eq!(b.without(sq("b2")), set(&["g7"]));
        assert_eq!(Bitboard::EMPTY.with(sq("c3")), set(&["c3"]));
    }

    #[test]
    fn shifts_do_not_wrap_around_the_edges() {
        assert_eq!(set(&["h4"]).east(), Bitboard::EMPTY);
        assert_eq!(set(&["a4"]).west(), Bitboard::EMPTY);
        assert_eq!(set(&["d8"]).north(), Bitboard::EMPTY);
        assert_eq!(set(&["d1"]).south(), Bitboard::EMPTY);
        assert_eq!(set(&["d4"]).east(), set(&["e4"]));
        assert_eq!(set(&["d4"]).west(), set(&["c4"]));
        assert_eq!(set(&["d4"]).forward(Color::White), set(&["d5"]));
        assert_eq!(set(&["d4"]).forward(Color::Black), set(&["d3"]));
        assert_eq!(Bitboard::FILE_A.east(), Bitboard::file(1));
        assert_eq!(Bitboard::rank(7), Bitboard::RANK_8);
    }

    #[test]
    fn set_operators_follow_set_algebra() {
        let a = set(&["a1", "b2", "c3"]);
        let b = set(&["b2", "d4"]);
        assert_eq!(a & b, set(&["b2"]));
        assert_eq!(a | b, set(&["a1", "b2", "c3", "d4"]));
        assert_eq!(a ^ b, set(&["a1", "c3", "d4"]));
        assert_eq!(a - b, set(&["a1", "c3"]));
        assert_eq!((!a).count(), 61);
    }
}
