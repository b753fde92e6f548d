//! The evaluation is colour-blind: a position and its mirror image with the colours swapped
//! (ranks flipped, White's pieces made Black's and the other way round, the other side to move,
//! castling rights and en passant flipped too) evaluate exactly equal, since each side sees its
//! own position in both. A term that favoured one colour, or read a table the wrong way up for
//! Black, breaks this.

use cb2026::eval;
use cb2026::position::Position;

const PERFT_SUITE: &str = include_str!("../../../data/perft-standard.epd");

/// The FEN of `fen`'s colour-flipped mirror.
fn mirror(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let swap_case = |c: char| {
        if c.is_ascii_uppercase() {
            c.to_ascii_lowercase()
        } else {
            c.to_ascii_uppercase()
        }
    };
    let board: Vec<String> = fields[0]
        .split('/')
        .rev()
        .map(|rank| rank.chars().map(swap_case).collect())
        .collect();
    let side = if fields[1] == "w" { "b" } else { "w" };
    let castling = if fields[2] == "-" {
        "-".to_string()
    } else {
        // Keep FEN's order: White's rights (now the old Black's) first.
        let mut rights: Vec<char> = fields[2].chars().map(swap_case).collect();
        rights.sort_by_key(|c| (c.is_ascii_lowercase(), *c != 'K' && *c != 'k'));
        rights.into_iter().collect()
    };
    let en_passant = match fields[3].as_bytes() {
        [file, rank] => format!("{}{}", *file as char, (b'1' + b'8' - rank) as char),
        _ => "-".to_string(),
    };
    let clocks = fields.get(4..6).map_or("0 1".to_string(), |c| c.join(" "));
    format!(
        "{} {side} {castling} {en_passant} {clocks}",
        board.join("/")
    )
}

fn suite_fens() -> Vec<&'static str> {
    PERFT_SUITE
        .lines()
        .filter_map(|line| line.split(';').next())
        .map(str::trim)
        .filter(|fen| !fen.is_empty())
        .collect()
}

#[test]
fn mirror_of_a_fen_is_what_it_should_be() {
    assert_eq!(
        mirror("r3k2r/8/8/8/3pP3/8/8/R3K1R1 b Qkq e3 0 1"),
        "r3k1r1/8/8/3Pp3/8/8/8/R3K2R w KQq e6 0 1"
    );
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(mirror(&mirror(start)), start);
}

#[test]
fn every_perft_position_evaluates_like_its_mirror() {
    let fens = suite_fens();
    assert!(
        fens.len() > 100,
        "the perft suite has {} positions",
        fens.len()
    );
    let mut nonzero = 0;
    for fen in fens {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let flipped_fen = mirror(fen);
        let flipped =
            Position::from_fen(&flipped_fen).unwrap_or_else(|e| panic!("{flipped_fen}: {e}"));
        let (score, flipped_score) = (eval::evaluate(&pos), eval::evaluate(&flipped));
        assert_eq!(score, flipped_score, "{fen} vs {flipped_fen}");
        if score != 0 {
            nonzero += 1;
        }
    }
    // Symmetry must not come from evaluating everything as 0.
    assert!(
        nonzero > 50,
        "only {nonzero} positions have a nonzero evaluation"
    );
}
