//! Chapter 1, squares and bitboards: how the engine numbers the 64 squares, and what that
//! numbering makes cheap.

use crate::{Chapter, Figures};
use cb2026::bitboard::Bitboard;
use cb2026::position::{PieceKind, Position};
use cb2026::square::{Color, Square};

/// Chapter 1 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "ch01",
    title: "Squares and bitboards",
    bin: "ch01-squares",
    figures,
    measured: None,
    deep: None,
    print_tables,
};

/// The square named `name`; the names used by the chapters are constants, so a failure is a
/// typo in them.
pub fn square(name: &str) -> Square {
    Square::parse(name).unwrap_or_else(|| panic!("{name} is not a square name"))
}

/// A position from a FEN the chapters hold as a constant (a failure is a typo in it).
pub fn position(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// A bitboard as the 18-character hexadecimal word (`0x000000000000ff00`).
pub fn hex(bitboard: Bitboard) -> String {
    format!("{:#018x}", bitboard.0)
}

/// The squares of a set, lowest first, separated by spaces (`b1 g1`).
pub fn names(bitboard: Bitboard) -> String {
    bitboard
        .iter()
        .map(|square| square.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Chapter 1's figures, all computed by the engine's own `Square` and `Bitboard`.
pub fn figures() -> Figures {
    let e4 = square("e4");
    let start = Position::startpos();
    let white_pawns = start.pieces(Color::White, PieceKind::Pawn);
    let white = start.colour(Color::White);
    let h4 = square("h4");
    let mut figures = Figures::new("ch01");
    figures
        .add("ch01.squares", Square::ALL.len())
        .add("ch01.a1.index", square("a1").index())
        .add("ch01.h8.index", square("h8").index())
        .add("ch01.e4.index", e4.index())
        .add("ch01.e4.file", e4.file())
        .add("ch01.e4.rank", e4.rank())
        // The bitboard holding e4 alone: bit `index` set.
        .add("ch01.e4.bit", 1u64 << e4.index())
        .add("ch01.north.step", square("e5").index() - e4.index())
        .add("ch01.east.step", square("f4").index() - e4.index())
        .add("ch01.e2.flipped", square("e2").flip_rank().to_string())
        .add("ch01.square.bytes", size_of::<Square>())
        .add("ch01.bitboard.bytes", size_of::<Bitboard>())
        .add("ch01.file_a.hex", hex(Bitboard::FILE_A))
        .add("ch01.rank_1.hex", hex(Bitboard::RANK_1))
        .add("ch01.startpos.white_pawns.hex", hex(white_pawns))
        .add(
            "ch01.startpos.white_pawns.north.hex",
            hex(white_pawns.north()),
        )
        .add("ch01.startpos.occupied.hex", hex(start.occupied()))
        .add("ch01.startpos.occupied.count", start.occupied().count())
        .add("ch01.startpos.white.count", white.count())
        .add("ch01.startpos.white.iterations", white.iter().count())
        .add(
            "ch01.startpos.white_knights",
            names(start.pieces(Color::White, PieceKind::Knight)),
        )
        .add(
            "ch01.startpos.white_pawns.first",
            white_pawns
                .first()
                .map_or("-".to_string(), |s| s.to_string()),
        )
        // Shifting h4's bit by one without the mask lands on the next rank's first square.
        .add(
            "ch01.h4.unmasked_east",
            Square::new(h4.index() as u8 + 1).to_string(),
        )
        .add(
            "ch01.h4.east.count",
            Bitboard::from_square(h4).east().count(),
        )
        .add("ch01.file_h.east.count", Bitboard::FILE_H.east().count())
        .add(
            "ch01.file_a.east",
            names(Bitboard::FILE_A.east() & Bitboard::RANK_1),
        );
    figures
}

/// The board with each square's index, eighth rank on top, as a reader sees a diagram.
pub fn board_of_indices() -> String {
    let mut board = String::new();
    for rank in (0..8).rev() {
        board.push_str(&format!("{} ", rank + 1));
        for file in 0..8 {
            board.push_str(&format!(
                "{:>3}",
                Square::from_file_rank(file, rank).index()
            ));
        }
        board.push('\n');
    }
    board.push_str("    a  b  c  d  e  f  g  h\n");
    board
}

fn print_tables() {
    println!("Square indices (a1 = 0, h8 = 63):\n");
    print!("{}", board_of_indices());
    let start = Position::startpos();
    println!("\nThe start position's white pawns, and the same set one step north:\n");
    let pawns = start.pieces(Color::White, PieceKind::Pawn);
    print!("{:?}", pawns);
    print!("{:?}", pawns.north());
    println!();
    print!("{}", figures().to_yaml());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_has_a1_bottom_left_and_h8_top_right() {
        let board = board_of_indices();
        let lines: Vec<&str> = board.lines().collect();
        assert_eq!(lines[0], "8  56 57 58 59 60 61 62 63");
        assert_eq!(lines[7], "1   0  1  2  3  4  5  6  7");
    }

    #[test]
    fn names_and_hex_show_a_set() {
        assert_eq!(names(Bitboard::RANK_1 & Bitboard::FILE_A), "a1");
        assert_eq!(hex(Bitboard::RANK_1), "0x00000000000000ff");
    }
}
