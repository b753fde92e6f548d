//! Chapter 18, evaluation II: what the new terms say about the six positions and a few
//! endgames, the size of the weight table a tuner will rewrite, the mirror property over the
//! perft suite, the pawn table's hit rate in a search, and the searches of the six with the
//! switch `eval2` on and off at stage 18.
//!
//! All cheap: static evaluations, and twelve searches at depth 8 (six of them shared with
//! other chapters through `six`'s cache only if they ask for the same switches).

use crate::ch01::position;
use crate::six::{self, OnOff};
use crate::{Chapter, Figure, Figures};
use cb2026::bench::six_positions;
use cb2026::epd;
use cb2026::eval;
use cb2026::eval2::{self, PSQT, PawnTable, TERMS, Trace, WEIGHTS, WeightSet};
use cb2026::position::Position;

/// Chapter 18 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "ch18",
    title: "Evaluation II",
    bin: "ch18-evaluation-ii",
    figures,
    measured: None,
    deep: None,
    print_tables,
};

/// The perft suite: its positions are the mirror test's.
const SUITE: &str = include_str!("../../data/perft-standard.epd");

/// The depth of the searches: the search chapters' depth.
pub const DEPTH: u32 = 8;

/// Positions where one group of terms decides, besides the six: id, FEN, what it shows.
pub const WORKED: [(&str, &str, &str); 5] = [
    (
        "knnk",
        "8/8/4k3/8/8/3KNN2/8/8 w - - 0 1",
        "two knights cannot force mate: scale 0",
    ),
    (
        "ocb",
        "8/5k2/4b1p1/8/8/3KB1P1/6P1/8 w - - 0 1",
        "opposite-coloured bishops, a pawn up: scale 32",
    ),
    (
        "rook-bishop",
        "8/8/4kb2/8/8/3K3R/8/8 w - - 0 1",
        "a rook against a bishop, no pawns: scale 16",
    ),
    (
        "passer",
        "8/5k2/8/1P6/8/8/5PK1/8 w - - 0 1",
        "an outside passed pawn on a free path, the defending king far from it",
    ),
    (
        "outpost",
        "6k1/pp3ppp/3p4/3N4/4P3/8/PPP2PPP/6K1 w - - 0 1",
        "a knight on d5 that no pawn can drive away",
    ),
];

/// A term's name as a key: `passed: free path` is `passed_free_path`.
pub fn slug(name: &str) -> String {
    name.replace(" (*)", "")
        .replace(": ", "_")
        .replace([' ', '-'], "_")
}

/// Adds the trace of `pos` under `ch18.<id>.`: each term's blended value (White's view) where
/// it is not zero, the phase, the scale, the total before and after scaling, and chapter 6's
/// evaluation of the same position (White's view).
fn add_trace(f: &mut Figures, id: &str, pos: &Position) -> Trace {
    let trace = eval2::trace(pos, WeightSet::HandSet);
    for (name, _, total) in trace.rows() {
        if total != 0 {
            f.add(&format!("ch18.{id}.term.{}", slug(name)), total);
        }
    }
    let white = |score: i32| match pos.side_to_move() {
        cb2026::square::Color::White => score,
        cb2026::square::Color::Black => -score,
    };
    f.add(&format!("ch18.{id}.phase"), trace.phase)
        .add(&format!("ch18.{id}.scale"), trace.scale)
        .add(&format!("ch18.{id}.unscaled"), trace.unscaled)
        .add(&format!("ch18.{id}.eval2"), trace.total)
        .add(&format!("ch18.{id}.eval6"), white(eval::evaluate(pos)));
    trace
}

/// Chapter 18's figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("ch18");
    // The table as this chapter built it: M13's king safety inputs came later.
    let weights = eval2::EVAL3_TERMS;
    let terms = TERMS.iter().filter(|t| t.start < weights).count();
    f.add("ch18.depth", DEPTH)
        .add("ch18.weights", weights)
        .add("ch18.weights.pesto", PSQT + 6 * 64)
        .add("ch18.weights.new", weights - (PSQT + 6 * 64))
        .add("ch18.terms", terms)
        .add("ch18.pawn_table.entries", PawnTable::ENTRIES)
        .add("ch18.tempo.mg", WEIGHTS.pairs[eval2::TEMPO].mg)
        .add("ch18.tempo.eg", WEIGHTS.pairs[eval2::TEMPO].eg);
    let start = Position::startpos();
    f.add(
        "ch18.startpos.eval2",
        eval2::trace(&start, WeightSet::HandSet).total,
    );
    let features = eval2::features(&start);
    // The features as this chapter built them (M14's terms come later).
    let nonzero = features.counts[..eval2::EVAL3_TERMS]
        .iter()
        .filter(|&&[w, b]| w != 0 || b != 0);
    f.add("ch18.startpos.features_nonzero", nonzero.count());

    for p in six_positions() {
        add_trace(&mut f, p.id, &position(p.fen));
    }
    for (id, fen, _) in WORKED {
        add_trace(&mut f, id, &position(fen));
    }

    // The mirror property over the perft suite.
    let suite = epd::perft_suite(SUITE).expect("the perft suite is valid");
    let mut table = PawnTable::new();
    let mut equal = 0;
    for line in &suite {
        let pos = position(&line.fen);
        let mirrored = pos.mirrored();
        if eval2::evaluate(&pos, &mut table, WeightSet::HandSet, &eval2::KING_DANGER)
            == eval2::evaluate(
                &mirrored,
                &mut table,
                WeightSet::HandSet,
                &eval2::KING_DANGER,
            )
        {
            equal += 1;
        }
    }
    f.add("ch18.mirror.positions", suite.len())
        .add("ch18.mirror.equal", equal);

    // The switch at its own stage: the six searched with evaluation II and with chapter 6's.
    let switch = OnOff::measure("eval2", DEPTH);
    switch.add_nodes(&mut f, "ch18");
    switch.add_moves(&mut f, "ch18");

    // The pawn table in those searches (the main thread's, cleared before each position).
    let mut searcher = six::searcher(six::at_own_stage("eval2", true));
    let (mut probes, mut hits) = (0, 0);
    for p in six_positions() {
        searcher.clear();
        searcher.search_depth(&position(p.fen), DEPTH);
        let (n, h) = searcher.pawn_table_counters();
        f.add(
            &format!("ch18.pawn_table.{}.hit_pct", p.id),
            Figure::percent(h, n, 1),
        );
        probes += n;
        hits += h;
    }
    f.add("ch18.pawn_table.six.probes", probes).add(
        "ch18.pawn_table.six.hit_pct",
        Figure::percent(hits, probes, 1),
    );
    f
}

fn print_tables() {
    println!("Evaluation II term by term (the console's `eval` with eval2 on).\n");
    for p in six_positions() {
        println!(
            "{} ({}):\n{}\n",
            p.id,
            p.fen,
            eval2::trace(&position(p.fen), WeightSet::HandSet)
        );
    }
    for (id, fen, what) in WORKED {
        println!(
            "{id}, {what} ({fen}):\n{}\n",
            eval2::trace(&position(fen), WeightSet::HandSet)
        );
    }
    OnOff::measure("eval2", DEPTH).print();
    println!();
    print!("{}", figures().to_yaml());
}
