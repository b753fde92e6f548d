//! Chapter 1, squares and bitboards: how the engine numbers the 64 squares, and what that
//! numbering makes cheap.

use crate::{Chapter, Figures};
use cb2026::square::Square;

/// Chapter 1 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "ch01",
    title: "Squares and bitboards",
    bin: "ch01-squares",
    figures,
    measured: None,
    print_tables,
};

/// The square named `name`; the names used here are constants, so a failure is a typo in them.
fn square(name: &str) -> Square {
    Square::parse(name).unwrap_or_else(|| panic!("{name} is not a square name"))
}

/// Chapter 1's figures, all computed by the engine's own `Square`.
pub fn figures() -> Figures {
    let e4 = square("e4");
    let mut figures = Figures::new("ch01");
    figures
        .add("ch01.squares", Square::ALL.len())
        .add("ch01.a1.index", square("a1").index())
        .add("ch01.h8.index", square("h8").index())
        .add("ch01.e4.index", e4.index())
        .add("ch01.e4.file", e4.file())
        .add("ch01.e4.rank", e4.rank())
        // The bitboard holding e4 alone: bit `index` set, as chapter 1 draws it.
        .add("ch01.e4.bit", 1u64 << e4.index())
        .add("ch01.north.step", square("e5").index() - e4.index())
        .add("ch01.east.step", square("f4").index() - e4.index())
        .add("ch01.e2.flipped", square("e2").flip_rank().to_string());
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
}
