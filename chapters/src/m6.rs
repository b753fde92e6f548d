//! Milestone M6, checks the king cannot take: the safe checks in Evaluation II's king danger
//! (`safechecks`), what they change in the evaluation (the loss over chapter 19's held-out
//! positions, with the units scaled from none to twice M6's, and how many of those positions
//! they change), in one position, and on the six positions at stage M6 switched off and on.
//!
//! Pinned: the units, the losses, the counts, node counts and best moves, bench's node count
//! with the switch on. Measured (`cargo xtask measure m6`): bench's speed with the switch off
//! and on, timed in turns.

use crate::ch19::HELD_OUT;
use crate::six::{self, DEPTH, OnOff};
use crate::{Chapter, Figure, Figures};
use cb2026::eval2::{self, KING_DANGER, KING_DANGER_CHECKS, KingDanger, WeightSet};
use cb2026::eval2_tuned::{K, TUNED_WEIGHTS};
use cb2026::position::{PieceKind, Position};
use cb2026::switches::{Stage, Switches};
use cb2026::tune::{TuningSet, loss};

/// Milestone M6 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "m6",
    title: "M6. Checks the king cannot take",
    bin: "m6-safe-checks",
    figures,
    measured: Some(measured),
    deep: None,
    print_tables,
};

/// The milestone's one switch.
const SWITCH: &str = "safechecks";

/// The check units scaled by `numerator / 2`: none, half, M6's own, half as much again, twice.
const SCALES: [(&str, i32); 5] = [
    ("none", 0),
    ("half", 1),
    ("m6", 2),
    ("one_and_a_half", 3),
    ("double", 4),
];

/// The worked position, from chapter 19's held-out set (a game White won): White to move,
/// Black's king on f7 with few defenders, Black's pawn a move from queening on b1.
pub const WORKED_FEN: &str = "1r3n2/5k2/bqn5/p2p4/P2P2Q1/5N2/1p3PPP/1B2R1K1 w - - 3 31";

/// The worked position's search depth.
const WORKED_DEPTH: u32 = 10;

/// Chapter 18's king danger with M6's check units scaled by `halves / 2`.
fn scaled(halves: i32) -> KingDanger {
    KingDanger {
        check_units: KING_DANGER_CHECKS.check_units.map(|u| u * halves / 2),
        ..KING_DANGER
    }
}

/// The positions of the held-out set.
fn held_out_positions(text: &str) -> Vec<Position> {
    text.lines()
        .filter_map(|line| line.rsplit_once(';'))
        .map(|(fen, _)| Position::from_fen(fen).expect("the held-out set is valid FEN"))
        .collect()
}

/// The held-out loss of the tuned weights (chapter 19's `K`) with the king danger `danger`.
fn held_out_loss(text: &str, danger: &KingDanger) -> f64 {
    let set = TuningSet::parse_with(text, danger).expect("the held-out set parses");
    loss(&set, &TUNED_WEIGHTS, K)
}

/// Adds the losses and the counts of what the safe checks change in the held-out positions.
fn add_held_out(f: &mut Figures) {
    // Chapter 19's held-out positions: never trained on, so a loss over them says whether a
    // change to the evaluation predicts the games' results better.
    let text = HELD_OUT;
    for (name, halves) in SCALES {
        f.add(
            &format!("m6.held_out.loss.{name}"),
            Figure::fixed(held_out_loss(text, &scaled(halves)), 6),
        );
    }
    let positions = held_out_positions(text);
    let evaluate = |pos: &Position, danger| eval2::evaluate_with(pos, &TUNED_WEIGHTS, danger);
    let changes: Vec<i64> = positions
        .iter()
        .map(|pos| i64::from(evaluate(pos, &KING_DANGER_CHECKS) - evaluate(pos, &KING_DANGER)))
        .filter(|&change| change != 0)
        .collect();
    let mean_change = changes.iter().map(|c| c.abs()).sum::<i64>() as f64 / changes.len() as f64;
    f.add("m6.held_out.positions", positions.len())
        .add("m6.held_out.changed", changes.len())
        .add(
            "m6.held_out.changed_pct",
            Figure::percent(changes.len() as u64, positions.len() as u64, 1),
        )
        .add("m6.held_out.mean_change_cp", Figure::fixed(mean_change, 1));
}

/// Adds the worked position's king danger with and without the checks, and its search at
/// stage M6 with the switch on and off.
fn add_worked(f: &mut Figures) {
    let pos = Position::from_fen(WORKED_FEN).expect("the worked position is valid FEN");
    for (state, danger) in [("on", &KING_DANGER_CHECKS), ("off", &KING_DANGER)] {
        let trace = eval2::trace_with(&pos, WeightSet::Tuned, danger);
        // The danger Black's king is in (White's attack), as a positive number of centipawns.
        f.add(
            &format!("m6.worked.{state}.black_king_danger"),
            -trace.king_danger[1].mg,
        )
        .add(&format!("m6.worked.{state}.eval"), trace.total);
        let mut searcher = six::searcher(at_stage(state == "on"));
        let (stats, _, iterations) =
            six::search(&mut searcher, WORKED_FEN, WORKED_DEPTH, &|_| false);
        let last = iterations.last().expect("a search to depth 1 or more");
        f.add(&format!("m6.worked.{state}.best"), last.best_move.as_str())
            .add(&format!("m6.worked.{state}.score"), last.score.as_str())
            .add(&format!("m6.worked.{state}.nodes"), stats.nodes);
    }
    f.add("m6.worked.depth", WORKED_DEPTH);
}

/// Stage M6 with the switch as given.
fn at_stage(on: bool) -> Switches {
    six::at_own_stage(SWITCH, on)
}

/// The pinned figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("m6");
    let units = KING_DANGER_CHECKS.check_units;
    for kind in [
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
    ] {
        let name = format!("{kind:?}").to_lowercase();
        f.add(&format!("m6.check_units.{name}"), units[kind.index()]);
    }
    add_held_out(&mut f);
    add_worked(&mut f);
    six::add_switch_figures(&mut f, "m6", SWITCH, engine);
    f
}

/// The default engine as it shipped after M6, with the switch as given.
fn engine(safechecks: bool) -> Switches {
    Switches {
        safechecks,
        ..Switches::shipped_after(Stage::Milestone(6))
    }
}

/// The measured figures: bench's speed with the switch off and on, timed in turns.
pub fn measured() -> Figures {
    six::bench_speed_off_on("m6", engine)
}

fn print_tables() {
    OnOff::measure(SWITCH, DEPTH).print();
    println!();
    print!("{}", figures().to_yaml());
}
