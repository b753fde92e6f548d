//! Milestone M20, the position's complexity: the weights the tuner gave the complexity's six
//! inputs, the held-out loss with and without them (measured again here), the two tuning runs
//! as `cargo xtask tune` recorded them, how often the complexity moves a held-out position's
//! endgame value and which way, two endgames evaluated without and with it, and the switch
//! `complexity` off and on at stage M20 and in bench.

use crate::ch19::{add_held_out_run, add_movers, loss_figure, parse_epochs, weight_name};
use crate::six::{self, DEPTH, OnOff};
use crate::{Chapter, Figure, Figures};
use cb2026::eval::Tapered;
use cb2026::eval2::{self, EvalWeights, WeightSet};
use cb2026::eval2_eval5;
use cb2026::position::Position;
use cb2026::switches::{Stage, Switches};
use cb2026::tune::{TuningSet, loss};

/// Milestone M20 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "m20",
    title: "M20. Complexity",
    bin: "m20-complexity",
    figures,
    measured: None,
    deep: None,
    print_tables,
};

/// The milestone's one switch.
const SWITCH: &str = "complexity";

/// M10's held-out positions, committed (M13 to M20 tune on M10's data).
const HELD_OUT: &str = include_str!("../../data/tuning/held-out-m10.txt");

/// The losses `cargo xtask tune --set eval5` recorded, epoch by epoch.
const LOSSES: &str = include_str!("../../data/tuning/m20-loss-per-epoch.csv");

/// The same tuning with the complexity kept at zero (`--without-new-terms`): every other
/// weight tuned again on the same data for as long.
const LOSSES_WITHOUT: &str =
    include_str!("../../data/tuning/m20-without-complexity-loss-per-epoch.csv");

/// How many of the older weights that moved most the page lists.
const MOVERS: usize = 8;

/// The complexity's inputs, by figure name, in the table's order.
const INPUTS: [(&str, usize); 6] = [
    ("pawns", eval2::COMPLEXITY_PAWNS),
    ("passed", eval2::COMPLEXITY_PASSED),
    ("flanks", eval2::COMPLEXITY_FLANKS),
    ("pawns_only", eval2::COMPLEXITY_PAWNS_ONLY),
    ("outflanking", eval2::COMPLEXITY_OUTFLANKING),
    ("base", eval2::COMPLEXITY_BASE),
];

/// The page's two endgames: an extra pawn with every pawn on one wing, where the complexity
/// takes value away, and an outside passed pawn in a pawn endgame, where it adds.
pub const ENDGAMES: [(&str, &str); 2] = [
    ("one_wing", "6k1/5pp1/7p/8/4P3/5PPP/r5K1/4R3 w - - 0 1"),
    ("outside", "8/5pk1/6p1/P7/8/6P1/5PK1/8 w - - 0 1"),
];

/// A weight where the tuning started (M15's weights; the complexity starts at zero) and where
/// it ended.
fn pair(index: usize) -> (Tapered, Tapered) {
    (
        WeightSet::Eval4.weights().pairs[index],
        WeightSet::Eval5.weights().pairs[index],
    )
}

/// Is `index` one of M20's new weights?
fn is_new(index: usize) -> bool {
    (eval2::COMPLEXITY..eval2::NUM_WEIGHTS).contains(&index)
}

/// The engine that shipped after M19, with the switch as given: the two engines of the
/// milestone's games.
fn engine(on: bool) -> Switches {
    Switches {
        complexity: on,
        ..Switches::shipped_after(Stage::Milestone(19))
    }
}

/// The pinned figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("m20");
    add_tuning(&mut f);
    add_weights(&mut f);
    add_losses(&mut f);
    add_held_out_effect(&mut f);
    add_endgames(&mut f);
    add_movers(&mut f, "m20", MOVERS, pair, is_new);
    six::add_switch_figures(&mut f, "m20", SWITCH, engine);
    f
}

/// How the weights were tuned, and the two runs' records.
fn add_tuning(f: &mut Figures) {
    f.add("m20.train.positions", eval2_eval5::TRAINING_POSITIONS)
        .add("m20.k", Figure::fixed(eval2_eval5::K, 6))
        .add("m20.tune.rate", Figure::fixed(eval2_eval5::RATE, 2))
        .add("m20.tune.l2", Figure::fixed(eval2_eval5::L2, 4));
    add_held_out_run(f, "m20.tune", &parse_epochs(LOSSES));
    add_held_out_run(f, "m20.tune_without", &parse_epochs(LOSSES_WITHOUT));
}

/// The complexity's weights as the tuner left them (endgame halves: the middlegame halves are
/// not used), and how many there are.
fn add_weights(f: &mut Figures) {
    for (name, index) in INPUTS {
        f.add(&format!("m20.w.{name}"), pair(index).1.eg);
    }
    f.add("m20.inputs", INPUTS.len());
}

/// M20's weights with the complexity's weights set to zero.
fn without_complexity() -> EvalWeights {
    let mut weights = WeightSet::Eval5.weights().clone();
    for index in eval2::COMPLEXITY..eval2::NUM_WEIGHTS {
        weights.pairs[index] = Tapered::default();
    }
    weights
}

/// The held-out positions, parsed with the king safety the weights were tuned with.
fn held_out() -> TuningSet {
    TuningSet::parse_with(HELD_OUT, &eval2::KING_SAFETY_LEARNT).expect("the held-out set is valid")
}

/// The held-out loss of M15's evaluation, of M20's, and of M20's with the complexity at zero,
/// all with M10's `K`.
fn add_losses(f: &mut Figures) {
    let k = eval2_eval5::K;
    let held = held_out();
    let measure = |weights: &EvalWeights| loss_figure(loss(&held, weights, k));
    f.add("m20.held_out.positions", held.len())
        .add("m20.held_out.loss.m15", measure(WeightSet::Eval4.weights()))
        .add("m20.held_out.loss.m20", measure(WeightSet::Eval5.weights()))
        .add(
            "m20.held_out.loss.m20_without",
            measure(&without_complexity()),
        );
}

/// Over the held-out positions with M20's weights: how many have an endgame value the
/// complexity makes more decisive, how many less, and how many it takes to zero; and the mean
/// size of the change, in centipawns of the endgame value.
fn add_held_out_effect(f: &mut Figures) {
    let weights = WeightSet::Eval5.weights();
    let (mut more, mut less, mut zeroed, mut total_change) = (0usize, 0usize, 0usize, 0i64);
    let mut positions = 0usize;
    for line in HELD_OUT.lines() {
        let (fen, _) = line.rsplit_once(';').expect("FEN;result");
        let pos = Position::from_fen(fen).expect("the held-out set is valid");
        let features = eval2::features_with(&pos, &eval2::KING_SAFETY_LEARNT);
        let before = features.white_before_complexity(weights).eg;
        let after = features.white(weights).eg;
        positions += 1;
        total_change += i64::from((after - before).abs());
        if after == 0 && before != 0 {
            zeroed += 1;
        } else if after.abs() > before.abs() {
            more += 1;
        } else if after.abs() < before.abs() {
            less += 1;
        }
    }
    f.add("m20.effect.more", more)
        .add(
            "m20.effect.more_pct",
            Figure::percent(more as u64, positions as u64, 1),
        )
        .add("m20.effect.less", less)
        .add(
            "m20.effect.less_pct",
            Figure::percent(less as u64, positions as u64, 1),
        )
        .add("m20.effect.zeroed", zeroed)
        .add(
            "m20.effect.zeroed_pct",
            Figure::percent(zeroed as u64, positions as u64, 1),
        )
        .add(
            "m20.effect.mean_change",
            Figure::fixed(total_change as f64 / positions as f64, 1),
        );
}

/// The two endgames: each input's count, the complexity they add up to, the endgame value
/// before and after it, and the evaluation (for the side to move) of M15's weights and M20's.
fn add_endgames(f: &mut Figures) {
    let weights = WeightSet::Eval5.weights();
    for (id, fen) in ENDGAMES {
        let pos = Position::from_fen(fen).expect("the page's endgames are valid FEN");
        let features = eval2::features_with(&pos, &eval2::KING_SAFETY_LEARNT);
        let key = |rest: &str| format!("m20.{id}.{rest}");
        for (name, index) in INPUTS {
            f.add(&key(&format!("input.{name}")), features.counts[index][0]);
        }
        let evaluate =
            |weights: &EvalWeights| eval2::evaluate_with(&pos, weights, &eval2::KING_SAFETY_LEARNT);
        f.add(&key("fen"), fen)
            .add(&key("complexity"), features.complexity(weights))
            .add(
                &key("eg.before"),
                features.white_before_complexity(weights).eg,
            )
            .add(&key("eg.after"), features.white(weights).eg)
            .add(&key("phase"), features.phase)
            .add(&key("eval.m15"), evaluate(WeightSet::Eval4.weights()))
            .add(&key("eval.m20"), evaluate(weights))
            .add(&key("eval.m20_without"), evaluate(&without_complexity()));
    }
}

fn print_tables() {
    println!("M20's complexity weights as the tuner left them (endgame):\n");
    for (_, index) in INPUTS {
        println!("{:<40} {:>5}", weight_name(index), pair(index).1.eg);
    }
    println!();
    OnOff::measure(SWITCH, DEPTH).print();
    println!();
    print!("{}", figures().to_yaml());
}
