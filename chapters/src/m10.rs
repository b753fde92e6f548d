//! Milestone M10, a teacher for the evaluation: where M10's training labels came from (read
//! from the command stored in `crates/engine/src/eval2_teacher.rs`), the held-out loss of the
//! hand-set, chapter 19's and M10's weights on M10's held-out positions (measured again here),
//! the two tuning runs as `cargo xtask tune` recorded them (with the teacher, and on the bare
//! results of the same games), the weights that moved most from chapter 19's, the six
//! positions' evaluations with both sets, a worked position, and the switch `teacher` off and
//! on at stage M10 and in bench.

use crate::ch19::{
    add_held_out_run, flag, loss_figure, most_moved, parse_epochs, stored_match_games, weight_name,
};
use crate::six::{self, DEPTH, OnOff};
use crate::{Chapter, Figure, Figures};
use cb2026::bench::six_positions;
use cb2026::eval::Tapered;
use cb2026::eval2::{self, WeightSet};
use cb2026::eval2_teacher;
use cb2026::position::Position;
use cb2026::switches::{Stage, Switches};
use cb2026::tune::{TuningSet, loss};

/// Milestone M10 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "m10",
    title: "M10. A teacher for the evaluation",
    bin: "m10-teacher",
    figures,
    measured: None,
    deep: None,
    print_tables,
};

/// The milestone's own switch.
const SWITCH: &str = "teacher";

/// M10's held-out positions, committed: `cargo xtask datagen` writes them, labelled with the
/// games' results only.
const HELD_OUT: &str = include_str!("../../data/tuning/held-out-m10.txt");

/// The losses `cargo xtask tune --set teacher` recorded, epoch by epoch.
const LOSSES: &str = include_str!("../../data/tuning/m10-loss-per-epoch.csv");

/// The same record of a run on the same games labelled with their results alone (the data made
/// without `--teacher-depth`): its weights are not kept, its losses are.
const LOSSES_RESULTS_ONLY: &str = include_str!("../../data/tuning/m10-loss-results-only.csv");

/// How many of the weights that moved most the page lists.
const MOVERS: usize = 8;

/// The worked position: from M10's held-out set (see the page).
pub const WORKED_FEN: &str = "rnbq1rk1/1p2bppp/8/1PnpP3/p2B4/P2B1N2/3N1PPP/R2QK2R w KQ - 2 14";

/// The depth of the worked position's searches.
const WORKED_DEPTH: u32 = 10;

/// What the data command says of its teacher: `(teacher: NAME, K VALUE)` at its end.
fn teacher_of(command: &str) -> (&str, f64) {
    let inside = command
        .rsplit_once("(teacher: ")
        .and_then(|(_, rest)| rest.strip_suffix(')'))
        .expect("the data command names its teacher");
    let (name, k) = inside.rsplit_once(", K ").expect("and the teacher's K");
    (name, k.parse().expect("a number"))
}

/// A weight's chapter 19 and M10 values.
fn pair(index: usize) -> (Tapered, Tapered) {
    (
        WeightSet::Tuned.weights().pairs[index],
        WeightSet::Teacher.weights().pairs[index],
    )
}

/// How far a weight moved from chapter 19's value: the larger of its halves' changes.
fn moved(index: usize) -> i32 {
    let (tuned, teacher) = pair(index);
    (teacher.mg - tuned.mg)
        .abs()
        .max((teacher.eg - tuned.eg).abs())
}

/// The weights that moved most from chapter 19's, outside the piece-square tables.
pub fn movers() -> Vec<usize> {
    most_moved(moved, MOVERS)
}

/// The default engine as it shipped after M10, with the switch as given: the two engines of
/// the milestone's games.
fn engine(on: bool) -> Switches {
    Switches {
        teacher: on,
        ..Switches::shipped_after(Stage::Milestone(10))
    }
}

/// The pinned figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("m10");
    add_data(&mut f);
    add_losses(&mut f);
    add_movers(&mut f);
    for p in six_positions() {
        let pos = Position::from_fen(p.fen).expect("the six are valid FEN");
        for (set, name) in [(WeightSet::Tuned, "tuned"), (WeightSet::Teacher, "teacher")] {
            f.add(
                &format!("m10.{}.eval.{name}", p.id),
                eval2::trace(&pos, set).total,
            );
        }
    }
    add_worked(&mut f);
    six::add_switch_figures(&mut f, "m10", SWITCH, engine);
    f
}

/// Where the training positions came from and how they were labelled and tuned.
fn add_data(f: &mut Figures) {
    let command = eval2_teacher::DATA_COMMAND;
    let (teacher, teacher_k) = teacher_of(command);
    let number = |name: &str| flag(command, name).expect("the data command names it");
    let until = number("--match-games-until");
    let plain_command = command
        .split(" (teacher:")
        .next()
        .expect("split yields one part at least");
    f.add("m10.train.command", plain_command)
        .add("m10.train.positions", eval2_teacher::TRAINING_POSITIONS)
        .add("m10.train.match_games_until", until)
        .add("m10.train.match_games", stored_match_games(until))
        .add("m10.teacher.name", teacher)
        .add("m10.teacher.depth", number("--teacher-depth"))
        .add(
            "m10.teacher.share_pct",
            Figure::fixed(
                100.0 * number("--teacher-share").parse::<f64>().expect("a share"),
                0,
            ),
        )
        .add("m10.teacher.k", Figure::fixed(teacher_k, 6))
        .add("m10.k", Figure::fixed(eval2_teacher::K, 6))
        .add("m10.tune.rate", Figure::fixed(eval2_teacher::RATE, 2))
        .add("m10.tune.l2", Figure::fixed(eval2_teacher::L2, 4));
}

/// The held-out loss of the three weight sets, measured again here with M10's `K`, and the two
/// tuning runs' records.
fn add_losses(f: &mut Figures) {
    let held = TuningSet::parse(HELD_OUT).expect("the committed held-out set is valid");
    let k = eval2_teacher::K;
    f.add("m10.held_out.positions", held.len());
    for set in [WeightSet::HandSet, WeightSet::Tuned, WeightSet::Teacher] {
        let name = set_name(set);
        f.add(
            &format!("m10.held_out.loss.{name}"),
            loss_figure(loss(&held, set.weights(), k)),
        );
    }
    add_held_out_run(f, "m10.tune", &parse_epochs(LOSSES));
    add_held_out_run(f, "m10.tune_results", &parse_epochs(LOSSES_RESULTS_ONLY));
}

/// The figures' name of a weight set.
fn set_name(set: WeightSet) -> &'static str {
    match set {
        WeightSet::HandSet => "hand",
        WeightSet::Tuned => "tuned",
        WeightSet::Teacher => "teacher",
        WeightSet::KingSafety => "kingsafety",
        WeightSet::Eval3 => "eval3",
        WeightSet::Eval4 => "eval4",
        WeightSet::Eval5 => "eval5",
    }
}

/// The weights that moved most from chapter 19's values.
fn add_movers(f: &mut Figures) {
    for (rank, index) in movers().into_iter().enumerate() {
        let (tuned, teacher) = pair(index);
        let key = format!("m10.movers.{}", rank + 1);
        f.add(&format!("{key}.name"), weight_name(index))
            .add(&format!("{key}.tuned.mg"), tuned.mg)
            .add(&format!("{key}.tuned.eg"), tuned.eg)
            .add(&format!("{key}.teacher.mg"), teacher.mg)
            .add(&format!("{key}.teacher.eg"), teacher.eg);
    }
    // (M13's king safety inputs and M14's terms, which came later and nothing tuned here, are
    // not counted.)
    let unchanged = (0..eval2::EVAL3_TERMS).filter(|&i| moved(i) == 0).count();
    f.add("m10.weights.unchanged", unchanged);
}

/// The worked position's evaluation with both sets and its search at stage M10 with the switch
/// off and on.
fn add_worked(f: &mut Figures) {
    let pos = Position::from_fen(WORKED_FEN).expect("the worked position is valid FEN");
    for (state, set) in [("off", WeightSet::Tuned), ("on", WeightSet::Teacher)] {
        f.add(
            &format!("m10.worked.{state}.eval"),
            eval2::trace(&pos, set).total,
        );
        let mut searcher = six::searcher(six::at_own_stage(SWITCH, state == "on"));
        let (stats, _, iterations) =
            six::search(&mut searcher, WORKED_FEN, WORKED_DEPTH, &|_| false);
        let last = iterations.last().expect("a search to depth 1 or more");
        f.add(&format!("m10.worked.{state}.best"), last.best_move.as_str())
            .add(&format!("m10.worked.{state}.score"), last.score.as_str())
            .add(&format!("m10.worked.{state}.nodes"), stats.nodes);
    }
    f.add("m10.worked.depth", WORKED_DEPTH);
}

fn print_tables() {
    println!("The weights that moved most from chapter 19's (outside the piece-square tables):\n");
    for index in movers() {
        let (tuned, teacher) = pair(index);
        println!(
            "{:<40} ({:>4}, {:>4}) -> ({:>4}, {:>4})",
            weight_name(index),
            tuned.mg,
            tuned.eg,
            teacher.mg,
            teacher.eg
        );
    }
    println!();
    OnOff::measure(SWITCH, DEPTH).print();
    println!();
    print!("{}", figures().to_yaml());
}
