//! M14's weights against M10's committed held-out positions (labelled with the games' results
//! alone), with M13's king safety: the loss their generated file states is the loss they reach,
//! it is below the loss of M13's weights (the evaluation M14 started from), every weight was
//! tuned, and the new terms, which no earlier set counts, carry weight only here and in M15's set,
//! which starts from these weights.

mod common;

use cb2026::eval2::{EVAL3_TERMS, EVAL4_TERMS, KING_SAFETY_LEARNT, WeightSet};
use cb2026::eval2_eval3::{EVAL3_WEIGHTS, FIRST_TUNED, HELD_OUT_LOSS, K};
use cb2026::tune::{TuningSet, loss};

fn held_out() -> TuningSet {
    common::held_out_m10(&KING_SAFETY_LEARNT)
}

#[test]
fn the_eval3_weights_reach_the_stated_held_out_loss_and_beat_m13s() {
    let held = held_out();
    assert!(held.len() > 1_000, "{} positions", held.len());
    let measured = loss(&held, &EVAL3_WEIGHTS, K);
    assert_eq!(format!("{measured:.6}"), format!("{HELD_OUT_LOSS:.6}"));
    let m13 = loss(&held, WeightSet::KingSafety.weights(), K);
    assert!(measured < m13, "M14 {measured} vs M13 {m13}");
}

#[test]
fn every_weight_was_tuned_and_only_m14_counts_its_terms() {
    assert_eq!(FIRST_TUNED, 0);
    let new = EVAL3_TERMS..EVAL4_TERMS;
    for set in WeightSet::ALL {
        let weights = &set.weights().pairs[new.clone()];
        let counted = weights.iter().any(|w| w.mg != 0 || w.eg != 0);
        // M15 starts from M14's weights, and M20 from M15's, so they count M14's terms too.
        let expected = matches!(set, WeightSet::Eval3 | WeightSet::Eval4 | WeightSet::Eval5);
        assert_eq!(counted, expected, "{set:?}");
    }
    let m13 = WeightSet::KingSafety.weights();
    assert_ne!(EVAL3_WEIGHTS.pairs[..EVAL3_TERMS], m13.pairs[..EVAL3_TERMS]);
}
