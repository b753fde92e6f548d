//! Arbitrary bytes as a FEN: `Position::from_fen` must refuse what it cannot play from with an
//! error, never a panic (fen.rs promises this "whatever the bytes"), and what it accepts must
//! survive the round trip and move generation.
//!
//! For an accepted position: `to_fen` must parse again to the same position and print the same
//! text; its legal moves must agree with their count; and every legal move, made and unmade,
//! must leave the position as it was, with the incremental Zobrist key equal to the key
//! computed from scratch after each move.

#![no_main]

use cb2026::position::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Valid UTF-8 is read as it is; other bytes become U+FFFD, as a GUI reading a file would.
    check(&String::from_utf8_lossy(data));
});

fn check(text: &str) {
    let Ok(mut position) = Position::from_fen(text) else {
        return;
    };
    let fen = position.to_fen();
    let again = Position::from_fen(&fen).unwrap_or_else(|error| {
        panic!("{text:?} was accepted, but its to_fen {fen:?} is refused: {error}")
    });
    assert_eq!(again, position, "{fen:?} parses to another position");
    assert_eq!(again.to_fen(), fen, "to_fen is not stable for {text:?}");
    assert_eq!(
        position.key(),
        position.key_from_scratch(),
        "key of {fen:?}"
    );

    let moves = position.legal_moves();
    assert_eq!(
        moves.len(),
        position.count_legal_moves(),
        "move count of {fen:?}"
    );
    for &m in moves.iter() {
        position.make_move(m);
        assert_eq!(
            position.key(),
            position.key_from_scratch(),
            "key after {m} in {fen:?}"
        );
        position.unmake_move();
        assert_eq!(position.to_fen(), fen, "make/unmake {m} in {fen:?}");
    }
}
