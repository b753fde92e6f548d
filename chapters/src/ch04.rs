//! Chapter 4, making moves and Zobrist keys: copy-make, the incremental key checked against
//! the key computed from scratch, the clocks, repetition, and FEN's error messages.

use crate::ch01::position;
use crate::ch02::{clock_name, load_average, time_medians, yes_no};
use crate::ch03::fen;
use crate::{Chapter, Figure, Figures};
use cb2026::position::Position;
use cb2026::zobrist::{KEYS, ZobristKeys};
use std::hint::black_box;

/// Chapter 4 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "ch04",
    title: "Making moves and Zobrist keys",
    bin: "ch04-make-move",
    figures,
    measured: Some(measured),
    deep: None,
    print_tables,
};

/// FENs the parser must refuse, one per kind of fault: `(name, FEN)`.
pub const BAD_FENS: [(&str, &str); 16] = [
    ("missing", "4k3/8/8/8/8/8/8/4K3 w"),
    ("trailing", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 bm"),
    (
        "ranks",
        "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        "letter",
        "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        "long",
        "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        "short",
        "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    ("kings", "k6k/8/8/8/8/8/8/4K3 w - - 0 1"),
    ("pawn", "P3k3/8/8/8/8/8/8/4K3 w - - 0 1"),
    ("side", "4k3/8/8/8/8/8/8/4K3 x - - 0 1"),
    (
        "castling_letter",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1",
    ),
    ("castling_rook", "4k3/8/8/8/8/8/8/4K1R1 w K - 0 1"),
    ("ep_rank", "4k3/8/8/3pP3/8/8/8/4K3 w - d3 0 1"),
    ("ep_pawn", "4k3/8/8/4P3/8/8/8/4K3 w - d6 0 1"),
    ("ep_occupied", "4k3/3n4/8/3pP3/8/8/8/4K3 w - d6 0 1"),
    ("clock", "4k3/8/8/8/8/8/8/4K3 w - - -1 1"),
    ("check", "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1"),
];

/// The start position after `moves` (UCI notation), each checked to be legal.
fn after(moves: &str) -> Position {
    let mut p = Position::startpos();
    play(&mut p, moves);
    p
}

/// Plays `moves` (UCI notation, separated by spaces) on `p`.
fn play(p: &mut Position, moves: &str) {
    for text in moves.split_whitespace() {
        let m = p
            .parse_uci_move(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        p.make_move(m);
    }
}

/// A key as 16 hexadecimal digits, as `cb2026`'s `d` command prints it.
fn key_text(p: &Position) -> String {
    format!("{:016X}", p.key())
}

/// What walking the move tree below a position to `depth` found: every move is made, the
/// incremental key compared with the key from scratch, and the move unmade.
#[derive(Debug, Default)]
struct KeyCheck {
    moves_made: u64,
    key_mismatches: u64,
    unmake_mismatches: u64,
}

fn check_keys(p: &mut Position, depth: u32, found: &mut KeyCheck) {
    if depth == 0 {
        return;
    }
    let before = p.clone();
    for &m in &p.legal_moves() {
        p.make_move(m);
        found.moves_made += 1;
        if p.key() != p.key_from_scratch() {
            found.key_mismatches += 1;
        }
        check_keys(p, depth - 1, found);
        p.unmake_move();
        if *p != before {
            found.unmake_mismatches += 1;
        }
    }
}

/// How many random numbers the keys are made of: every number that is not zero.
fn zobrist_numbers(keys: &ZobristKeys) -> usize {
    let pieces = keys.pieces.iter().flatten().flatten().count();
    let castling = keys.castling.iter().filter(|&&k| k != 0).count();
    pieces + 1 + castling + keys.en_passant.len()
}

/// The size of the engine's `Board`, the state copied by every move. `Board` is private to the
/// engine, but a `Position` is a `Board` and a `Vec` of boards: both are 8-byte aligned and a
/// `Vec` of any sized type is three words, so the difference is the board's size.
fn board_bytes() -> usize {
    size_of::<Position>() - size_of::<Vec<Position>>()
}

/// Chapter 4's cheap figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("ch04");
    f.add("ch04.board.bytes", board_bytes())
        .add("ch04.zobrist.numbers", zobrist_numbers(&KEYS))
        .add("ch04.zobrist.bytes", size_of::<ZobristKeys>())
        .add("ch04.startpos.key", key_text(&Position::startpos()));

    let knights_first = after("g1f3 g8f6 b1c3");
    let knights_other = after("b1c3 g8f6 g1f3");
    f.add("ch04.transposition.a", key_text(&knights_first))
        .add("ch04.transposition.b", key_text(&knights_other))
        .add(
            "ch04.transposition.fen_equal",
            yes_no(knights_first.to_fen() == knights_other.to_fen()),
        );

    // The same position, once reached by a double push and once not.
    let push_last = after("g1f3 g8f6 e2e4");
    let knight_last = after("e2e4 g8f6 g1f3");
    let board = |p: &Position| p.to_fen().split(' ').take(4).collect::<Vec<_>>().join(" ");
    assert_eq!(
        board(&push_last),
        board(&knight_last),
        "the two orders transpose"
    );
    f.add("ch04.ep_transposition.push_last", key_text(&push_last))
        .add("ch04.ep_transposition.knight_last", key_text(&knight_last));

    f.add("ch04.after_e4.fen", after("e2e4").to_fen())
        .add("ch04.after_f5.fen", after("e2e4 d7d5 e4e5 f7f5").to_fen());

    let mut kiwipete = position(fen("kiwipete"));
    let mut found = KeyCheck::default();
    check_keys(&mut kiwipete, 3, &mut found);
    f.add("ch04.oracle.kiwipete.d3.moves", found.moves_made)
        .add(
            "ch04.oracle.kiwipete.d3.key_mismatches",
            found.key_mismatches,
        )
        .add(
            "ch04.oracle.kiwipete.d3.unmake_mismatches",
            found.unmake_mismatches,
        );

    let shuffle = "g1f3 g8f6 f3g1 f6g8";
    f.add("ch04.shuffle.clock", after(shuffle).halfmove_clock())
        .add(
            "ch04.shuffle.repetition",
            yes_no(after(shuffle).is_repetition()),
        )
        .add(
            "ch04.shuffle3.repetition",
            yes_no(after("g1f3 g8f6 f3g1").is_repetition()),
        )
        .add(
            "ch04.shuffle_e4.clock",
            after(&format!("{shuffle} e2e4")).halfmove_clock(),
        )
        .add(
            "ch04.shuffle_e4_shuffle.repetition",
            yes_no(after(&format!("{shuffle} e2e4 g8f6 g1f3 f6g8 f3g1")).is_repetition()),
        );

    for (name, bad) in BAD_FENS {
        let message = match Position::from_fen(bad) {
            Ok(p) => panic!("{name}: {bad} was accepted as {}", p.to_fen()),
            Err(error) => error.to_string(),
        };
        // A message with a comma is stored in two parts, before and after the first ", ": the
        // book prints them around a literal comma, because `cargo xtask verify` reads a comma in
        // a quoted figure as a thousands separator.
        match message.split_once(", ") {
            Some((head, tail)) => f
                .add(&format!("ch04.fen_error.{name}.head"), head)
                .add(&format!("ch04.fen_error.{name}.tail"), tail),
            None => f.add(&format!("ch04.fen_error.{name}"), message),
        };
    }
    f
}

/// Chapter 4's timings: a make and unmake, and the key computed from scratch, timed in turns.
pub fn measured() -> Figures {
    const ROUNDS: usize = 20_000;
    let mut kiwipete = position(fen("kiwipete"));
    let moves = kiwipete.legal_moves();
    let scratch_position = kiwipete.clone();
    let mut make_unmake = || {
        for _ in 0..ROUNDS {
            for &m in &moves {
                kiwipete.make_move(black_box(m));
                kiwipete.unmake_move();
            }
        }
    };
    let mut scratch = || {
        for _ in 0..ROUNDS * 10 {
            black_box(black_box(&scratch_position).key_from_scratch());
        }
    };
    let times = time_medians(7, &mut [&mut make_unmake, &mut scratch]);
    let per_move = times[0].as_nanos() as f64 / (ROUNDS * moves.len()) as f64;
    let per_key = times[1].as_nanos() as f64 / (ROUNDS * 10) as f64;
    let mut f = Figures::new("ch04");
    f.add("ch04.measured.make_unmake_ns", Figure::fixed(per_move, 1))
        .add(
            "ch04.measured.key_from_scratch_ns",
            Figure::fixed(per_key, 1),
        )
        .add("ch04.measured.clock", clock_name())
        .add("ch04.measured.load", load_average());
    f
}

fn print_tables() {
    println!("The start position after 1.e4 e5 2.Nf3:\n");
    println!("{}\n", after("e2e4 e7e5 g1f3"));
    println!("FENs refused, and why:\n");
    for (name, bad) in BAD_FENS {
        if let Err(error) = Position::from_fen(bad) {
            println!("{name:<16} {bad}\n{:<16} -> {error}", "");
        }
    }
    println!();
    print!("{}", figures().to_yaml());
}
