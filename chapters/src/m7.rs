//! Milestone M7, an evaluation that learns from the search: the correction history
//! (`corrhist`), what it learns in one position, and the six positions at stage M7 switched off
//! and on.
//!
//! Pinned: the table's sizes, the worked position's evaluations, correction and search, node
//! counts and best moves, bench's node count with the switch on and off. Measured
//! (`cargo xtask measure m7`): bench's speed with the switch off and on, timed in turns.

use crate::six::{self, DEPTH, OnOff};
use crate::{Chapter, Figures};
use cb2026::position::Position;
use cb2026::search::correction::{CORRECTION_SLOTS, MAX_CORRECTION};
use cb2026::switches::{Stage, Switches};

/// Milestone M7 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "m7",
    title: "M7. An evaluation that learns from the search",
    bin: "m7-correction-history",
    figures,
    measured: Some(measured),
    deep: None,
    print_tables,
};

/// The milestone's one switch.
const SWITCH: &str = "corrhist";

/// The worked position: a rook endgame in which White's passed pawns are further on than the
/// evaluation's tables credit.
pub const WORKED_FEN: &str = "8/5pk1/6p1/1PP5/8/r7/5PKP/2R5 w - - 0 1";

/// The worked position's search depth.
const WORKED_DEPTH: u32 = 14;

/// Adds the worked position's static evaluation, its search at stage M7 with the switch off
/// and on, and what the correction history learned there.
fn add_worked(f: &mut Figures) {
    let pos = Position::from_fen(WORKED_FEN).expect("the worked position is valid FEN");
    for on in [false, true] {
        let state = if on { "on" } else { "off" };
        let mut searcher = six::searcher(six::at_own_stage(SWITCH, on));
        if on {
            // The evaluation the search starts from (the correction adds nothing yet).
            let (raw, _) = searcher.static_and_quiescence(&pos);
            f.add("m7.worked.static_eval", raw);
        }
        let (stats, _, iterations) =
            six::search(&mut searcher, WORKED_FEN, WORKED_DEPTH, &|_| false);
        let last = iterations.last().expect("a search to depth 1 or more");
        f.add(&format!("m7.worked.{state}.best"), last.best_move.as_str())
            .add(&format!("m7.worked.{state}.score"), last.score.as_str())
            .add(&format!("m7.worked.{state}.nodes"), stats.nodes);
        if on {
            let (correction, filled) = searcher.correction(&pos);
            f.add("m7.worked.on.root_correction", correction)
                .add("m7.worked.on.slots_filled", filled);
        }
    }
    f.add("m7.worked.depth", WORKED_DEPTH);
}

/// The pinned figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("m7");
    f.add("m7.slots", CORRECTION_SLOTS)
        .add("m7.max_correction", MAX_CORRECTION);
    add_worked(&mut f);
    six::add_switch_figures(&mut f, "m7", SWITCH, engine);
    f
}

/// The default engine as it shipped after M7, with the switch as given.
fn engine(corrhist: bool) -> Switches {
    Switches {
        corrhist,
        ..Switches::shipped_after(Stage::Milestone(7))
    }
}

/// The measured figures: bench's speed with the switch off and on, timed in turns.
pub fn measured() -> Figures {
    six::bench_speed_off_on("m7", engine)
}

fn print_tables() {
    OnOff::measure(SWITCH, DEPTH).print();
    println!();
    print!("{}", figures().to_yaml());
}
