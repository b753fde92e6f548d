//! Chapter 6, evaluation: what the static evaluation says about the six positions of the search
//! chapters, the phase that blends its middlegame and endgame weights, one position term by
//! term, and the mirror property the evaluation is tested for.

use crate::ch01::position;
use crate::{Chapter, Figures};
use cb2026::bench::six_positions;
use cb2026::eval::{self, Breakdown, MAX_PHASE, Tapered, WEIGHTS};
use cb2026::position::Position;

/// Chapter 6 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "ch06",
    title: "Evaluation",
    bin: "ch06-evaluation",
    figures,
    measured: None,
    deep: None,
    print_tables,
};

/// The position shown term by term: the one of the six where most terms have something to say
/// (queens on, a pawn weakness, an attack on a king) and the phase is between the two ends.
const TRACED: &str = "singular";

/// The terms of a breakdown with their names, each blended at the position's phase, White's
/// view: what the console's `eval` prints in its last column.
pub fn blended_terms(b: &Breakdown) -> [(&'static str, i32); 8] {
    let blend = |[white, black]: [Tapered; 2]| (white - black).blend(b.phase);
    [
        ("material", blend(b.material)),
        ("psqt", blend(b.psqt)),
        ("bishop_pair", blend(b.bishop_pair)),
        ("mobility", blend(b.mobility)),
        ("passed_pawns", blend(b.passed_pawns)),
        ("pawn_structure", blend(b.pawn_structure)),
        ("rooks", blend(b.rooks)),
        ("king_safety", blend(b.king_safety)),
    ]
}

/// Chapter 6's figures: all static, a fraction of a second.
pub fn figures() -> Figures {
    let mut f = Figures::new("ch06");
    let start = Position::startpos();
    f.add("ch06.startpos.eval", eval::evaluate(&start))
        .add("ch06.startpos.phase", Breakdown::of(&start, &WEIGHTS).phase)
        .add("ch06.max_phase", MAX_PHASE);

    let mut mirror_equal = 0;
    for p in six_positions() {
        let pos = position(p.fen);
        let breakdown = Breakdown::of(&pos, &WEIGHTS);
        let score = eval::evaluate(&pos);
        let mirrored = eval::evaluate(&position(p.fen).mirrored());
        if mirrored == score {
            mirror_equal += 1;
        }
        f.add(&format!("ch06.{}.eval", p.id), score)
            .add(&format!("ch06.{}.phase", p.id), breakdown.phase)
            .add(&format!("ch06.{}.mirror.eval", p.id), mirrored);
    }
    f.add("ch06.six.mirror_equal", mirror_equal);

    let traced = six_positions()
        .into_iter()
        .find(|p| p.id == TRACED)
        .expect("six.epd has the traced position");
    let breakdown = Breakdown::of(&position(traced.fen), &WEIGHTS);
    f.add(&format!("ch06.{TRACED}.white"), breakdown.white_score());
    let terms = blended_terms(&breakdown);
    for (name, value) in terms {
        f.add(&format!("ch06.{TRACED}.term.{name}"), value);
    }
    f.add(
        &format!("ch06.{TRACED}.term.sum"),
        terms.iter().map(|(_, v)| v).sum::<i32>(),
    );

    // Tapering one weight: a passed pawn on its sixth rank at full, half and no material.
    let passed = WEIGHTS.passed_pawn[5];
    f.add("ch06.passed6.mg", passed.mg)
        .add("ch06.passed6.eg", passed.eg)
        .add("ch06.passed6.phase12", passed.blend(MAX_PHASE / 2));
    f
}

fn print_tables() {
    println!("The six positions, evaluated statically (centipawns, side to move's view):\n");
    println!(
        "{:<13} {:>6} {:>7} {:>6} {:>7}",
        "position", "eval", "White", "phase", "mirror"
    );
    for p in six_positions() {
        let pos = position(p.fen);
        let b = Breakdown::of(&pos, &WEIGHTS);
        println!(
            "{:<13} {:>6} {:>7} {:>6} {:>7}",
            p.id,
            eval::evaluate(&pos),
            b.white_score(),
            b.phase,
            eval::evaluate(&position(p.fen).mirrored())
        );
    }
    let traced = six_positions()
        .into_iter()
        .find(|p| p.id == TRACED)
        .expect("six.epd has the traced position");
    println!("\nThe {TRACED} position term by term (the console's `eval`):\n");
    println!("{}", eval::trace(&position(traced.fen)));
    println!();
    print!("{}", figures().to_yaml());
}
