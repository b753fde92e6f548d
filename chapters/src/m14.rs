//! Milestone M14, Evaluation III: the ten terms M14 adds to Evaluation II with the weights the
//! tuner gave them, the held-out loss of M10's, M13's and M14's evaluations (measured again
//! here), the tuning run as `cargo xtask tune` recorded it, the old weights that moved most, and
//! the switch `eval3` off and on at stage M14 and in bench.

use crate::ch19::{add_held_out_run, add_movers, loss_figure, parse_epochs, weight_name};
use crate::six::{self, DEPTH, OnOff};
use crate::{Chapter, Figure, Figures};
use cb2026::eval::Tapered;
use cb2026::eval2::{self, EvalWeights, KingDanger, WeightSet};
use cb2026::eval2_eval3;
use cb2026::switches::{Stage, Switches};
use cb2026::tune::{TuningSet, loss};

/// Milestone M14 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "m14",
    title: "M14. Evaluation III: what Ethereal counts",
    bin: "m14-evaluation-iii",
    figures,
    measured: None,
    deep: None,
    print_tables,
};

/// The milestone's one switch.
const SWITCH: &str = "eval3";

/// M10's held-out positions, committed (M13 and M14 tune on M10's data).
const HELD_OUT: &str = include_str!("../../data/tuning/held-out-m10.txt");

/// The losses `cargo xtask tune --set eval3` recorded, epoch by epoch.
const LOSSES: &str = include_str!("../../data/tuning/m14-loss-per-epoch.csv");

/// The same tuning with M14's terms kept at zero (`--without-new-terms`): what retuning every
/// older weight on these labels gives without the new terms.
const LOSSES_WITHOUT: &str =
    include_str!("../../data/tuning/m14-without-new-terms-loss-per-epoch.csv");

/// How many of the older weights that moved most the page lists.
const MOVERS: usize = 8;

/// M14's terms, by figure name: each term's first slot and its number of weights.
const NEW_TERMS: [(&str, usize, usize); 11] = [
    ("candidate", eval2::CANDIDATE, 8),
    ("safe_push", eval2::PASSED_SAFE_PUSH, 8),
    ("pawn_push", eval2::THREAT_PAWN_PUSH, 1),
    ("weak_pawn", eval2::THREAT_WEAK_PAWN, 1),
    ("minor_on_minor", eval2::THREAT_MINOR_ON_MINOR, 1),
    ("rammed", eval2::BISHOP_RAMMED, 1),
    ("long_diagonal", eval2::BISHOP_LONG_DIAGONAL, 1),
    ("behind.knight", eval2::BEHIND_PAWN, 1),
    ("behind.bishop", eval2::BEHIND_PAWN + 1, 1),
    ("pawn_files", eval2::KING_PAWN_FILES, 8),
    ("defenders", eval2::KING_DEFENDERS, 12),
];

/// A weight where the tuning started (M13's weights; M14's terms start at zero) and where it
/// ended.
fn pair(index: usize) -> (Tapered, Tapered) {
    (
        WeightSet::KingSafety.weights().pairs[index],
        WeightSet::Eval3.weights().pairs[index],
    )
}

/// How far a weight moved: the larger of its halves' changes.
fn moved(index: usize) -> i32 {
    let (start, tuned) = pair(index);
    (tuned.mg - start.mg).abs().max((tuned.eg - start.eg).abs())
}

/// Is `index` one of M14's new weights?
fn is_new(index: usize) -> bool {
    (eval2::EVAL3_TERMS..eval2::EVAL4_TERMS).contains(&index)
}

/// Is `index` a weight of M14's table: not one of the terms later milestones added?
fn is_m14s(index: usize) -> bool {
    !(eval2::EVAL4_TERMS..eval2::KING_SAFETY).contains(&index)
}

/// The engine cb2026 ships, with the switch as given: the two engines of the milestone's games.
fn engine(on: bool) -> Switches {
    Switches {
        eval3: on,
        ..Switches::shipped_after(Stage::Milestone(13))
    }
}

/// The pinned figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("m14");
    add_tuning(&mut f);
    add_weights(&mut f);
    add_losses(&mut f);
    six::add_switch_figures(&mut f, "m14", SWITCH, engine);
    f
}

/// How the weights were tuned.
fn add_tuning(f: &mut Figures) {
    f.add("m14.train.positions", eval2_eval3::TRAINING_POSITIONS)
        .add("m14.k", Figure::fixed(eval2_eval3::K, 6))
        .add("m14.tune.rate", Figure::fixed(eval2_eval3::RATE, 2))
        .add("m14.tune.l2", Figure::fixed(eval2_eval3::L2, 4));
    add_held_out_run(f, "m14.tune", &parse_epochs(LOSSES));
    add_held_out_run(f, "m14.tune_without", &parse_epochs(LOSSES_WITHOUT));
}

/// Every new weight as the tuner left it, how many there are, and the older weights that moved
/// most from M13's values.
fn add_weights(f: &mut Figures) {
    for (name, start, len) in NEW_TERMS {
        for offset in 0..len {
            let key = match len {
                1 => format!("m14.w.{name}"),
                _ => format!("m14.w.{name}.{offset}"),
            };
            let (_, tuned) = pair(start + offset);
            f.add(&format!("{key}.mg"), tuned.mg)
                .add(&format!("{key}.eg"), tuned.eg);
        }
    }
    let new = eval2::EVAL4_TERMS - eval2::EVAL3_TERMS;
    let terms = eval2::TERMS.iter().filter(|t| is_new(t.start)).count();
    f.add("m14.terms", terms)
        .add("m14.weights.new", new)
        .add(
            "m14.weights.all",
            (0..eval2::EVAL5_TERMS).filter(|&i| is_m14s(i)).count(),
        )
        .add(
            "m14.weights.unchanged",
            (0..eval2::EVAL5_TERMS)
                .filter(|&i| is_m14s(i) && !is_new(i) && moved(i) == 0)
                .count(),
        );
    add_movers(f, "m14", MOVERS, pair, is_new);
}

/// M14's weights with its own terms' weights set to zero: the older terms as M14 tuned them.
fn without_new_terms() -> EvalWeights {
    let mut weights = WeightSet::Eval3.weights().clone();
    for index in eval2::EVAL3_TERMS..eval2::EVAL4_TERMS {
        weights.pairs[index] = Tapered::default();
    }
    weights
}

/// The held-out loss of the engine cb2026 ships (M10's weights, M6's king danger), of M13's
/// evaluation, of M14's, and of M14's with its new terms' weights at zero, all with M10's `K`.
fn add_losses(f: &mut Figures) {
    let k = eval2_eval3::K;
    let measure = |danger: &KingDanger, weights: &EvalWeights| {
        let held = TuningSet::parse_with(HELD_OUT, danger).expect("the held-out set is valid");
        loss_figure(loss(&held, weights, k))
    };
    let learnt = &eval2::KING_SAFETY_LEARNT;
    f.add("m14.held_out.positions", HELD_OUT.lines().count())
        .add(
            "m14.held_out.loss.m10",
            measure(&eval2::KING_DANGER_CHECKS, WeightSet::Teacher.weights()),
        )
        .add(
            "m14.held_out.loss.m13",
            measure(learnt, WeightSet::KingSafety.weights()),
        )
        .add(
            "m14.held_out.loss.m14",
            measure(learnt, WeightSet::Eval3.weights()),
        )
        .add(
            "m14.held_out.loss.m14_without_new",
            measure(learnt, &without_new_terms()),
        );
}

fn print_tables() {
    println!("M14's weights as the tuner left them (mg, eg):\n");
    for index in eval2::EVAL3_TERMS..eval2::EVAL4_TERMS {
        let (_, tuned) = pair(index);
        println!(
            "{:<40} ({:>4}, {:>4})",
            weight_name(index),
            tuned.mg,
            tuned.eg
        );
    }
    println!();
    OnOff::measure(SWITCH, DEPTH).print();
    println!();
    print!("{}", figures().to_yaml());
}
