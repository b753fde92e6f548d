//! M20's weights against M10's committed held-out positions (labelled with the games' results
//! alone), with M13's king safety: the loss their generated file states is the loss they reach,
//! it is below the loss of M15's weights (the evaluation M20 started from), every weight was
//! tuned, and M20's complexity, which no earlier set counts, carries weight only here, in the
//! endgame halves of its weights.

mod common;

use cb2026::eval2::{COMPLEXITY, KING_SAFETY_LEARNT, NUM_WEIGHTS, WeightSet};
use cb2026::eval2_eval5::{EVAL5_WEIGHTS, FIRST_TUNED, HELD_OUT_LOSS, K};
use cb2026::tune::{TuningSet, loss};

fn held_out() -> TuningSet {
    common::held_out_m10(&KING_SAFETY_LEARNT)
}

#[test]
fn the_eval5_weights_reach_the_stated_held_out_loss_and_beat_m15s() {
    let held = held_out();
    assert!(held.len() > 1_000, "{} positions", held.len());
    let measured = loss(&held, &EVAL5_WEIGHTS, K);
    assert_eq!(format!("{measured:.6}"), format!("{HELD_OUT_LOSS:.6}"));
    let m15 = loss(&held, WeightSet::Eval4.weights(), K);
    assert!(measured < m15, "M20 {measured} vs M15 {m15}");
}

#[test]
fn every_weight_was_tuned_and_only_m20_counts_the_complexity() {
    assert_eq!(FIRST_TUNED, 0);
    let complexity = COMPLEXITY..NUM_WEIGHTS;
    for set in WeightSet::ALL {
        let weights = &set.weights().pairs[complexity.clone()];
        let counted = weights.iter().any(|w| w.eg != 0);
        assert_eq!(counted, set == WeightSet::Eval5, "{set:?}");
        assert!(
            weights.iter().all(|w| w.mg == 0),
            "{set:?}: middlegame halves unused"
        );
    }
    let m15 = WeightSet::Eval4.weights();
    assert_ne!(EVAL5_WEIGHTS.pairs[..COMPLEXITY], m15.pairs[..COMPLEXITY]);
}
