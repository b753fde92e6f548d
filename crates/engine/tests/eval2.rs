//! Chapter 18's evaluation, checked against itself: the running material and piece-square sum
//! that make-move keeps equals the sum from scratch, the pawn table's answers equal a
//! recomputation, and the feature vector a tuner reads gives back the evaluation exactly.

use cb2026::eval2::{
    self, Features, KING_DANGER, KING_DANGER_CHECKS, NUM_WEIGHTS, PawnTable, WEIGHTS, WeightSet,
};
use cb2026::magic::SplitMix64;
use cb2026::position::Position;

/// Plays `games` random games of up to `plies` plies from the start, calling `visit` at every
/// position; now and then it takes a move back, or passes, and checks again.
fn random_games(games: usize, plies: usize, seed: u64, mut visit: impl FnMut(&Position)) {
    let mut rng = SplitMix64::new(seed);
    for _ in 0..games {
        let mut pos = Position::startpos();
        visit(&pos);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves[below(&mut rng, moves.len())]);
            visit(&pos);
            match below(&mut rng, 10) {
                0 => {
                    pos.unmake_move();
                    visit(&pos);
                }
                1 if !pos.in_check() => {
                    pos.make_null();
                    visit(&pos);
                    pos.unmake_null();
                }
                _ => {}
            }
        }
    }
}

// ANCHOR: incremental_property
#[test]
fn the_running_sum_equals_the_sum_from_scratch() {
    let mut positions = 0;
    random_games(300, 160, 0x18_0001, |pos| {
        for set in WeightSet::ALL {
            assert_eq!(pos.psq(set), pos.psq_from_scratch(set), "{}", pos.to_fen());
        }
        positions += 1;
    });
    assert!(positions > 30_000, "{positions}");
}
// ANCHOR_END: incremental_property

#[test]
fn table_scratch_and_features_agree() {
    // One table per weight set, as a structure scored with one set is no hit for another.
    let mut tables = WeightSet::ALL.map(|_| PawnTable::new());
    random_games(100, 140, 0x18_0002, |pos| {
        let features: Features = eval2::features(pos);
        assert_eq!(features.counts.len(), NUM_WEIGHTS);
        for set in WeightSet::ALL {
            let scratch = eval2::evaluate_with(pos, set.weights(), &KING_DANGER);
            let fen = pos.to_fen();
            let table = &mut tables[set.index()];
            assert_eq!(
                eval2::evaluate(pos, table, set, &KING_DANGER),
                scratch,
                "{set:?} {fen}"
            );
            assert_eq!(features.evaluate(set.weights()), scratch, "{set:?} {fen}");
            let checks = eval2::evaluate_with(pos, set.weights(), &KING_DANGER_CHECKS);
            let incremental = eval2::evaluate(pos, table, set, &KING_DANGER_CHECKS);
            assert_eq!(incremental, checks, "{set:?} {fen} (safe checks)");
        }
    });
    for table in &tables {
        let (probes, hits) = table.counters();
        assert!(hits > probes / 3, "{hits} hits of {probes}");
    }
}

#[test]
fn a_pawn_table_hit_is_what_a_recomputation_gives() {
    // The same positions through one table, twice: the second pass is all hits, and every
    // answer equals that of a fresh table, which can only compute.
    let mut positions = Vec::new();
    random_games(20, 100, 0x18_0003, |pos| positions.push(pos.clone()));
    let mut warm = PawnTable::new();
    for pos in &positions {
        eval2::evaluate(pos, &mut warm, WeightSet::HandSet, &KING_DANGER);
    }
    let (_, hits_before) = warm.counters();
    for pos in &positions {
        let fresh = eval2::evaluate(pos, &mut PawnTable::new(), WeightSet::HandSet, &KING_DANGER);
        let warmed = eval2::evaluate(pos, &mut warm, WeightSet::HandSet, &KING_DANGER);
        assert_eq!(warmed, fresh, "{}", pos.to_fen());
    }
    let (probes, hits) = warm.counters();
    assert!(
        hits - hits_before > (probes / 2) * 9 / 10,
        "{hits} of {probes}"
    );
}

#[test]
fn a_king_that_moved_has_its_shelter_counted_again() {
    // The same pawns, White's king on g1 behind f2, g2 and h2, then on e1 behind nothing: the
    // second lookup finds the pawns in the table, and must not serve the first king's shelter.
    let castled = Position::from_fen("r3k2r/ppp2ppp/8/3pp3/3PP3/8/PPP2PPP/R5K1 w kq - 0 1")
        .expect("a legal position");
    let moved = Position::from_fen("r3k2r/ppp2ppp/8/3pp3/3PP3/8/PPP2PPP/R3K3 w kq - 0 1")
        .expect("a legal position");
    let set = WeightSet::Eval4;
    let mut warm = PawnTable::new();
    eval2::evaluate(&castled, &mut warm, set, &KING_DANGER);
    let on_e1 = eval2::evaluate(&moved, &mut warm, set, &KING_DANGER);
    assert_eq!(
        warm.counters(),
        (2, 1),
        "the second lookup is a hit for the pawns"
    );
    let fresh = eval2::evaluate(&moved, &mut PawnTable::new(), set, &KING_DANGER);
    assert_eq!(on_e1, fresh);
    assert_eq!(
        on_e1,
        eval2::evaluate_with(&moved, set.weights(), &KING_DANGER)
    );
    // And a stale shelter would show: the two kings' shields are counted differently (three
    // pawns one rank ahead of g1; only f2 near e1), and so priced differently.
    let shield =
        |pos: &Position| eval2::features(pos).counts[eval2::SHIELD..eval2::SHIELD + 3].to_vec();
    assert_ne!(shield(&castled), shield(&moved));
}

#[test]
fn other_weights_change_the_evaluation_linearly() {
    // Doubling every weight of the table doubles the linear part: a tuner's view.
    let pos =
        Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .expect("valid");
    let features = eval2::features(&pos);
    let mut doubled = WEIGHTS.clone();
    for pair in &mut doubled.pairs {
        *pair = *pair * 2;
    }
    let linear = |w| features.white(w) - (features.king_danger[0] - features.king_danger[1]);
    assert_eq!(linear(&doubled), linear(&WEIGHTS) * 2);
    assert_eq!(
        features.evaluate(&doubled),
        eval2::evaluate_with(&pos, &doubled, &KING_DANGER)
    );
}

/// A number below `n` from the engine's seeded generator, so the random games are the same
/// every run.
fn below(rng: &mut SplitMix64, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}
