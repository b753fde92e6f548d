//! M13's weights against M10's committed held-out positions (labelled with the games' results
//! alone), with M13's king safety: the loss their generated file states is the loss they reach,
//! it is below the loss of M10's weights with M6's king danger (the engine before M13), and only
//! the king safety's inputs moved.

mod common;

use cb2026::eval2::{KING_DANGER_CHECKS, KING_SAFETY, KING_SAFETY_LEARNT, KingDanger, WeightSet};
use cb2026::eval2_kingsafety::{FIRST_TUNED, HELD_OUT_LOSS, K, KING_SAFETY_WEIGHTS};
use cb2026::tune::{TuningSet, loss};

fn held_out(danger: &KingDanger) -> TuningSet {
    common::held_out_m10(danger)
}

#[test]
fn the_king_safety_weights_reach_the_stated_held_out_loss() {
    let held = held_out(&KING_SAFETY_LEARNT);
    assert!(held.len() > 1_000, "{} positions", held.len());
    let measured = loss(&held, &KING_SAFETY_WEIGHTS, K);
    assert_eq!(format!("{measured:.6}"), format!("{HELD_OUT_LOSS:.6}"));
}

#[test]
fn the_learnt_king_safety_predicts_unseen_games_better_than_m6s() {
    let learnt = loss(&held_out(&KING_SAFETY_LEARNT), &KING_SAFETY_WEIGHTS, K);
    let teacher = WeightSet::Teacher.weights();
    let m6 = loss(&held_out(&KING_DANGER_CHECKS), teacher, K);
    assert!(learnt < m6, "M13 {learnt} vs M6 {m6}");
}

#[test]
fn only_the_king_safety_inputs_were_tuned() {
    assert_eq!(FIRST_TUNED, KING_SAFETY);
    let teacher = WeightSet::Teacher.weights();
    assert_eq!(
        KING_SAFETY_WEIGHTS.pairs[..KING_SAFETY],
        teacher.pairs[..KING_SAFETY]
    );
    assert_ne!(
        KING_SAFETY_WEIGHTS.pairs[KING_SAFETY..],
        teacher.pairs[KING_SAFETY..]
    );
}
