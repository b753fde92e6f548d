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

/// Fine no. 70 is searched to this depth: the table finds 1.Kb1 and the win a ply or two
/// before it.
const FINE_DEPTH: u32 = 20;

/// The iterations of Fine no. 70 the chapter shows.
const FINE_SHOWN: std::ops::RangeInclusive<u32> = 17..=FINE_DEPTH;

/// Fine no. 70 (the `pawn-endgame` of the six) searched to [`FINE_DEPTH`] with the table on or
/// off.
fn fine70(tt: bool) -> Vec<six::Iteration> {
    let fen = six_positions()
        .into_iter()
        .find(|p| p.id == "pawn-endgame")
        .expect("six.epd has Fine no. 70")
        .fen;
    let mut searcher = six::searcher(six::at_own_stage("tt", tt));
    six::search(&mut searcher, fen, FINE_DEPTH, &|_| false).2
}

/// `ch08.<prefix>fine70.dN.{best,score,nodes}` for the shown iterations.
fn add_fine70(f: &mut Figures, prefix: &str, iterations: &[six::Iteration]) {
    for it in iterations
        .iter()
        .filter(|it| FINE_SHOWN.contains(&it.depth))
    {
        let key = |what: &str| format!("ch08.{prefix}fine70.d{}.{what}", it.depth);
        f.add(&key("best"), it.best_move.as_str())
            .add(&key("score"), it.score.as_str())
            .add(&key("nodes"), it.cumulative_nodes);
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
        .add(&tt.key("ch08", "six.on.stores"), table.stores)
        .add(&tt.key("ch08", "six.on.refused"), table.refused);
    for run in tt.on.iter() {
        f.add(
            &tt.key("ch08", &format!("{}.on.hit_pct", run.id)),
            Figure::percent(run.stats.tt_hits, run.stats.tt_probes.max(1), 1),
        );
    }
    add_fine70(&mut f, "", &fine70(true));
    f
}

/// Fine no. 70 without the table: millions of nodes, so stored by `cargo xtask measure ch08`.
pub fn measured() -> Figures {
    let mut f = Figures::new("ch08");
    let (with, without) = (fine70(true), fine70(false));
    add_fine70(&mut f, "measured.off.", &without);
    if let (Some(with), Some(without)) = (with.last(), without.last()) {
        f.add(
            &format!("ch08.measured.off.fine70.d{FINE_DEPTH}.nodes_ratio"),
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
    for (name, tt) in [("on", true), ("off", false)] {
        println!("\nFine no. 70, table {name}:\n");
        for it in fine70(tt) {
            println!(
                "depth {:>2} {:>10} nodes  {} {}",
                it.depth, it.cumulative_nodes, it.best_move, it.score
            );
        }
    }
    println!();
    print!("{}", figures().to_yaml());
}
