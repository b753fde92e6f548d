//! A chapter's figures depend only on its stage: what later chapters add cannot move them.
//!
//! Stage N is the engine with the switches of chapters 1..N on and every later one off
//! (`cb2026::switches::Stage`). For that to hold, a later feature switched off must leave no trace:
//! not in the search (the guarded code is skipped), and not in the searcher's state when the
//! switch was on a moment ago (the table's layout, for one, changes with `ttbuckets`). These tests
//! search the six positions at stage 11 (null move, the search chapters' middle) three ways and
//! require the same trees.

use cb2026::bench::six_positions;
use cb2026::position::Position;
use cb2026::search::Searcher;
use cb2026::switches::{SWITCHES, Stage, Switches};

/// Shallow enough for a test build, deep enough that null move, the table and ordering all act.
const DEPTH: u32 = 6;
const STAGE: Stage = Stage::Chapter(11);

/// Node count and best move of each of the six positions, each from a cleared searcher.
fn trees(searcher: &mut Searcher) -> Vec<(u64, String)> {
    six_positions()
        .iter()
        .map(|p| {
            let pos = Position::from_fen(p.fen).expect("the six positions parse");
            searcher.clear();
            let outcome = searcher.search_depth(&pos, DEPTH);
            let best = outcome.pv.first().map_or("none".into(), |m| m.to_string());
            (outcome.stats.nodes, best)
        })
        .collect()
}

fn fresh_at(switches: Switches) -> Vec<(u64, String)> {
    let mut searcher = Searcher::new(16);
    searcher.set_switches(switches);
    trees(&mut searcher)
}

#[test]
fn later_switches_turned_off_one_by_one_give_the_stage() {
    // The default engine, every feature of a later chapter switched off by name as a reader
    // would in the console, is stage 11 exactly.
    let mut switches = Switches::all(true);
    for info in SWITCHES.iter().filter(|info| info.stage > STAGE) {
        switches.set(info.name, false).expect("a registered switch");
    }
    assert_eq!(switches, STAGE.switches());
    assert_eq!(fresh_at(switches), fresh_at(STAGE.switches()));
}

#[test]
fn later_switches_turned_on_then_off_leave_no_trace() {
    let expected = fresh_at(STAGE.switches());
    // Every later feature on, a search that uses them all, then back to stage 11 in the same
    // searcher: the trees must be those of a fresh stage-11 searcher.
    let mut searcher = Searcher::new(16);
    searcher.set_switches(Stage::LAST.switches());
    let with_everything = trees(&mut searcher);
    searcher.set_switches(STAGE.switches());
    assert_eq!(trees(&mut searcher), expected);
    // And the later features do change the trees, so the comparison above can fail.
    assert_ne!(with_everything, expected);
}
