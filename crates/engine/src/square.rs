//! Squares and colours: the 64 cells of the board, numbered so that bit `n` of a bitboard is
//! square `n` (chapter 1).
//!
//! Squares run a1 = 0, b1 = 1, ... h1 = 7, a2 = 8, ... h8 = 63 ("little-endian rank-file
//! mapping", Chess Programming Wiki: Square Mapping Considerations). With that order a step
//! north is `+ 8`, a step east `+ 1`, and a square's file and rank are `index % 8` and `index / 8`.

use std::fmt;

// ANCHOR: square_type
/// One of the 64 squares, `a1 = 0` to `h8 = 63`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);
// ANCHOR_END: square_type

impl Square {
    /// Every square, in index order.
    pub const ALL: [Square; 64] = {
        let mut all = [Square(0); 64];
        let mut i = 0;
        while i < 64 {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The square with `index` (0..64). Panics on a larger index: callers hold indices they made.
    #[inline]
    pub const fn new(index: u8) -> Square {
        assert!(index < 64);
        Square(index)
    }

    // ANCHOR: file_and_rank
    /// The square on `file` (0 = a) and `rank` (0 = the first rank).
    #[inline]
    pub const fn from_file_rank(file: u8, rank: u8) -> Square {
        Square::new(rank * 8 + file)
    }

    /// The index 0..64, as used by bitboards and tables.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0 for the a-file up to 7 for the h-file.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % 8
    }

    /// 0 for the first rank up to 7 for the eighth.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / 8
    }
    // ANCHOR_END: file_and_rank

    // ANCHOR: flip_rank
    /// The same square seen from the other side of the board (a1 <-> a8): how Black's
    /// piece-square tables are read from White's.
    #[inline]
    pub const fn flip_rank(self) -> Square {
        Square(self.0 ^ 56)
    }
    // ANCHOR_END: flip_rank

    /// Parses a square name such as `e4`; `None` for anything else.
    pub fn parse(name: &str) -> Option<Square> {
        match name.as_bytes() {
            [file @ b'a'..=b'h', rank @ b'1'..=b'8'] => {
                Some(Square::from_file_rank(file - b'a', rank - b'1'))
            }
            _ => None,
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = (b'a' + self.file()) as char;
        let rank = (b'1' + self.rank()) as char;
        write!(f, "{file}{rank}")
    }
}

/// The side a piece belongs to, or the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];

    /// The opponent.
    #[inline]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black: an index into per-colour tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_for_every_square() {
        for square in Square::ALL {
            assert_eq!(Square::parse(&square.to_string()), Some(square));
        }
        assert_eq!(Square::parse("e4").map(Square::index), Some(28));
        assert_eq!(Square::parse("i1"), None);
        assert_eq!(Square::parse("a9"), None);
        assert_eq!(Square::parse("e"), None);
    }

    #[test]
    fn flipping_the_rank_mirrors_the_board() {
        assert_eq!(
            Square::parse("a1").map(Square::flip_rank),
            Square::parse("a8")
        );
        assert_eq!(
            Square::parse("e2").map(Square::flip_rank),
            Square::parse("e7")
        );
    }
}
