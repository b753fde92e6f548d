//! Which squares a piece attacks (chapter 2).
//!
//! Leapers (knight, king, pawn) attack the same squares whatever else is on the board, so their
//! attacks are tables of 64 bitboards, computed at compile time. Sliders (bishop, rook, queen)
//! depend on the occupancy and use the magic tables of `magic.rs`, filled once on first use from
//! the magic numbers chapter 2's search found (`magic_numbers.rs`).
//! `between` and `line` are the two tables legal move generation needs for pins and checks
//! (CPW: Square Attacked By, Checks and Pinned Pieces).

use crate::bitboard::Bitboard;
use crate::magic::{
    BISHOP_DIRECTIONS, MAGIC_SEED, MagicTable, ROOK_DIRECTIONS, SplitMix64, slider_attacks_slow,
};
use crate::magic_numbers;
use crate::square::{Color, Square};
use std::sync::OnceLock;

// ANCHOR: leaper_table
/// The squares reached from each square by the `steps` (file, rank) that stay on the board.
const fn leaper_table(steps: &[(i8, i8)]) -> [Bitboard; 64] {
    let mut table = [Bitboard::EMPTY; 64];
    let mut index = 0;
    while index < 64 {
        let square = Square::new(index as u8);
        let mut attacks = 0u64;
        let mut s = 0;
        while s < steps.len() {
            let file = square.file() as i8 + steps[s].0;
            let rank = square.rank() as i8 + steps[s].1;
            if file >= 0 && file < 8 && rank >= 0 && rank < 8 {
                attacks |= 1 << (rank * 8 + file);
            }
            s += 1;
        }
        table[index] = Bitboard(attacks);
        index += 1;
    }
    table
}

static KNIGHT_ATTACKS: [Bitboard; 64] = leaper_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
// ANCHOR_END: leaper_table

static KING_ATTACKS: [Bitboard; 64] = leaper_table(&[
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
]);

/// Pawn captures, by colour: White's go north-east and north-west, Black's south.
static PAWN_ATTACKS: [[Bitboard; 64]; 2] = [
    leaper_table(&[(-1, 1), (1, 1)]),
    leaper_table(&[(-1, -1), (1, -1)]),
];

/// The squares a knight on `square` attacks.
#[inline]
pub fn knight_attacks(square: Square) -> Bitboard {
    KNIGHT_ATTACKS[square.index()]
}

/// The squares a king on `square` attacks.
#[inline]
pub fn king_attacks(square: Square) -> Bitboard {
    KING_ATTACKS[square.index()]
}

/// The squares a pawn of `color` on `square` attacks (captures, not pushes). Read backwards,
/// `pawn_attacks(White, s)` is also the set of squares from which a *black* pawn attacks `s`.
#[inline]
pub fn pawn_attacks(color: Color, square: Square) -> Bitboard {
    PAWN_ATTACKS[color.index()][square.index()]
}

// ANCHOR: sliders
/// The rook's and the bishop's magic tables.
#[derive(Debug)]
pub struct Sliders {
    /// Rook attacks: 102,400 entries (the sum of 2^relevant squares over the 64 squares).
    pub rook: MagicTable,
    /// Bishop attacks: 5,248 entries.
    pub bishop: MagicTable,
}

impl Sliders {
    /// The tables filled from the stored magic numbers ([`crate::magic_numbers`]): what the
    /// engine does at start-up, a fill without a search.
    pub fn build() -> Sliders {
        Sliders {
            rook: MagicTable::from_magics(&ROOK_DIRECTIONS, &magic_numbers::ROOK)
                .expect("the stored rook numbers are magics"),
            bishop: MagicTable::from_magics(&BISHOP_DIRECTIONS, &magic_numbers::BISHOP)
                .expect("the stored bishop numbers are magics"),
        }
    }

    /// Searches the magics, rooks first, from [`MAGIC_SEED`]: chapter 2's search, which found the
    /// stored numbers (`cargo xtask magics` runs it and writes them).
    pub fn search() -> Sliders {
        let mut rng = SplitMix64::new(MAGIC_SEED);
        let rook = MagicTable::build(&ROOK_DIRECTIONS, &mut rng);
        let bishop = MagicTable::build(&BISHOP_DIRECTIONS, &mut rng);
        Sliders { rook, bishop }
    }

    /// Rook attacks from `square` with the board occupied by `occupied`.
    #[inline]
    pub fn rook(&self, square: Square, occupied: Bitboard) -> Bitboard {
        self.rook.attacks(square, occupied)
    }

    /// Bishop attacks from `square` with the board occupied by `occupied`.
    #[inline]
    pub fn bishop(&self, square: Square, occupied: Bitboard) -> Bitboard {
        self.bishop.attacks(square, occupied)
    }
}

static SLIDERS: OnceLock<Sliders> = OnceLock::new();

/// The magic tables, filled on the first call and shared afterwards. Hot
/// loops fetch this once and call its methods, saving the "already built?" check per lookup.
#[inline]
pub fn sliders() -> &'static Sliders {
    SLIDERS.get_or_init(Sliders::build)
}
// ANCHOR_END: sliders

/// The squares a rook on `square` attacks when the board is occupied by `occupied`.
#[inline]
pub fn rook_attacks(square: Square, occupied: Bitboard) -> Bitboard {
    sliders().rook(square, occupied)
}

/// The squares a bishop on `square` attacks when the board is occupied by `occupied`.
#[inline]
pub fn bishop_attacks(square: Square, occupied: Bitboard) -> Bitboard {
    sliders().bishop(square, occupied)
}

/// The squares a queen on `square` attacks: a rook's and a bishop's together.
#[inline]
pub fn queen_attacks(square: Square, occupied: Bitboard) -> Bitboard {
    let tables = sliders();
    tables.rook(square, occupied) | tables.bishop(square, occupied)
}

/// For every pair of squares, the squares strictly between them when they share a rank, file
/// or diagonal, and the empty set otherwise. 64 x 64 bitboards, 32 KiB, made at compile time.
static BETWEEN: [[Bitboard; 64]; 64] = pair_table(false);

/// For every pair of aligned squares, the whole line through both, edge to edge (both
/// included); the empty set for squares that are not aligned or equal.
static LINE: [[Bitboard; 64]; 64] = pair_table(true);

/// Builds `BETWEEN` (`whole_line == false`) or `LINE` from slow ray walks: the squares two
/// aligned pieces both see along their common direction.
const fn pair_table(whole_line: bool) -> [[Bitboard; 64]; 64] {
    let mut table = [[Bitboard::EMPTY; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            table[a][b] = pair_squares(Square::new(a as u8), Square::new(b as u8), whole_line);
            b += 1;
        }
        a += 1;
    }
    table
}

const fn pair_squares(a: Square, b: Square, whole_line: bool) -> Bitboard {
    if a.index() == b.index() {
        return Bitboard::EMPTY;
    }
    let directions = if a.file() == b.file() || a.rank() == b.rank() {
        &ROOK_DIRECTIONS
    } else if a.file().abs_diff(b.file()) == a.rank().abs_diff(b.rank()) {
        &BISHOP_DIRECTIONS
    } else {
        return Bitboard::EMPTY;
    };
    let ends = Bitboard(Bitboard::from_square(a).0 | Bitboard::from_square(b).0);
    if whole_line {
        let from_a = slider_attacks_slow(a, Bitboard::EMPTY, directions);
        let from_b = slider_attacks_slow(b, Bitboard::EMPTY, directions);
        Bitboard((from_a.0 & from_b.0) | ends.0)
    } else {
        let from_a = slider_attacks_slow(a, ends, directions);
        let from_b = slider_attacks_slow(b, ends, directions);
        Bitboard(from_a.0 & from_b.0)
    }
}

/// The squares strictly between `a` and `b` on their common line; empty if they share none.
/// A check by a slider is blocked by moving onto one of these squares.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    BETWEEN[a.index()][b.index()]
}

/// The whole line through `a` and `b` (edge to edge); empty if they share none. A pinned piece
/// may move only along the line through its king and itself.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    LINE[a.index()][b.index()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::magic::{SplitMix64, relevant_mask, subsets};

    fn sq(name: &str) -> Square {
        Square::parse(name).expect("a valid square name")
    }

    fn set(names: &[&str]) -> Bitboard {
        names.iter().map(|name| sq(name)).collect()
    }

    #[test]
    fn leapers_on_corners_and_centre() {
        assert_eq!(knight_attacks(sq("a1")), set(&["b3", "c2"]));
        assert_eq!(knight_attacks(sq("e4")).count(), 8);
        assert_eq!(king_attacks(sq("h8")), set(&["g8", "g7", "h7"]));
        assert_eq!(king_attacks(sq("e4")).count(), 8);
        assert_eq!(pawn_attacks(Color::White, sq("a2")), set(&["b3"]));
        assert_eq!(pawn_attacks(Color::Black, sq("e5")), set(&["d4", "f4"]));
        assert_eq!(pawn_attacks(Color::White, sq("e8")), Bitboard::EMPTY);
    }

    #[test]
    fn table_sizes_are_the_classic_ones() {
        let tables = sliders();
        assert_eq!(tables.rook.attacks.len(), 102_400);
        assert_eq!(tables.bishop.attacks.len(), 5_248);
    }

    /// Every square, every subset of its relevant squares: the magic lookup equals the slow ray
    /// walk. This is the whole correctness argument for the tables.
    #[test]
    fn the_stored_magics_are_the_ones_the_search_finds() {
        let searched = Sliders::search();
        assert_eq!(
            searched.rook.numbers(),
            magic_numbers::ROOK,
            "run `cargo xtask magics`"
        );
        assert_eq!(
            searched.bishop.numbers(),
            magic_numbers::BISHOP,
            "run `cargo xtask magics`"
        );
        assert_eq!(sliders().rook.attacks, searched.rook.attacks);
        assert_eq!(sliders().bishop.attacks, searched.bishop.attacks);
    }

    #[test]
    fn magic_tables_equal_the_slow_walk_for_every_relevant_occupancy() {
        let tables = sliders();
        for square in Square::ALL {
            for occupied in subsets(relevant_mask(square, &ROOK_DIRECTIONS)) {
                let slow = slider_attacks_slow(square, occupied, &ROOK_DIRECTIONS);
                assert_eq!(tables.rook(square, occupied), slow, "rook on {square}");
            }
            for occupied in subsets(relevant_mask(square, &BISHOP_DIRECTIONS)) {
                let slow = slider_attacks_slow(square, occupied, &BISHOP_DIRECTIONS);
                assert_eq!(tables.bishop(square, occupied), slow, "bishop on {square}");
            }
        }
    }

    /// Squares outside the relevant mask (edges, pieces beyond) must not change the answer:
    /// random crowded boards, the queen's attacks against the slow walk.
    #[test]
    fn sliders_on_random_crowded_boards_equal_the_slow_walk() {
        let mut rng = SplitMix64::new(2026);
        for _ in 0..2_000 {
            let occupied = Bitboard(rng.next_u64() | rng.next_u64());
            for square in Square::ALL {
                let mut slow = slider_attacks_slow(square, occupied, &ROOK_DIRECTIONS);
                slow |= slider_attacks_slow(square, occupied, &BISHOP_DIRECTIONS);
                assert_eq!(queen_attacks(square, occupied), slow);
            }
        }
        for square in Square::ALL {
            let empty = Bitboard::EMPTY;
            assert_eq!(rook_attacks(square, empty).count(), 14);
            assert_eq!(
                rook_attacks(square, Bitboard::ALL),
                king_attacks(square) & rook_attacks(square, empty)
            );
        }
    }

    #[test]
    fn between_and_line() {
        assert_eq!(between(sq("a1"), sq("d4")), set(&["b2", "c3"]));
        assert_eq!(between(sq("d4"), sq("a1")), set(&["b2", "c3"]));
        assert_eq!(between(sq("e1"), sq("e2")), Bitboard::EMPTY);
        assert_eq!(between(sq("a1"), sq("b3")), Bitboard::EMPTY);
        assert_eq!(line(sq("c3"), sq("e5")), Bitboard(0x8040_2010_0804_0201));
        assert_eq!(line(sq("e2"), sq("e7")), Bitboard::file(4));
        assert_eq!(line(sq("a1"), sq("b3")), Bitboard::EMPTY);
        assert_eq!(line(sq("a1"), sq("a1")), Bitboard::EMPTY);
    }
}
