//! Milestone M15, Evaluation IV: the weights the tuner gave M15's terms (the single ones, the
//! tables by rank and closedness, the shelter and storm in front of a king on g1), the held-out
//! loss of M14's and M15's evaluations (measured again here), the tuning run as `cargo xtask
//! tune` recorded it, the old weights that moved most, and the switch `eval4` off and on at
//! stage M15 and in bench.

use crate::ch19::{add_held_out_run, add_movers, loss_figure, parse_epochs, weight_name};
use crate::six::{self, DEPTH, OnOff};
use crate::{Chapter, Figure, Figures};
use cb2026::eval::Tapered;
use cb2026::eval2::{self, EvalWeights, WeightSet};
use cb2026::eval2_eval4;
use cb2026::position::Position;
use cb2026::switches::{Stage, Switches};
use cb2026::tune::{TuningSet, loss};

/// Milestone M15 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "m15",
    title: "M15. Evaluation IV: finer tables",
    bin: "m15-evaluation-iv",
    figures,
    measured: None,
    deep: None,
    print_tables,
};

/// The milestone's one switch.
const SWITCH: &str = "eval4";

/// M10's held-out positions, committed (M13 to M15 tune on M10's data).
const HELD_OUT: &str = include_str!("../../data/tuning/held-out-m10.txt");

/// The losses `cargo xtask tune --set eval4` recorded, epoch by epoch.
const LOSSES: &str = include_str!("../../data/tuning/m15-loss-per-epoch.csv");

/// The same tuning with M15's terms kept at zero (`--without-new-terms`).
const LOSSES_WITHOUT: &str =
    include_str!("../../data/tuning/m15-without-new-terms-loss-per-epoch.csv");

/// The same tuning with ten times the price on drift (`--l2 0.001`), written aside: only its
/// record of losses is kept.
const LOSSES_L2_TRIED: &str = include_str!("../../data/tuning/m15-l2-0.001-loss-per-epoch.csv");

/// The price on drift of that run, as its command gave it.
const L2_TRIED: f64 = 0.001;

/// How many of the older weights that moved most the page lists.
const MOVERS: usize = 8;

/// M15's terms of one weight each, by figure name.
const SINGLES: [(&str, usize); 9] = [
    ("minor_by_major", eval2::THREAT_MINOR_BY_MAJOR),
    ("by_king.minor", eval2::THREAT_BY_KING),
    ("by_king.rook", eval2::THREAT_BY_KING + 1),
    ("on_queen", eval2::THREAT_ON_QUEEN),
    ("overloaded", eval2::THREAT_OVERLOADED),
    ("restricted.pieces", eval2::SPACE_RESTRICTED),
    ("restricted.empty", eval2::SPACE_RESTRICTED + 1),
    ("centre", eval2::SPACE_CENTRE),
    ("queen_pin", eval2::QUEEN_PINNED),
];

/// M15's tables the page prints whole, by figure name: first slot and length.
const TABLES: [(&str, usize, usize); 7] = [
    ("closed.knight", eval2::CLOSED_KNIGHT, 9),
    ("closed.rook", eval2::CLOSED_ROOK, 9),
    ("own_distance", eval2::PASSED_OWN_DISTANCE, 8),
    ("enemy_distance", eval2::PASSED_ENEMY_DISTANCE, 8),
    ("isolated", eval2::ISOLATED_FILE, 8),
    ("backward.closed", eval2::BACKWARD_RANK, 8),
    ("backward.open", eval2::BACKWARD_RANK + 8, 8),
];

/// A weight where the tuning started (M14's weights; M15's terms start at zero) and where it
/// ended.
fn pair(index: usize) -> (Tapered, Tapered) {
    (
        WeightSet::Eval3.weights().pairs[index],
        WeightSet::Eval4.weights().pairs[index],
    )
}

/// How far a weight moved: the larger of its halves' changes.
fn moved(index: usize) -> i32 {
    let (start, tuned) = pair(index);
    (tuned.mg - start.mg).abs().max((tuned.eg - start.eg).abs())
}

/// Is `index` one of M15's new weights?
fn is_new(index: usize) -> bool {
    (eval2::EVAL4_TERMS..eval2::KING_SAFETY).contains(&index)
}

/// The engine that shipped after M14, with the switch as given: the two engines of the
/// milestone's games.
fn engine(on: bool) -> Switches {
    Switches {
        eval4: on,
        ..Switches::shipped_after(Stage::Milestone(14))
    }
}

/// The pinned figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("m15");
    add_tuning(&mut f);
    add_weights(&mut f);
    add_king_on_g1(&mut f);
    add_older_weights(&mut f);
    add_losses(&mut f);
    add_rare_slots(&mut f);
    six::add_switch_figures(&mut f, "m15", SWITCH, engine);
    f
}

/// How the weights were tuned.
fn add_tuning(f: &mut Figures) {
    f.add("m15.train.positions", eval2_eval4::TRAINING_POSITIONS)
        .add("m15.k", Figure::fixed(eval2_eval4::K, 6))
        .add("m15.tune.rate", Figure::fixed(eval2_eval4::RATE, 2))
        .add("m15.tune.l2", Figure::fixed(eval2_eval4::L2, 4));
    add_held_out_run(f, "m15.tune", &parse_epochs(LOSSES));
    add_held_out_run(f, "m15.tune_without", &parse_epochs(LOSSES_WITHOUT));
    f.add("m15.tune.l2_tried", Figure::fixed(L2_TRIED, 3));
    add_held_out_run(f, "m15.tune_l2", &parse_epochs(LOSSES_L2_TRIED));
}

/// Adds one tuned weight's halves under `key`.
fn add_pair(f: &mut Figures, key: &str, index: usize) {
    let (_, tuned) = pair(index);
    f.add(&format!("{key}.mg"), tuned.mg)
        .add(&format!("{key}.eg"), tuned.eg);
}

/// The new single weights and whole tables as the tuner left them, and how many there are.
fn add_weights(f: &mut Figures) {
    for (name, index) in SINGLES {
        add_pair(f, &format!("m15.w.{name}"), index);
    }
    for (name, start, len) in TABLES {
        for offset in 0..len {
            add_pair(f, &format!("m15.w.{name}.{offset}"), start + offset);
        }
    }
    let terms = eval2::TERMS.iter().filter(|t| is_new(t.start)).count();
    f.add("m15.terms", terms)
        .add("m15.weights.new", eval2::KING_SAFETY - eval2::EVAL4_TERMS)
        .add("m15.weights.all", eval2::EVAL5_TERMS)
        .add(
            "m15.weights.shelter_and_storm",
            eval2::PASSED_OWN_DISTANCE - eval2::SHELTER,
        );
}

/// The shelter and storm weights a king on g1 reads: for the f-, g- and h-files, its own
/// nearest pawn one or two ranks ahead or none; an enemy pawn on the g-file (the b-file's
/// mirror) one to five ranks ahead, or none, not blocked.
fn add_king_on_g1(f: &mut Figures) {
    for (file, name) in [(5, "f"), (6, "g"), (7, "h")] {
        let kings_file = usize::from(file == 6);
        for distance in [1, 2, 7] {
            let index = eval2::SHELTER + 64 * kings_file + 8 * file + distance;
            add_pair(f, &format!("m15.w.shelter.g1.{name}.{distance}"), index);
        }
    }
    for distance in 1..=7 {
        let index = eval2::STORM_FILE + 8 + distance;
        add_pair(f, &format!("m15.w.storm.g.{distance}"), index);
    }
}

/// The older weights that moved most from M14's values, and how many did not move at all.
fn add_older_weights(f: &mut Figures) {
    add_movers(f, "m15", MOVERS, pair, is_new);
    f.add(
        "m15.weights.unchanged",
        (0..eval2::EVAL5_TERMS)
            .filter(|&i| !is_new(i) && moved(i) == 0)
            .count(),
    );
}

/// M15's weights with its own terms' weights set to zero.
fn without_new_terms() -> EvalWeights {
    let mut weights = WeightSet::Eval4.weights().clone();
    for index in eval2::EVAL4_TERMS..eval2::KING_SAFETY {
        weights.pairs[index] = Tapered::default();
    }
    weights
}

/// The held-out loss of M14's evaluation, of M15's, and of M15's with its new terms' weights
/// at zero, all with M10's `K` and M13's king safety.
fn add_losses(f: &mut Figures) {
    let k = eval2_eval4::K;
    let held = TuningSet::parse_with(HELD_OUT, &eval2::KING_SAFETY_LEARNT)
        .expect("the held-out set is valid");
    let measure = |weights: &EvalWeights| loss_figure(loss(&held, weights, k));
    f.add("m15.held_out.positions", HELD_OUT.lines().count())
        .add("m15.held_out.loss.m14", measure(WeightSet::Eval3.weights()))
        .add("m15.held_out.loss.m15", measure(WeightSet::Eval4.weights()))
        .add(
            "m15.held_out.loss.m15_without_new",
            measure(&without_new_terms()),
        );
}

/// Fewer positions than this counting a weight make it "rare" for the page.
const RARE: usize = 10;

/// How many of the shelter and storm weights the held-out positions count in fewer than
/// [`RARE`] positions, and in none: the slots whose tuned values are little better than guesses.
fn add_rare_slots(f: &mut Figures) {
    let slots = eval2::SHELTER..eval2::PASSED_OWN_DISTANCE;
    let mut positions = vec![0usize; slots.len()];
    for line in HELD_OUT.lines() {
        let (fen, _) = line.rsplit_once(';').expect("FEN;result");
        let pos = Position::from_fen(fen).expect("the held-out set is valid");
        let counts = eval2::features_with(&pos, &eval2::KING_SAFETY_LEARNT).counts;
        for (seen, &[white, black]) in positions.iter_mut().zip(&counts[slots.clone()]) {
            *seen += usize::from(white != 0 || black != 0);
        }
    }
    f.add("m15.rare.threshold", RARE)
        .add(
            "m15.rare.fewer",
            positions.iter().filter(|&&n| n < RARE).count(),
        )
        .add(
            "m15.rare.none",
            positions.iter().filter(|&&n| n == 0).count(),
        );
}

fn print_tables() {
    println!("M15's weights as the tuner left them (mg, eg):\n");
    for index in eval2::EVAL4_TERMS..eval2::KING_SAFETY {
        let (_, tuned) = pair(index);
        println!(
            "{:<52} ({:>4}, {:>4})",
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
