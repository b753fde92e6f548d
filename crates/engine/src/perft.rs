//! Perft: count the leaf nodes of the move tree to a fixed depth (chapter 5).
//!
//! The counts for well-known positions are published (CPW: Perft Results), so perft is the
//! test of move generation and make/unmake: one wrong move anywhere changes a number. `divide`
//! splits the count by first move, which is how a wrong count is narrowed down to one move.
//!
//! At the last ply the moves are counted, not made ("bulk counting"): the number of leaves
//! below a position at depth 1 is its number of legal moves, and the generator can count
//! those without listing them.

use crate::moves::Move;
use crate::position::{Board, Position};
use std::io::{self, Write};

// ANCHOR: perft
/// The number of move sequences of length `depth` from `position` (1 at depth 0).
pub fn perft(position: &mut Position, depth: u32) -> u64 {
    perft_board(&position.board, depth)
}

/// Perft on boards copied down the recursion ("copy-make" on the stack): each child is a copy
/// of its parent with one move applied, so nothing needs undoing.
fn perft_board(board: &Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => board.count_legal_moves() as u64,
        _ => {
            let mut nodes = 0;
            for &m in &board.legal_moves() {
                let mut child = *board;
                child.apply(m);
                nodes += perft_board(&child, depth - 1);
            }
            nodes
        }
    }
}
// ANCHOR_END: perft

// ANCHOR: divide
/// Perft split by first move: each legal move with the count below it (empty at depth 0).
pub fn divide(position: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves = position.legal_moves();
    moves
        .iter()
        .map(|&m| {
            position.make_move(m);
            let nodes = perft(position, depth - 1);
            position.unmake_move();
            (m, nodes)
        })
        .collect()
}
// ANCHOR_END: divide

/// Runs `divide` and prints it as Stockfish's `go perft` does: a `move: count` line per move,
/// a blank line, `Nodes searched: N` and a blank line. Returns the total.
pub fn print_divide(position: &mut Position, depth: u32, out: &mut impl Write) -> io::Result<u64> {
    let split = divide(position, depth);
    let total = if depth == 0 {
        1
    } else {
        split.iter().map(|&(_, n)| n).sum()
    };
    for (m, nodes) in split {
        writeln!(out, "{m}: {nodes}")?;
    }
    writeln!(out)?;
    writeln!(out, "Nodes searched: {total}")?;
    writeln!(out)?;
    out.flush()?;
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpos_counts() {
        let mut p = Position::startpos();
        let expected = [1, 20, 400, 8_902, 197_281];
        for (depth, &nodes) in expected.iter().enumerate() {
            assert_eq!(perft(&mut p, depth as u32), nodes, "depth {depth}");
        }
        assert_eq!(p, Position::startpos());
    }

    #[test]
    fn divide_sums_to_perft_and_prints_like_stockfish() {
        let mut p = Position::startpos();
        let split = divide(&mut p, 3);
        assert_eq!(split.len(), 20);
        assert_eq!(split.iter().map(|&(_, n)| n).sum::<u64>(), 8_902);
        let mut out = Vec::new();
        let total = print_divide(&mut p, 2, &mut out).expect("writing to a Vec");
        let text = String::from_utf8(out).expect("UTF-8");
        assert_eq!(total, 400);
        assert!(text.contains("e2e4: 20\n"));
        assert!(text.ends_with("\nNodes searched: 400\n\n"));
    }
}
