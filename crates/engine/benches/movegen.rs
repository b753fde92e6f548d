//! What the rules cost (`cargo bench -p cb2026 --bench movegen`): generating the legal moves,
//! counting them, making and unmaking each, and perft to a small depth.
//!
//! The positions are the classic perft test positions (CPW: Perft Results): the start, Kiwipete
//! (Peter McKenzie's position full of castling, pins and en passant), "position 3" (a sparse
//! endgame with checks along ranks) and "position 4" (promotions and a king in check). Throughput
//! is reported per move or per node, so criterion prints moves (nodes) per second next to the
//! time.

use cb2026::perft::perft;
use cb2026::position::Position;
use criterion::{BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;

/// The positions benchmarked, by name: few enough to read the table, varied enough that a
/// change helping one kind of position and hurting another shows.
const POSITIONS: [(&str, &str); 4] = [
    (
        "startpos",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    ("position3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    (
        "position4",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    ),
];

/// Perft runs short enough for criterion to sample many times: about 0.2 million nodes each.
const PERFT_RUNS: [(&str, u32, u64); 2] = [("startpos", 4, 197_281), ("kiwipete", 3, 97_862)];

fn position(name: &str) -> Position {
    let (_, fen) = POSITIONS
        .iter()
        .find(|(known, _)| *known == name)
        .expect("a benchmarked position");
    Position::from_fen(fen).expect("the benchmark FENs are valid")
}

/// `legal_moves` (the list the search walks) and `count_legal_moves` (perft's last ply).
fn bench_generation(c: &mut Criterion) {
    let mut group = c.benchmark_group("movegen");
    for (name, _) in POSITIONS {
        let position = position(name);
        let moves = position.legal_moves().len() as u64;
        group.throughput(Throughput::Elements(moves));
        group.bench_function(BenchmarkId::new("legal_moves", name), |b| {
            b.iter(|| black_box(&position).legal_moves())
        });
        group.bench_function(BenchmarkId::new("count_legal_moves", name), |b| {
            b.iter(|| black_box(&position).count_legal_moves())
        });
    }
    group.finish();
}

/// Every legal move made and unmade once: the cost per move of updating the board, the key
/// and the history, and of restoring them.
fn bench_make_unmake(c: &mut Criterion) {
    let mut group = c.benchmark_group("make_unmake");
    for (name, _) in POSITIONS {
        let mut position = position(name);
        let moves = position.legal_moves();
        group.throughput(Throughput::Elements(moves.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                for &m in moves.iter() {
                    position.make_move(black_box(m));
                    position.unmake_move();
                }
            })
        });
        assert_eq!(
            position,
            self::position(name),
            "make/unmake restores {name}"
        );
    }
    group.finish();
}

/// Perft end to end, with its node count checked once so a fast wrong generator cannot pass.
fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    for (name, depth, nodes) in PERFT_RUNS {
        let mut position = position(name);
        assert_eq!(
            perft(&mut position, depth),
            nodes,
            "perft {name} depth {depth}"
        );
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(BenchmarkId::new(name, format!("d{depth}")), |b| {
            b.iter(|| perft(&mut position, black_box(depth)))
        });
    }
    group.finish();
}

fn main() {
    let mut criterion = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    bench_generation(&mut criterion);
    bench_make_unmake(&mut criterion);
    bench_perft(&mut criterion);
    criterion.final_summary();
}
