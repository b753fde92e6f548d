use cb2026::bitboard::Bitboard;
use cb2026::magic::*;
use cb2026::square::Square;

fn tries(square: Square, dirs: &[Direction], rng: &mut SplitMix64, ands: u32, minpop: u32) -> u64 {
    let mask = relevant_mask(square, dirs);
    let bits = mask.count();
    let occ: Vec<Bitboard> = subsets(mask).collect();
    let att: Vec<Bitboard> = occ.iter().map(|&o| slider_attacks_slow(square, o, dirs)).collect();
    let size = 1usize << bits;
    let mut table = vec![Bitboard::EMPTY; size];
    let mut stamp = vec![0u64; size];
    let mut attempt = 0;
    loop {
        let mut c = rng.next_u64();
        for _ in 1..ands { c &= rng.next_u64(); }
        attempt += 1;
        if (mask.0.wrapping_mul(c) >> 56).count_ones() < minpop { continue; }
        let shift = 64 - bits;
        let ok = occ.iter().zip(&att).all(|(&o, &a)| {
            let slot = ((o.0.wrapping_mul(c)) >> shift) as usize;
            if stamp[slot] != attempt { stamp[slot] = attempt; table[slot] = a; true } else { table[slot] == a }
        });
        if ok { return attempt; }
    }
}

fn main() {
    for (ands, minpop) in [(3, 6), (4, 6), (4, 5), (5, 4), (3, 7), (4,4)] {
        let t = std::time::Instant::now();
        let mut total = 0;
        for seed in 1..4u64 {
            let mut rng = SplitMix64::new(seed);
            for sq in Square::ALL {
                total += tries(sq, &ROOK_DIRECTIONS, &mut rng, ands, minpop);
                total += tries(sq, &BISHOP_DIRECTIONS, &mut rng, ands, minpop);
            }
        }
        println!("ands {ands} minpop {minpop}: avg tries {} avg time {:?}", total / 3, t.elapsed() / 3);
    }
}
