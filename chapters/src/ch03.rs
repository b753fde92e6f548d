//! Chapter 3, legal move generation: the 16-bit move, and the generator's answers in positions
//! chosen for one rule each (check, double check, pins, en passant, castling, promotions).

use crate::ch01::{names, position, square};
use crate::ch02::{clock_name, load_average, time_medians};
use crate::{Chapter, Figure, Figures};
use cb2026::attacks::between;
use cb2026::movegen::MoveList;
use cb2026::moves::{Move, MoveKind};
use cb2026::position::Position;
use std::hint::black_box;

/// Chapter 3 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "ch03",
    title: "Legal move generation",
    bin: "ch03-movegen",
    figures,
    measured: Some(measured),
    deep: None,
    print_tables,
};

/// The positions of the chapter: `(name, FEN)`. The first six are the "Perft Results" positions
/// of the Chess Programming Wiki (Kiwipete is position 2); the others each show one rule.
pub const POSITIONS: [(&str, &str); 14] = [
    (
        "startpos",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    ("pos3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    (
        "pos4",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    ),
    (
        "pos5",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    ),
    (
        "pos6",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    ),
    (
        "most",
        "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1",
    ),
    ("check", "4k3/8/8/8/1b6/8/8/RN2K1NR w K - 0 1"),
    ("double_check", "4k3/8/3N4/8/8/8/8/4RK2 b - - 0 1"),
    ("pin", "4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1"),
    ("ep_pin", "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1"),
    ("ep_free", "8/8/8/K2pP3/8/8/8/7k w - d6 0 1"),
    ("castling", "4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1"),
    ("promotion", "1n5k/P7/8/8/8/8/8/K7 w - - 0 1"),
];

/// The FEN of the chapter's position `name`.
pub fn fen(name: &str) -> &'static str {
    POSITIONS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, fen)| *fen)
        .unwrap_or_else(|| panic!("no position {name} in chapter 3"))
}

/// The chapter's position `name`, set up.
fn setup(name: &str) -> Position {
    position(fen(name))
}

/// The moves of a list that satisfy `keep`, in UCI notation, sorted, separated by spaces.
fn moves_where(list: &MoveList, keep: impl Fn(&Move) -> bool) -> String {
    let mut moves: Vec<String> = list
        .iter()
        .filter(|m| keep(m))
        .map(Move::to_string)
        .collect();
    moves.sort();
    moves.join(" ")
}

/// How many moves of a list satisfy `keep`.
fn count_where(list: &MoveList, keep: impl Fn(&Move) -> bool) -> usize {
    list.iter().filter(|m| keep(m)).count()
}

fn is_castle(m: &Move) -> bool {
    matches!(m.kind(), MoveKind::KingCastle | MoveKind::QueenCastle)
}

fn is_en_passant(m: &Move) -> bool {
    m.kind() == MoveKind::EnPassant
}

/// The move the chapter packs by hand: a pawn on e7 captures on d8 and becomes a queen.
fn example_move() -> Move {
    Move::new(square("e7"), square("d8"), MoveKind::QueenPromotionCapture)
}

/// Chapter 3's cheap figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("ch03");
    f.add("ch03.move.bytes", size_of::<Move>())
        .add("ch03.option_move.bytes", size_of::<Option<Move>>())
        .add("ch03.movelist.bytes", size_of::<MoveList>())
        .add("ch03.example.from", example_move().from().index())
        .add("ch03.example.to", example_move().to().index())
        .add("ch03.example.kind", example_move().kind() as u16)
        .add(
            "ch03.example.bits",
            format!("{:#06x}", example_move().to_bits()),
        );
    for (name, fen) in POSITIONS {
        let p = position(fen);
        let list = p.legal_moves();
        assert_eq!(
            list.len(),
            p.count_legal_moves(),
            "counting and listing differ in {name}"
        );
        f.add(&format!("ch03.{name}.moves"), list.len());
    }

    let kiwipete = setup("kiwipete").legal_moves();
    f.add(
        "ch03.kiwipete.captures",
        count_where(&kiwipete, |m| m.is_capture()),
    )
    .add("ch03.kiwipete.castles", count_where(&kiwipete, is_castle));

    let check = setup("check");
    let king = check.king_square(check.side_to_move());
    let checker = check
        .checkers()
        .first()
        .expect("the check position is check");
    let check_moves = check.legal_moves();
    f.add("ch03.check.checker", checker.to_string())
        .add(
            "ch03.check.mask",
            names(between(king, checker).with(checker)),
        )
        .add(
            "ch03.check.king_moves",
            moves_where(&check_moves, |m| m.from() == king),
        )
        .add(
            "ch03.check.other_moves",
            moves_where(&check_moves, |m| m.from() != king),
        );

    let double = setup("double_check");
    f.add("ch03.double_check.checkers", names(double.checkers()))
        .add(
            "ch03.double_check.list",
            moves_where(&double.legal_moves(), |_| true),
        );

    let pin = setup("pin").legal_moves();
    f.add(
        "ch03.pin.rook_moves",
        moves_where(&pin, |m| m.from().to_string() == "e2"),
    );

    let ep_pin = setup("ep_pin").legal_moves();
    let ep_free = setup("ep_free").legal_moves();
    f.add(
        "ch03.ep_pin.en_passant",
        count_where(&ep_pin, is_en_passant),
    )
    .add(
        "ch03.ep_free.en_passant",
        count_where(&ep_free, is_en_passant),
    );

    let castling = setup("castling").legal_moves();
    f.add("ch03.castling.castles", moves_where(&castling, is_castle));

    let promotion = setup("promotion");
    let promotions = promotion.legal_moves();
    f.add(
        "ch03.promotion.promotions",
        count_where(&promotions, |m| m.is_promotion()),
    )
    .add(
        "ch03.promotion.noisy",
        moves_where(&promotion.legal_captures(), |_| true),
    );
    f
}

/// Nanoseconds per call of listing and of counting the moves of `position`, the two timed in
/// turns, median of several runs.
fn nanos_per_call(position: &Position) -> (f64, f64) {
    const CALLS: usize = 200_000;
    let mut list = || {
        for _ in 0..CALLS {
            black_box(black_box(position).legal_moves().len());
        }
    };
    let mut count = || {
        for _ in 0..CALLS {
            black_box(black_box(position).count_legal_moves());
        }
    };
    let times = time_medians(7, &mut [&mut list, &mut count]);
    let per_call = |time: std::time::Duration| time.as_nanos() as f64 / CALLS as f64;
    (per_call(times[0]), per_call(times[1]))
}

/// Chapter 3's timings: listing Kiwipete's moves against counting them.
pub fn measured() -> Figures {
    let (list, count) = nanos_per_call(&setup("kiwipete"));
    let mut f = Figures::new("ch03");
    f.add("ch03.measured.kiwipete.list_ns", Figure::fixed(list, 0))
        .add("ch03.measured.kiwipete.count_ns", Figure::fixed(count, 0))
        .add(
            "ch03.measured.kiwipete.ratio",
            Figure::fixed(list / count, 1),
        )
        .add("ch03.measured.clock", clock_name())
        .add("ch03.measured.load", load_average());
    f
}

fn print_tables() {
    println!("Legal moves in the chapter's positions:\n");
    for (name, fen) in POSITIONS {
        let p = position(fen);
        println!("{name:<14} {:>4}  {fen}", p.legal_moves().len());
    }
    println!();
    print!("{}", figures().to_yaml());
}
