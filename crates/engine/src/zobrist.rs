//! Zobrist keys: a 64-bit fingerprint of a position (chapter 4).
//!
//! Each (colour, piece, square) triple, the side to move, each set of castling rights and each
//! en-passant file gets a random 64-bit number; a position's key is the XOR of the numbers of
//! what is true in it (Albert Zobrist, "A New Hashing Method with Application for Game Playing",
//! 1970; CPW: Zobrist Hashing). XOR is its own inverse, so a move updates the key by XORing out
//! what it removes and XORing in what it adds: a handful of operations instead of a rescan.
//!
//! The numbers come from a fixed-seed [`SplitMix64`] run at compile time, so a key is the same in
//! every build and every run (our keys are not Polyglot's).

use crate::magic::SplitMix64;

// ANCHOR: zobrist_keys
/// The random numbers positions are hashed with.
#[derive(Debug)]
pub struct ZobristKeys {
    /// `pieces[colour][kind][square]`.
    pub pieces: [[[u64; 64]; 6]; 2],
    /// XORed in when Black is to move.
    pub black_to_move: u64,
    /// One number per set of castling rights (the 4-bit mask), so a change of rights is one XOR
    /// out and one XOR in.
    pub castling: [u64; 16],
    /// One number per file of the en-passant square.
    pub en_passant: [u64; 8],
}
// ANCHOR_END: zobrist_keys

/// The seed of the keys.
pub const ZOBRIST_SEED: u64 = 0x2026_C0DE_2026_C0DE;

impl ZobristKeys {
    const fn generate(seed: u64) -> ZobristKeys {
        let mut rng = SplitMix64::new(seed);
        let mut pieces = [[[0u64; 64]; 6]; 2];
        let mut color = 0;
        while color < 2 {
            let mut kind = 0;
            while kind < 6 {
                let mut square = 0;
                while square < 64 {
                    pieces[color][kind][square] = rng.next_u64();
                    square += 1;
                }
                kind += 1;
            }
            color += 1;
        }
        let black_to_move = rng.next_u64();
        // No rights hash to 0, so a position without castling rights has no castling term.
        let mut castling = [0u64; 16];
        let mut rights = 1;
        while rights < 16 {
            castling[rights] = rng.next_u64();
            rights += 1;
        }
        let mut en_passant = [0u64; 8];
        let mut file = 0;
        while file < 8 {
            en_passant[file] = rng.next_u64();
            file += 1;
        }
        ZobristKeys {
            pieces,
            black_to_move,
            castling,
            en_passant,
        }
    }
}

/// The keys, computed by the compiler.
pub static KEYS: ZobristKeys = ZobristKeys::generate(ZOBRIST_SEED);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_not_zero() {
        let mut all: Vec<u64> = KEYS.pieces.iter().flatten().flatten().copied().collect();
        all.push(KEYS.black_to_move);
        all.extend(&KEYS.castling[1..]);
        all.extend(&KEYS.en_passant);
        assert_eq!(all.len(), 768 + 1 + 15 + 8);
        assert!(all.iter().all(|&k| k != 0));
        let mut unique = all.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), all.len());
        assert_eq!(KEYS.castling[0], 0);
    }
}
