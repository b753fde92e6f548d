//! Every malformed FEN is refused with a message naming the field and the fault; no input, of
//! any bytes, makes the parser panic.

use cb2026::fen::{FenError, FenField};
use cb2026::magic::SplitMix64;
use cb2026::position::Position;
use cb2026::square::{Color, Square};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The message for a FEN that must be refused, checked to name `field` and `fault`.
fn refused(fen: &str, field: &str, fault: &str) -> FenError {
    let error = match Position::from_fen(fen) {
        Ok(position) => panic!("accepted {fen:?} as {}", position.to_fen()),
        Err(error) => error,
    };
    let message = error.to_string();
    assert!(
        message.starts_with(field),
        "{message:?} does not start with the field {field:?}"
    );
    assert!(
        message.contains(fault),
        "{message:?} does not mention {fault:?}"
    );
    error
}

#[test]
fn bad_piece_letter() {
    let e = refused(
        "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "piece placement",
        "bad piece letter 'x'",
    );
    assert_eq!(
        e,
        FenError::BadPieceLetter {
            rank: 6,
            letter: 'x'
        }
    );
    refused(
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "piece placement",
        "bad piece letter '9'",
    );
    refused(
        "rnbqkbnr/pppppppp/0/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "piece placement",
        "bad piece letter '0'",
    );
    refused(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNé w KQkq - 0 1",
        "piece placement",
        "bad piece letter 'é'",
    );
}

#[test]
fn rank_with_too_many_squares() {
    refused(
        "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "piece placement",
        "rank 7 has too many squares",
    );
    refused(
        "rnbqkbnr/pppppppp/8/44p/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "piece placement",
        "too many squares",
    );
    refused(
        "rnbqkbnr/pppppppp/8/72/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "piece placement",
        "too many",
    );
    refused(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR1 w KQkq - 0 1",
        "piece placement",
        "rank 1 has too many squares",
    );
}

#[test]
fn rank_with_too_few_squares() {
    let e = refused(
        "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "piece placement",
        "too few squares",
    );
    assert_eq!(
        e,
        FenError::RankTooShort {
            rank: 6,
            squares: 7
        }
    );
    refused(
        "rnbqkbnr/pppppppp/8/8//8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "piece placement",
        "rank 4 has too few squares (0 instead of 8)",
    );
}

#[test]
fn wrong_number_of_ranks() {
    refused(
        "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "piece placement",
        "wrong number of ranks, 7 instead of 8",
    );
    refused(
        "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "piece placement",
        "wrong number of ranks, 9",
    );
    refused(
        "8/8/8/8/8/8/8/8/ w - - 0 1",
        "piece placement",
        "wrong number of ranks",
    );
}

#[test]
fn not_exactly_one_king_per_colour() {
    let e = refused(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1",
        "piece placement",
        "needs exactly one king",
    );
    assert_eq!(
        e,
        FenError::KingCount {
            color: Color::White,
            count: 0
        }
    );
    refused(
        "k6k/8/8/8/8/8/8/4K3 w - - 0 1",
        "piece placement",
        "Black has 2 kings",
    );
}

#[test]
fn pawn_on_the_first_or_eighth_rank() {
    let e = refused(
        "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "piece placement",
        "pawn on a8",
    );
    assert_eq!(
        e,
        FenError::PawnOnBackRank(Square::parse("a8").expect("square"))
    );
    refused(
        "4k3/8/8/8/8/8/8/4K2p b - - 0 1",
        "piece placement",
        "pawn on h1",
    );
}

#[test]
fn side_to_move_not_w_or_b() {
    refused(
        "4k3/8/8/8/8/8/8/4K3 x - - 0 1",
        "side to move",
        "'x' is neither w nor b",
    );
    refused(
        "4k3/8/8/8/8/8/8/4K3 W - - 0 1",
        "side to move",
        "'W' is neither w nor b",
    );
    refused(
        "4k3/8/8/8/8/8/8/4K3 white - - 0 1",
        "side to move",
        "neither w nor b",
    );
}

#[test]
fn castling_right_without_its_king_or_rook() {
    refused(
        "4k3/8/8/8/8/8/8/5K1R w K - 0 1",
        "castling rights",
        "right 'K' but no king on its home square e1",
    );
    refused(
        "4k3/8/8/8/8/8/8/4K1R1 w K - 0 1",
        "castling rights",
        "right 'K' but no rook on its home square h1",
    );
    refused(
        "1r2k3/8/8/8/8/8/8/4K3 w q - 0 1",
        "castling rights",
        "right 'q' but no rook on its home square a8",
    );
    refused(
        "4k3/8/8/8/8/8/8/R3K3 w Qk - 0 1",
        "castling rights",
        "right 'k' but no rook",
    );
    refused(
        "r6r/4k3/8/8/8/8/8/4K3 w kq - 0 1",
        "castling rights",
        "no king on its home square e8",
    );
}

#[test]
fn bad_castling_characters() {
    refused(
        START.replace("KQkq", "KQkx").as_str(),
        "castling rights",
        "bad castling character 'x'",
    );
    refused(
        START.replace("KQkq", "KKq").as_str(),
        "castling rights",
        "bad castling character 'K'",
    );
    refused(
        START.replace("KQkq", "K-").as_str(),
        "castling rights",
        "bad castling character '-'",
    );
    refused(
        START.replace("KQkq", "AHah").as_str(),
        "castling rights",
        "bad castling character 'A'",
    );
}

#[test]
fn impossible_en_passant_square() {
    // Wrong rank for the side to move.
    refused(
        "4k3/8/8/3pP3/8/8/8/4K3 w - d3 0 1",
        "en passant square",
        "with White to move it must be on rank 6",
    );
    refused(
        "4k3/8/8/8/3pP3/8/8/4K3 b - e6 0 1",
        "en passant square",
        "with Black to move it must be on rank 3",
    );
    // No pawn that could have just double-pushed.
    refused(
        "4k3/8/8/4P3/8/8/8/4K3 w - d6 0 1",
        "en passant square",
        "no pawn that could have just double-pushed",
    );
    refused(
        "4k3/8/8/3PP3/8/8/8/4K3 w - d6 0 1",
        "en passant square",
        "no pawn",
    );
    // The squares the pawn passed over or left are occupied.
    refused(
        "4k3/3n4/8/3pP3/8/8/8/4K3 w - d6 0 1",
        "en passant square",
        "occupied",
    );
    refused(
        "4k3/8/3n4/3pP3/8/8/8/4K3 w - d6 0 1",
        "en passant square",
        "occupied",
    );
    // Not a square at all.
    refused(
        "4k3/8/8/3pP3/8/8/8/4K3 w - d9 0 1",
        "en passant square",
        "'d9' is neither - nor a square",
    );
    refused(
        "4k3/8/8/3pP3/8/8/8/4K3 w - D6 0 1",
        "en passant square",
        "neither - nor a square",
    );
}

#[test]
fn negative_or_non_numeric_clocks() {
    refused(
        "4k3/8/8/8/8/8/8/4K3 w - - -1 1",
        "halfmove clock",
        "'-1' is not a non-negative number",
    );
    refused(
        "4k3/8/8/8/8/8/8/4K3 w - - x 1",
        "halfmove clock",
        "'x' is not a non-negative number",
    );
    refused(
        "4k3/8/8/8/8/8/8/4K3 w - - 1.5 1",
        "halfmove clock",
        "not a non-negative number",
    );
    refused(
        "4k3/8/8/8/8/8/8/4K3 w - - 99999999999999999999999 1",
        "halfmove clock",
        "not a non-negative number",
    );
    refused(
        "4k3/8/8/8/8/8/8/4K3 w - - 0 -3",
        "fullmove number",
        "'-3' is not a non-negative number",
    );
    refused(
        "4k3/8/8/8/8/8/8/4K3 w - - 0 one",
        "fullmove number",
        "'one' is not",
    );
    refused("4k3/8/8/8/8/8/8/4K3 w - - +3 1", "halfmove clock", "'+3'");
}

#[test]
fn side_not_to_move_in_check() {
    let e = refused(
        "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1",
        "side to move",
        "Black is in check but it is not Black's move",
    );
    assert_eq!(e, FenError::OpponentInCheck(Color::Black));
    refused(
        "4k3/8/8/8/8/8/3p4/4K3 b - - 0 1",
        "side to move",
        "White is in check",
    );
    refused("8/8/8/8/8/8/3k4/4K3 w - - 0 1", "side to move", "in check");
}

#[test]
fn missing_fields() {
    let e = refused("", "piece placement", "missing field");
    assert_eq!(e, FenError::MissingField(FenField::Placement));
    refused("   ", "piece placement", "missing field");
    refused("4k3/8/8/8/8/8/8/4K3", "side to move", "missing field");
    refused("4k3/8/8/8/8/8/8/4K3 w", "castling rights", "missing field");
    refused(
        "4k3/8/8/8/8/8/8/4K3 w -",
        "en passant square",
        "missing field",
    );
}

#[test]
fn the_clocks_may_be_omitted_but_nothing_may_follow_them() {
    let p = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - -").expect("valid without clocks");
    assert_eq!(p.to_fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    refused(
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 bm",
        "fullmove number",
        "unexpected text 'bm'",
    );
}

/// Random bytes (read as text with the bad bytes replaced), random text from a small alphabet
/// of FEN characters and multibyte characters, and every truncation and many mutations of valid
/// FENs: each must give `Ok` or `Err`, never a panic, and whatever is accepted must print as a
/// FEN that parses back to the same position.
#[test]
fn no_input_makes_the_parser_panic() {
    let mut rng = SplitMix64::new(0xFE11);
    let mut accepted = 0;
    let mut check = |text: &str| {
        if let Ok(position) = Position::from_fen(text) {
            accepted += 1;
            let again = Position::from_fen(&position.to_fen()).expect("our own FEN parses");
            assert_eq!(again, position, "{text:?}");
        }
    };

    for _ in 0..5_000 {
        let len = (rng.next_u64() % 80) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        check(&String::from_utf8_lossy(&bytes));
    }

    let alphabet: Vec<char> = "pnbrqkPNBRQK12345678/ wb-KQkqabcdefgh0369é♔\u{0}\t€"
        .chars()
        .collect();
    for _ in 0..20_000 {
        let len = (rng.next_u64() % 70) as usize;
        let text: String = (0..len)
            .map(|_| alphabet[(rng.next_u64() % alphabet.len() as u64) as usize])
            .collect();
        check(&text);
    }

    let valid = [
        START,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ];
    for fen in valid {
        for (end, _) in fen.char_indices() {
            check(&fen[..end]);
        }
        let chars: Vec<char> = fen.chars().collect();
        for _ in 0..5_000 {
            let mut mutated = chars.clone();
            for _ in 0..1 + rng.next_u64() % 3 {
                let at = (rng.next_u64() % mutated.len() as u64) as usize;
                let c = alphabet[(rng.next_u64() % alphabet.len() as u64) as usize];
                match rng.next_u64() % 3 {
                    0 => mutated[at] = c,
                    1 => mutated.insert(at, c),
                    _ => {
                        mutated.remove(at);
                    }
                }
                if mutated.is_empty() {
                    break;
                }
            }
            check(&mutated.into_iter().collect::<String>());
        }
    }
    assert!(
        accepted > 100,
        "the mutations should keep some FENs valid ({accepted} were)"
    );
}

#[test]
fn material_no_game_can_reach() {
    use cb2026::position::PieceKind;
    // Found by hand while fuzzing: 31 white queens would give more moves than a move list holds.
    let e = refused(
        "QQQQQQQQ/Q6Q/Q6Q/Q6Q/Q6K/QQ5Q/ppQ4Q/knQQQQQQ w - - 0 1",
        "piece placement",
        "White has too many Queens",
    );
    assert_eq!(
        e,
        FenError::TooManyPieces {
            color: Color::White,
            kind: PieceKind::Queen
        }
    );
    refused(
        "4k3/pppppppp/p7/8/8/8/8/4K3 b - - 0 1",
        "piece placement",
        "Black has too many Pawns",
    );
    // Nine queens and no pawns is reachable (eight promotions), so the 218-move position stands.
    let most = Position::from_fen("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1")
        .expect("the 218-move position is legal");
    assert_eq!(most.legal_moves().len(), 218);
    // One promoted knight too many with all eight pawns still on the board.
    refused(
        "4k3/8/8/8/8/8/PPPPPPPP/NNN1K3 w - - 0 1",
        "piece placement",
        "too many Knights",
    );
}
