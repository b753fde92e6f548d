//! Chapter 19's weights against the committed held-out positions: the loss their generated
//! file states is the loss they reach, and it is below the hand-set weights' loss on positions
//! the tuner never saw.

use cb2026::eval2::WEIGHTS;
use cb2026::eval2_tuned::{HELD_OUT_LOSS, K, TUNED_WEIGHTS};
use cb2026::tune::{TuningSet, loss};

fn held_out() -> TuningSet {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/tuning/held-out.txt"
    );
    let text = std::fs::read_to_string(path).expect("data/tuning/held-out.txt is committed");
    TuningSet::parse(&text).expect("valid positions")
}

#[test]
fn the_tuned_weights_reach_the_stated_held_out_loss() {
    let held = held_out();
    assert!(held.len() > 1_000, "{} positions", held.len());
    let measured = loss(&held, &TUNED_WEIGHTS, K);
    assert_eq!(format!("{measured:.6}"), format!("{HELD_OUT_LOSS:.6}"));
}

#[test]
fn the_tuned_weights_predict_unseen_games_better_than_the_hand_set_ones() {
    let held = held_out();
    let tuned = loss(&held, &TUNED_WEIGHTS, K);
    let hand = loss(&held, &WEIGHTS, K);
    assert!(tuned < hand, "tuned {tuned} vs hand-set {hand}");
}
