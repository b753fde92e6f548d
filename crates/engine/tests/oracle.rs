//! Our rules against an independent implementation, cozy-chess, over random games.
//!
//! At every ply of a few hundred games of random legal moves (fixed seeds, so every run plays the
//! same games) the two libraries must agree on the set of legal moves, on check and on the FEN's
//! placement, side, castling and clocks. On our side the test also checks what cozy-chess cannot
//! see: the incremental Zobrist key equals the key computed from scratch after *every* legal move,
//! unmake restores the position exactly, FEN printing and parsing round-trip, counting agrees with
//! listing, the noisy generator gives exactly the noisy moves and the quiet generator exactly the
//! others, and the cheap legality test of a
//! move from elsewhere agrees with the generator.
//!
//! cozy-chess writes castling as "king takes own rook" (`e1h1`) in every variant; we write the
//! king's two-square move (`e1g1`), so its moves are converted before comparing.

use cb2026::magic::SplitMix64;
use cb2026::moves::{Move, MoveKind};
use cb2026::position::Position;
use std::collections::BTreeSet;

/// Games per starting position, and the longest game.
const GAMES_PER_START: usize = 40;
const MAX_PLIES: usize = 160;

/// Starting points with every special move close at hand.
const STARTS: [&str; 8] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "8/8/1k6/2pP4/8/8/5K2/8 w - c6 0 1",
];

/// The legal moves as cozy-chess sees them, in our notation.
fn cozy_moves(board: &cozy_chess::Board) -> BTreeSet<String> {
    let mut moves = BTreeSet::new();
    board.generate_moves(|piece_moves| {
        for m in piece_moves {
            let castles = board.piece_on(m.from) == Some(cozy_chess::Piece::King)
                && board.color_on(m.to) == Some(board.side_to_move());
            let text = if castles {
                let file = if m.to.file() > m.from.file() {
                    'g'
                } else {
                    'c'
                };
                format!("{}{}{}", m.from, file, m.from.rank())
            } else {
                m.to_string()
            };
            moves.insert(text);
        }
        false
    });
    moves
}

/// Our move in cozy-chess's notation (castling as king takes rook).
fn to_cozy(m: Move) -> cozy_chess::Move {
    let mut text = m.to_string();
    if matches!(m.kind(), MoveKind::KingCastle | MoveKind::QueenCastle) {
        let rook_file = if m.to().file() == 6 { "h" } else { "a" };
        text.replace_range(2..3, rook_file);
    }
    text.parse().expect("a UCI move")
}

/// The FEN fields both libraries must agree on: placement, side, castling, clocks. (The
/// en-passant field is written differently: cozy-chess writes it after every double push.)
fn comparable_fields(fen: &str) -> String {
    let fields: Vec<&str> = fen.split(' ').collect();
    format!(
        "{} {} {} {} {}",
        fields[0], fields[1], fields[2], fields[4], fields[5]
    )
}

/// Checks everything at one position; `foreign` are moves legal somewhere else (the position
/// before), to exercise the cheap legality test on moves that may not fit.
fn check_position(
    position: &mut Position,
    board: &cozy_chess::Board,
    foreign: &[Move],
    rng: &mut SplitMix64,
) {
    let fen = position.to_fen();
    let ours: BTreeSet<String> = position
        .legal_moves()
        .iter()
        .map(|m| m.to_string())
        .collect();
    assert_eq!(ours, cozy_moves(board), "legal moves differ in {fen}");
    assert_eq!(
        position.count_legal_moves(),
        ours.len(),
        "count differs in {fen}"
    );
    assert_eq!(
        position.in_check(),
        !board.checkers().is_empty(),
        "check differs in {fen}"
    );
    assert_eq!(
        comparable_fields(&fen),
        comparable_fields(&board.to_string()),
        "FEN differs"
    );

    let noisy: BTreeSet<u16> = position
        .legal_captures()
        .iter()
        .map(|m| m.to_bits())
        .collect();
    let expected: BTreeSet<u16> = position
        .legal_moves()
        .iter()
        .filter(|m| m.is_noisy())
        .map(|m| m.to_bits())
        .collect();
    assert_eq!(noisy, expected, "noisy moves differ in {fen}");

    let quiets = position.legal_quiets();
    let quiet: BTreeSet<u16> = quiets.iter().map(|m| m.to_bits()).collect();
    let expected: BTreeSet<u16> = position
        .legal_moves()
        .iter()
        .filter(|m| !m.is_noisy())
        .map(|m| m.to_bits())
        .collect();
    assert_eq!(quiet, expected, "quiet moves differ in {fen}");
    assert_eq!(quiet.len(), quiets.len(), "a quiet move twice in {fen}");

    let reparsed = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert_eq!(
        &reparsed, position,
        "FEN round trip changed the position {fen}"
    );
    assert_eq!(reparsed.to_fen(), fen);
    assert_eq!(
        position.key(),
        position.key_from_scratch(),
        "key differs in {fen}"
    );

    let legal = position.legal_moves();
    for &m in foreign {
        assert_eq!(
            position.is_pseudo_legal_and_legal(m),
            legal.contains(&m),
            "{m:?} in {fen}"
        );
    }
    for _ in 0..64 {
        if let Some(m) = Move::from_bits(rng.next_u64() as u16) {
            assert_eq!(
                position.is_pseudo_legal_and_legal(m),
                legal.contains(&m),
                "{m:?} in {fen}"
            );
        }
    }

    let before = position.clone();
    for &m in legal.iter() {
        assert!(
            position.is_pseudo_legal_and_legal(m),
            "{m:?} refused in {fen}"
        );
        position.make_move(m);
        assert_eq!(
            position.key(),
            position.key_from_scratch(),
            "key after {m} in {fen}"
        );
        position.unmake_move();
        assert_eq!(position, &before, "unmake of {m} in {fen}");
    }
    if !position.in_check() {
        position.make_null();
        assert_eq!(
            position.key(),
            position.key_from_scratch(),
            "key after null move in {fen}"
        );
        position.unmake_null();
        assert_eq!(position, &before, "unmake of the null move in {fen}");
    }
}

#[test]
fn random_games_agree_with_cozy_chess() {
    let mut rng = SplitMix64::new(0x0AC1E);
    let mut plies_checked = 0;
    for start in STARTS {
        for _ in 0..GAMES_PER_START {
            let mut position = Position::from_fen(start).expect("valid start");
            let mut board = cozy_chess::Board::from_fen(start, false).expect("cozy accepts it");
            let mut foreign = Vec::new();
            for _ in 0..MAX_PLIES {
                check_position(&mut position, &board, &foreign, &mut rng);
                plies_checked += 1;
                let moves = position.legal_moves();
                if moves.is_empty() || position.halfmove_clock() >= 100 {
                    break;
                }
                let m = moves[(rng.next_u64() % moves.len() as u64) as usize];
                board.play(to_cozy(m));
                position.make_move(m);
                foreign = moves.to_vec();
            }
        }
    }
    assert!(plies_checked > 10_000, "only {plies_checked} plies checked");
}

#[test]
fn undoing_a_whole_game_returns_to_the_start() {
    let mut rng = SplitMix64::new(7);
    let mut position = Position::startpos();
    let mut plies = 0;
    for _ in 0..300 {
        let moves = position.legal_moves();
        if moves.is_empty() {
            break;
        }
        position.make_move(moves[(rng.next_u64() % moves.len() as u64) as usize]);
        plies += 1;
    }
    for _ in 0..plies {
        position.unmake_move();
    }
    assert_eq!(position, Position::startpos());
    assert_eq!(position.plies_played(), 0);
}
