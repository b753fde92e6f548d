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
use std::sync::atomic::{AtomicBool, Ordering};

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
    write!(out, "{}", summary(total))?;
    out.flush()?;
    Ok(total)
}

/// What [`print_divide`] prints after the moves: a blank line, `Nodes searched: N`, a blank
/// line.
pub fn summary(total: u64) -> String {
    format!("\nNodes searched: {total}\n\n")
}

/// How near the leaves a perft that can be stopped stops checking: a subtree of this depth is
/// counted by [`perft`] in one go. Three plies are at most some ten thousand move generations,
/// milliseconds, so `stop` is obeyed that fast, and the check costs nothing measurable.
const STOP_CHECK_DEPTH: u32 = 3;

/// [`perft`], for a user who may interrupt it: `None` once `stop` is set (it is read at every
/// node more than [`STOP_CHECK_DEPTH`] plies from the leaves).
pub fn perft_until(position: &mut Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth <= STOP_CHECK_DEPTH {
        return Some(perft(position, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut nodes = 0;
    for &m in position.legal_moves().iter() {
        position.make_move(m);
        let below = perft_until(position, depth - 1, stop);
        position.unmake_move();
        nodes += below?;
    }
    Some(nodes)
}

/// The move lines of [`print_divide`] for the console, where `stop` may interrupt it: each is
/// printed as soon as its move is counted (a deep perft shows its progress). Returns the total,
/// for the caller to print its [`summary`], or `None` once `stop` is set. (The console prints
/// the summary itself, together with marking the job done, so that a GUI that reads it and
/// sends the next command finds the engine idle.)
pub fn print_moves_until(
    position: &mut Position,
    depth: u32,
    stop: &AtomicBool,
    out: &mut impl Write,
) -> io::Result<Option<u64>> {
    if depth == 0 {
        return Ok(Some(1));
    }
    let mut total = 0;
    for &m in position.legal_moves().iter() {
        position.make_move(m);
        let nodes = perft_until(position, depth - 1, stop);
        position.unmake_move();
        let Some(nodes) = nodes else {
            return Ok(None);
        };
        writeln!(out, "{m}: {nodes}")?;
        total += nodes;
    }
    Ok(Some(total))
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

    #[test]
    fn perft_that_can_be_stopped_counts_and_prints_the_same() {
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let mut p = Position::from_fen(fen).expect("Kiwipete");
        let never = AtomicBool::new(false);
        assert_eq!(perft_until(&mut p, 4, &never), Some(4_085_603));
        for depth in [0, 1, 4] {
            let (mut whole, mut until) = (Vec::new(), Vec::new());
            print_divide(&mut p, depth, &mut whole).expect("memory");
            let total = print_moves_until(&mut p, depth, &never, &mut until).expect("memory");
            let total = total.expect("not stopped");
            until.extend_from_slice(summary(total).as_bytes());
            assert_eq!(until, whole, "depth {depth}");
            assert_eq!(total, perft(&mut p, depth));
        }
        assert_eq!(p.to_fen(), fen);
    }

    #[test]
    fn a_stopped_perft_ends_without_a_total() {
        let mut p = Position::startpos();
        let stop = AtomicBool::new(true);
        assert_eq!(perft_until(&mut p, 12, &stop), None);
        let mut out = Vec::new();
        assert_eq!(
            print_moves_until(&mut p, 12, &stop, &mut out).ok(),
            Some(None)
        );
        assert!(out.is_empty());
        assert_eq!(p, Position::startpos());
        // Shallow enough, it is counted whole: stop is read above the last three plies only.
        assert_eq!(perft_until(&mut p, 3, &stop), Some(8_902));
    }
}
