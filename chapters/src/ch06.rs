//! Chapter 6, evaluation: what the static evaluation says about the six positions of the search
//! chapters, the phase that blends its middlegame and endgame weights, one position term by
//! term, and the mirror property the evaluation is tested for.

use crate::ch01::position;
use crate::six::{self, OnOff};
use crate::{Chapter, Figure, Figures, ch07};
use cb2026::bench::six_positions;
use cb2026::eval::{self, Breakdown, MAX_PHASE, Tapered, WEIGHTS};
use cb2026::position::Position;
use cb2026::search::Limits;

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

    // The switch: stage 6 searches with and without the terms beyond material and tables.
    let terms = OnOff::measure("evalterms", SEARCH_DEPTH);
    f.add("ch06.evalterms.depth", SEARCH_DEPTH);
    terms.add_nodes(&mut f, "ch06");
    terms.add_moves(&mut f, "ch06");

    // The worked position: the opening of the six, where the terms change stage 6's move.
    let fen = six_fen(WORKED);
    for depth in 1..=SEARCH_DEPTH {
        for on in [true, false] {
            let state = if on { "on" } else { "off" };
            let line = ch07::line(
                six::at_own_stage("evalterms", on),
                fen,
                &Limits::depth(depth),
            );
            let key = |what: &str| format!("ch06.worked.d{depth}.{state}.{what}");
            f.add(&key("nodes"), line.nodes)
                .add(&key("best"), line.best.as_str())
                .add(&key("score"), line.score.as_str())
                .add(&key("pv"), line.pv.as_str());
        }
    }

    // The match: how deep each engine searched its moves (the depth the arena logged per move).
    for state in ["on", "off"] {
        let depths = ch07::engine_depths("ch06-evalterms", &format!("cb2026-evalterms-{state}"));
        let deep = depths.iter().filter(|&&d| d >= 4).count();
        f.add(&format!("ch06.games.{state}.moves"), depths.len())
            .add(
                &format!("ch06.games.{state}.depth4_pct"),
                Figure::percent(deep as u64, depths.len() as u64, 1),
            );
    }
    f
}

/// The worked position: one of the six, where stage 6 with and without the terms disagree.
const WORKED: &str = "opening";

/// The FEN of the six positions' `id`.
fn six_fen(id: &str) -> &'static str {
    six_positions()
        .into_iter()
        .find(|p| p.id == id)
        .expect("six.epd has the position")
        .fen
}

/// Stage 6 searches with minimax (alpha-beta is chapter 7's), so its depth stays small.
const SEARCH_DEPTH: u32 = 3;

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
