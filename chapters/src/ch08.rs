//! Chapter 8, the transposition table: the six positions with the table on and off (`tt`), how
//! often a probe finds an entry and how often the entry ends the node, and Fine's position
//! no. 70, which a search without the table does not solve.

use crate::six::{self, DEPTH, OnOff};
use crate::{Chapter, Figure, Figures};
use cb2026::bench::six_positions;
use cb2026::tt::TranspositionTable;

/// Chapter 8 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "ch08",
    title: "The transposition table",
    bin: "ch08-transposition-table",
    figures,
    measured: Some(measured),
    deep: Some(measured),
    print_tables,
};

/// Fine no. 70's FEN: the `pawn-endgame` of the six.
pub fn fine70_fen() -> &'static str {
    six_positions()
        .into_iter()
        .find(|p| p.id == "pawn-endgame")
        .expect("six.epd has Fine no. 70")
        .fen
}

/// With the table, Fine no. 70 is searched to this depth: stage 8 settles on 1.Kb1 at depth 20
/// and its score passes a pawn and a half, a pawn won, at depth 25.
const FINE_ON_DEPTH: u32 = 26;

/// The iterations with the table that the chapter shows.
const FINE_ON_SHOWN: std::ops::RangeInclusive<u32> = 19..=FINE_ON_DEPTH;

/// Without the table the tree grows about two and a half times per ply: depth 16 is some 87
/// million nodes, half a minute, and as deep as `cargo xtask recheck` should go.
const FINE_OFF_DEPTH: u32 = 16;

/// The iterations without the table that the chapter shows.
const FINE_OFF_SHOWN: std::ops::RangeInclusive<u32> = 13..=FINE_OFF_DEPTH;

/// A score that says the search has found the win: a pawn and a half, in centipawns.
const WIN_CP: i32 = 150;

/// Fine no. 70 searched to `depth` at stage 8 with the table on or off.
fn fine70(tt: bool, depth: u32) -> Vec<six::Iteration> {
    let mut searcher = six::searcher(six::at_own_stage("tt", tt));
    six::search(&mut searcher, fine70_fen(), depth, &|_| false).2
}

/// A UCI score (`cp 164`) in centipawns; mate scores count as beyond any centipawn score.
fn centipawns(score: &str) -> i32 {
    match score.split_once(' ') {
        Some(("cp", cp)) => cp.parse().expect("a centipawn score"),
        Some(("mate", n)) if !n.starts_with('-') => i32::MAX,
        _ => i32::MIN,
    }
}

/// `ch08.<prefix>fine70.dN.{best,score,nodes}` for the iterations in `shown`.
fn add_fine70(
    f: &mut Figures,
    prefix: &str,
    iterations: &[six::Iteration],
    shown: &std::ops::RangeInclusive<u32>,
) {
    for it in iterations.iter().filter(|it| shown.contains(&it.depth)) {
        let key = |what: &str| format!("ch08.{prefix}fine70.d{}.{what}", it.depth);
        f.add(&key("best"), it.best_move.as_str())
            .add(&key("score"), it.score.as_str())
            .add(&key("nodes"), it.cumulative_nodes);
    }
}

/// The first depth from which every iteration plays 1.Kb1, and the first whose score says the
/// pawn is won, with the nodes spent by then.
fn add_fine70_found(f: &mut Figures, prefix: &str, iterations: &[six::Iteration]) {
    let kb1_from = iterations
        .iter()
        .rposition(|it| it.best_move != "a1b1")
        .map_or(0, |i| i + 1);
    if let Some(it) = iterations.get(kb1_from) {
        f.add(&format!("ch08.{prefix}fine70.kb1_from"), it.depth);
    }
    match iterations.iter().find(|it| centipawns(&it.score) >= WIN_CP) {
        Some(it) => {
            f.add(&format!("ch08.{prefix}fine70.win_depth"), it.depth)
                .add(
                    &format!("ch08.{prefix}fine70.win_nodes"),
                    it.cumulative_nodes,
                );
        }
        None => {
            let best = iterations
                .iter()
                .map(|it| centipawns(&it.score))
                .max()
                .unwrap_or(0);
            f.add(&format!("ch08.{prefix}fine70.max_cp"), best);
        }
    }
}

/// Chapter 8's cheap figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("ch08");
    f.add(
        "ch08.table.slots",
        TranspositionTable::new(six::HASH_MB).slot_count(),
    );
    let tt = OnOff::measure("tt", DEPTH);
    tt.add_nodes(&mut f, "ch08");
    let on = tt.total_on();
    let table = six::total_table(&tt.on);
    f.add(&tt.key("ch08", "six.on.probes"), on.tt_probes)
        .add(&tt.key("ch08", "six.on.hits"), on.tt_hits)
        .add(
            &tt.key("ch08", "six.on.hit_pct"),
            Figure::percent(on.tt_hits, on.tt_probes, 1),
        )
        .add(&tt.key("ch08", "six.on.cutoffs"), on.tt_cutoffs)
        .add(
            &tt.key("ch08", "six.on.cutoff_pct"),
            Figure::percent(on.tt_cutoffs, on.tt_probes, 1),
        )
        .add(
            &tt.key("ch08", "six.on.move_only"),
            on.tt_hits - on.tt_cutoffs,
        )
        .add(&tt.key("ch08", "six.on.stores"), table.stores)
        .add(&tt.key("ch08", "six.on.refused"), table.refused);
    // How often the first move tried is the one that cuts off: the table's move is tried first.
    for (state, stats) in [("on", on), ("off", tt.total_off())] {
        f.add(
            &tt.key("ch08", &format!("six.{state}.first_move_cutoff_pct")),
            Figure::percent(stats.first_move_cutoffs, stats.beta_cutoffs, 1),
        );
    }
    for run in tt.on.iter() {
        f.add(
            &tt.key("ch08", &format!("{}.on.hit_pct", run.id)),
            Figure::percent(run.stats.tt_hits, run.stats.tt_probes.max(1), 1),
        );
    }
    tt.add_moves(&mut f, "ch08");
    let with = fine70(true, FINE_ON_DEPTH);
    add_fine70(&mut f, "", &with, &FINE_ON_SHOWN);
    add_fine70_found(&mut f, "", &with);
    f
}

/// Fine no. 70 without the table: millions of nodes, so stored by `cargo xtask measure ch08`
/// and recomputed by `cargo xtask recheck ch08`.
pub fn measured() -> Figures {
    let mut f = Figures::new("ch08");
    let without = fine70(false, FINE_OFF_DEPTH);
    add_fine70(&mut f, "measured.off.", &without, &FINE_OFF_SHOWN);
    add_fine70_found(&mut f, "measured.off.", &without);
    let with = fine70(true, FINE_OFF_DEPTH);
    if let (Some(with), Some(without)) = (with.last(), without.last()) {
        f.add(
            &format!("ch08.measured.off.fine70.d{FINE_OFF_DEPTH}.nodes_ratio"),
            six::ratio(without.cumulative_nodes, with.cumulative_nodes),
        );
    }
    f
}

fn print_tables() {
    let tt = OnOff::measure("tt", DEPTH);
    tt.print();
    let on = tt.total_on();
    println!(
        "\nwith the table: {} probes, {} hits ({}%), {} cutoffs",
        on.tt_probes,
        on.tt_hits,
        Figure::percent(on.tt_hits, on.tt_probes, 1),
        on.tt_cutoffs
    );
    for (name, tt, depth) in [("on", true, FINE_ON_DEPTH), ("off", false, FINE_OFF_DEPTH)] {
        println!("\nFine no. 70, table {name}:\n");
        for it in fine70(tt, depth) {
            println!(
                "depth {:>2} {:>10} nodes  {} {}",
                it.depth, it.cumulative_nodes, it.best_move, it.score
            );
        }
    }
    println!();
    print!("{}", figures().to_yaml());
}
