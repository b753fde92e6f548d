//! M15's weights against M10's committed held-out positions (labelled with the games' results
//! alone), with M13's king safety: the loss their generated file states is the loss they reach,
//! it is below the loss of M14's weights (the evaluation M15 started from), every weight was
//! tuned, and M15's new terms, which no earlier set counts, carry weight only here.

mod common;

use cb2026::eval2::{EVAL4_TERMS, KING_SAFETY, KING_SAFETY_LEARNT, WeightSet};
use cb2026::eval2_eval4::{EVAL4_WEIGHTS, FIRST_TUNED, HELD_OUT_LOSS, K};
use cb2026::tune::{TuningSet, loss};

fn held_out() -> TuningSet {
    common::held_out_m10(&KING_SAFETY_LEARNT)
}

#[test]
fn the_eval4_weights_reach_the_stated_held_out_loss_and_beat_m14s() {
    let held = held_out();
    assert!(held.len() > 1_000, "{} positions", held.len());
    let measured = loss(&held, &EVAL4_WEIGHTS, K);
    assert_eq!(format!("{measured:.6}"), format!("{HELD_OUT_LOSS:.6}"));
    let m14 = loss(&held, WeightSet::Eval3.weights(), K);
    assert!(measured < m14, "M15 {measured} vs M14 {m14}");
}

#[test]
fn every_weight_was_tuned_and_only_m15_counts_its_terms() {
    assert_eq!(FIRST_TUNED, 0);
    let new = EVAL4_TERMS..KING_SAFETY;
    for set in WeightSet::ALL {
        let weights = &set.weights().pairs[new.clone()];
        let counted = weights.iter().any(|w| w.mg != 0 || w.eg != 0);
        // M20 starts from M15's weights, so it counts M15's terms too.
        let expected = matches!(set, WeightSet::Eval4 | WeightSet::Eval5);
        assert_eq!(counted, expected, "{set:?}");
    }
    let m14 = WeightSet::Eval3.weights();
    assert_ne!(EVAL4_WEIGHTS.pairs[..EVAL4_TERMS], m14.pairs[..EVAL4_TERMS]);
}
