//! M10's weights against M10's committed held-out positions (labelled with the games' results
//! alone): the loss their generated file states is the loss they reach, and it is below the
//! hand-set weights' loss on the same positions, which the tuner never saw.

mod common;

use cb2026::eval2::{KING_DANGER, WEIGHTS};
use cb2026::eval2_teacher::{DATA_COMMAND, HELD_OUT_LOSS, K, TEACHER_WEIGHTS};
use cb2026::tune::{TuningSet, loss};

fn held_out() -> TuningSet {
    common::held_out_m10(&KING_DANGER)
}

#[test]
fn the_teachers_weights_reach_the_stated_held_out_loss() {
    let held = held_out();
    assert!(held.len() > 1_000, "{} positions", held.len());
    let measured = loss(&held, &TEACHER_WEIGHTS, K);
    assert_eq!(format!("{measured:.6}"), format!("{HELD_OUT_LOSS:.6}"));
}

#[test]
fn the_teachers_weights_predict_unseen_games_better_than_the_hand_set_ones() {
    let held = held_out();
    let teacher = loss(&held, &TEACHER_WEIGHTS, K);
    let hand = loss(&held, &WEIGHTS, K);
    assert!(teacher < hand, "teacher {teacher} vs hand-set {hand}");
}

#[test]
fn the_data_command_names_its_teacher() {
    assert!(DATA_COMMAND.contains("--teacher-depth"), "{DATA_COMMAND}");
    assert!(
        DATA_COMMAND.contains("(teacher: Stockfish"),
        "{DATA_COMMAND}"
    );
}
