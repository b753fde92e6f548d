//! Chapter 14, extensions, and 14.1, singular extensions: the six positions with `checkext` and
//! `singular` off in turn, how many moves each extended, and the depth and the nodes at which
//! the engine finds Win at Chess no. 237 (the `singular` position) with and without singular
//! extensions.

use crate::six::{self, DEPTH, OnOff};
use crate::{Chapter, Figure, Figures};
use cb2026::bench::six_positions;
use cb2026::search::pruning::Params;

/// Chapter 14 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "ch14",
    title: "Extensions",
    bin: "ch14-extensions",
    figures,
    measured: None,
    deep: None,
    print_tables,
};

/// The solution of Win at Chess no. 237: 1...Rc1+!
const SOLUTION: &str = "c2c1";

/// The deepest iteration searched for the solution.
const SOLVE_MAX_DEPTH: u32 = 16;

/// The iteration at which the engine first prefers [`SOLUTION`] in the `singular` position,
/// with singular extensions on or off, and the nodes searched up to it; `None` if it does not
/// by [`SOLVE_MAX_DEPTH`].
pub fn solve(singular: bool) -> Option<six::Iteration> {
    let fen = six_positions()
        .into_iter()
        .find(|p| p.id == "singular")
        .expect("six.epd has WAC 237")
        .fen;
    let mut searcher = six::searcher(six::at_own_stage("singular", singular));
    let found = |it: &six::Iteration| it.best_move == SOLUTION;
    let (_, _, iterations) = six::search(&mut searcher, fen, SOLVE_MAX_DEPTH, &found);
    iterations.into_iter().find(found)
}

/// Chapter 14's figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("ch14");
    let checks = OnOff::measure("checkext", DEPTH);
    checks.add_nodes(&mut f, "ch14");
    f.add(
        &checks.key("ch14", "six.on.extensions"),
        checks.total_on().check_extensions,
    );

    let singular = OnOff::measure("singular", DEPTH);
    singular.add_nodes(&mut f, "ch14");
    let on = singular.total_on();
    let key = |rest: &str| singular.key("ch14", rest);
    f.add(&key("six.on.searches"), on.singular_searches)
        .add(&key("six.on.extensions"), on.singular_extensions)
        .add(
            &key("six.on.extension_pct"),
            Figure::percent(on.singular_extensions, on.singular_searches.max(1), 1),
        )
        .add(&key("six.on.seldepth"), on.seldepth)
        .add(&key("six.off.seldepth"), singular.total_off().seldepth);
    f.add(
        "ch14.singular.min_depth",
        Params::DEFAULT.singular_min_depth,
    )
    .add(
        "ch14.singular.tt_slack",
        Params::DEFAULT.singular_tt_depth_slack,
    );

    let (with, without) = (solve(true), solve(false));
    if let (Some(with), Some(without)) = (&with, &without) {
        f.add(
            "ch14.wac237.nodes_ratio",
            six::ratio(without.cumulative_nodes, with.cumulative_nodes),
        );
    }
    for (state, found) in [("on", with), ("off", without)] {
        let key = |what: &str| format!("ch14.wac237.{state}.{what}");
        f.add(&key("depth"), found.as_ref().map_or(0, |it| it.depth))
            .add(
                &key("nodes"),
                found.as_ref().map_or(0, |it| it.cumulative_nodes),
            )
            .add(
                &key("score"),
                found
                    .as_ref()
                    .map_or("-".to_string(), |it| it.score.clone()),
            );
    }
    f
}

fn print_tables() {
    for switch in ["checkext", "singular"] {
        let comparison = OnOff::measure(switch, DEPTH);
        comparison.print();
        let on = comparison.total_on();
        println!(
            "check extensions {}, singular searches {}, singular extensions {} (switch on)",
            on.check_extensions, on.singular_searches, on.singular_extensions
        );
    }
    for (state, on) in [("on", true), ("off", false)] {
        match solve(on) {
            Some(it) => println!(
                "\nWAC 237, singular {state}: {SOLUTION} at depth {} after {} nodes ({})",
                it.depth, it.cumulative_nodes, it.score
            ),
            None => println!("\nWAC 237, singular {state}: not found by depth {SOLVE_MAX_DEPTH}"),
        }
    }
    println!();
    print!("{}", figures().to_yaml());
}
