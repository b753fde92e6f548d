//! Milestone M13, a king safety the tuner learns: the learnt king safety's weights where they
//! started and where the tuner left them, the held-out loss of M10's evaluation and of M13's
//! (measured again here), the tuning run as `cargo xtask tune` recorded it, what the curve
//! charges for an attack, a worked position, and the switch `kingsafety` off and on at stage
//! M13 and in bench.

use crate::ch19::{add_held_out_run, loss_figure, most_moved, parse_epochs, weight_name};
use crate::six::{self, DEPTH, OnOff};
use crate::{Chapter, Figure, Figures};
use cb2026::eval::Tapered;
use cb2026::eval2::{self, KingDanger, WeightSet};
use cb2026::eval2_kingsafety;
use cb2026::position::Position;
use cb2026::switches::{Stage, Switches};
use cb2026::tune::{TuningSet, loss};

/// Milestone M13 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "m13",
    title: "M13. A king safety the tuner learns",
    bin: "m13-king-safety",
    figures,
    measured: None,
    deep: None,
    print_tables,
};

/// The milestone's one switch.
const SWITCH: &str = "kingsafety";

/// M10's held-out positions, committed (M13 tunes on M10's data).
const HELD_OUT: &str = include_str!("../../data/tuning/held-out-m10.txt");

/// The losses `cargo xtask tune --set king-safety` recorded, epoch by epoch.
const LOSSES: &str = include_str!("../../data/tuning/m13-loss-per-epoch.csv");

/// How many of the other weights that moved most the page lists.
const MOVERS: usize = 6;

/// The sums of inputs whose cost the page tabulates.
const SUMS: [i32; 5] = [100, 200, 400, 600, 800];

/// The learnt king safety's weights, by figure name: each input's first slot and its count.
const INPUTS: [(&str, usize, usize); 6] = [
    ("attackers", eval2::KS_ATTACKERS, 4),
    ("zone", eval2::KS_ZONE_HITS, 4),
    ("weak", eval2::KS_WEAK, 1),
    ("checks", eval2::KS_SAFE_CHECKS, 4),
    ("no_queen", eval2::KS_NO_QUEEN, 1),
    ("base", eval2::KS_BASE, 1),
];

/// The attacking kinds, for the figures' names.
const KINDS: [&str; 4] = ["knight", "bishop", "rook", "queen"];

/// The worked position, from M10's held-out set (a game Black won): White to move, White's king
/// still on d1 in an open centre, Black's queen on e4, a rook behind the f-pawn and a bishop a
/// move from checking on g4.
pub const WORKED_FEN: &str = "1rb2rk1/6pp/p7/2Qpp3/4q3/8/PPR2PPP/3K1B1R w - - 0 21";

/// The worked position's deepest search.
const WORKED_DEPTH: u32 = 14;

/// The depth whose best move and score the page compares.
const WORKED_COMPARE_DEPTH: u32 = 10;

/// A weight where the tuning started (M10's weights, whose king safety slots hold the hand-set
/// start) and where it ended.
fn pair(index: usize) -> (Tapered, Tapered) {
    (
        WeightSet::Teacher.weights().pairs[index],
        WeightSet::KingSafety.weights().pairs[index],
    )
}

/// How far a weight moved: the larger of its halves' changes.
fn moved(index: usize) -> i32 {
    let (start, learnt) = pair(index);
    (learnt.mg - start.mg)
        .abs()
        .max((learnt.eg - start.eg).abs())
}

/// The default engine as it shipped after M12, with the switch as given: the two engines of
/// the milestone's games.
fn engine(on: bool) -> Switches {
    Switches {
        kingsafety: on,
        ..Switches::shipped_after(Stage::Milestone(12))
    }
}

/// The pinned figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("m13");
    add_tuning(&mut f);
    add_weights(&mut f);
    add_losses(&mut f);
    add_worked(&mut f);
    six::add_switch_figures(&mut f, "m13", SWITCH, engine);
    f
}

/// The worked position: the danger White's king is in and the evaluation with M6's king danger
/// and with M13's, then a search at stage M13 with the switch off and on: the best move at
/// [`WORKED_COMPARE_DEPTH`], and the first depth from which the search keeps the move it
/// plays at [`WORKED_DEPTH`].
fn add_worked(f: &mut Figures) {
    let pos = Position::from_fen(WORKED_FEN).expect("the worked position is valid FEN");
    let evaluations = [
        ("off", WeightSet::Teacher, &eval2::KING_DANGER_CHECKS),
        ("on", WeightSet::KingSafety, &eval2::KING_SAFETY_LEARNT),
    ];
    for (state, set, danger) in evaluations {
        let trace = eval2::trace_with(&pos, set, danger);
        // The danger White's king is in (Black's attack), as a positive number of centipawns.
        f.add(
            &format!("m13.worked.{state}.white_king_danger"),
            -trace.king_danger[0].mg,
        )
        .add(&format!("m13.worked.{state}.eval"), trace.total);
        let mut searcher = six::searcher(six::at_own_stage(SWITCH, state == "on"));
        let (_, _, iterations) = six::search(&mut searcher, WORKED_FEN, WORKED_DEPTH, &|_| false);
        let at = |depth: u32| {
            iterations
                .iter()
                .find(|i| i.depth == depth)
                .expect("every depth up to the deepest is reported")
        };
        let compared = at(WORKED_COMPARE_DEPTH);
        let last = at(WORKED_DEPTH);
        let settled = iterations
            .iter()
            .rev()
            .take_while(|i| i.best_move == last.best_move)
            .last()
            .expect("the last iteration keeps its own move");
        let key = format!("m13.worked.{state}");
        f.add(&format!("{key}.compare.best"), compared.best_move.as_str())
            .add(&format!("{key}.compare.score"), compared.score.as_str())
            .add(&format!("{key}.last.best"), last.best_move.as_str())
            .add(&format!("{key}.settled.depth"), settled.depth)
            .add(&format!("{key}.settled.nodes"), settled.cumulative_nodes);
    }
    f.add("m13.worked.depth", WORKED_DEPTH)
        .add("m13.worked.compare_depth", WORKED_COMPARE_DEPTH);
}

/// How the weights were tuned.
fn add_tuning(f: &mut Figures) {
    f.add("m13.train.positions", eval2_kingsafety::TRAINING_POSITIONS)
        .add("m13.k", Figure::fixed(eval2_kingsafety::K, 6))
        .add("m13.tune.rate", Figure::fixed(eval2_kingsafety::RATE, 2))
        .add("m13.tune.l2", Figure::fixed(eval2_kingsafety::L2, 4));
    add_held_out_run(f, "m13.tune", &parse_epochs(LOSSES));
}

/// Every input's weight, where it started and where the tuner left it; the other weights that
/// moved most; and what the curve charges for a few sums.
fn add_weights(f: &mut Figures) {
    for (name, start, len) in INPUTS {
        for offset in 0..len {
            let key = match len {
                1 => format!("m13.ks.{name}"),
                _ => format!("m13.ks.{name}.{}", KINDS.get(offset).expect("four kinds")),
            };
            let (first, learnt) = pair(start + offset);
            f.add(&format!("{key}.start.mg"), first.mg)
                .add(&format!("{key}.start.eg"), first.eg)
                .add(&format!("{key}.learnt.mg"), learnt.mg)
                .add(&format!("{key}.learnt.eg"), learnt.eg);
        }
    }
    let others = most_moved(
        |i| if i < eval2::KING_SAFETY { moved(i) } else { 0 },
        MOVERS,
    );
    for (rank, index) in others.into_iter().enumerate() {
        let (start, learnt) = pair(index);
        let key = format!("m13.movers.{}", rank + 1);
        f.add(&format!("{key}.name"), weight_name(index))
            .add(&format!("{key}.start.mg"), start.mg)
            .add(&format!("{key}.start.eg"), start.eg)
            .add(&format!("{key}.learnt.mg"), learnt.mg)
            .add(&format!("{key}.learnt.eg"), learnt.eg);
    }
    // (M14's terms, which came later and M13's tuning did not see, are not counted.)
    let unchanged = (0..eval2::EVAL3_TERMS).filter(|&i| moved(i) == 0).count();
    f.add("m13.weights.unchanged", unchanged)
        .add("m13.weights.inputs", eval2::COMPLEXITY - eval2::KING_SAFETY)
        .add("m13.weights.before", eval2::EVAL3_TERMS);
    for sum in SUMS {
        let cost = eval2::king_safety_penalty(Tapered { mg: sum, eg: sum });
        f.add(&format!("m13.curve.{sum}.mg"), cost.mg)
            .add(&format!("m13.curve.{sum}.eg"), cost.eg);
    }
}

/// The held-out loss of M10's evaluation as the engine plays it (M6's king danger), of M10's
/// weights with M13's king safety at its start, and of M13's, all with M10's `K`.
fn add_losses(f: &mut Figures) {
    let k = eval2_kingsafety::K;
    let measure = |danger: &KingDanger, set: WeightSet| {
        let held = TuningSet::parse_with(HELD_OUT, danger).expect("the held-out set is valid");
        loss_figure(loss(&held, set.weights(), k))
    };
    let learnt = &eval2::KING_SAFETY_LEARNT;
    f.add("m13.held_out.positions", HELD_OUT.lines().count());
    f.add(
        "m13.held_out.loss.m10",
        measure(&eval2::KING_DANGER_CHECKS, WeightSet::Teacher),
    )
    .add(
        "m13.held_out.loss.start",
        measure(learnt, WeightSet::Teacher),
    )
    .add(
        "m13.held_out.loss.m13",
        measure(learnt, WeightSet::KingSafety),
    );
}

fn print_tables() {
    println!("The learnt king safety's weights, start -> learnt (mg, eg):\n");
    for index in eval2::KING_SAFETY..eval2::COMPLEXITY {
        let (start, learnt) = pair(index);
        println!(
            "{:<40} ({:>4}, {:>4}) -> ({:>4}, {:>4})",
            weight_name(index),
            start.mg,
            start.eg,
            learnt.mg,
            learnt.eg
        );
    }
    println!();
    OnOff::measure(SWITCH, DEPTH).print();
    println!();
    print!("{}", figures().to_yaml());
}
