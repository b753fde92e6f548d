//! Chapter 14, extensions, and 14.1, singular extensions: the six positions with `checkext` and
//! `singular` off in turn, how many moves each extended, a sweep of the singular margin and of
//! the depth the test starts at, and the worked position, Win at Chess no. 237 (the `singular`
//! position of the six), found with and without each extension.

use crate::ch12::{Found, add_found, first_preferred};
use crate::six::{self, DEPTH, OnOff, Swept};
use crate::{Chapter, Figure, Figures};
use cb2026::bench::six_positions;
use cb2026::search::pruning::Params;
use cb2026::switches::Stage;

/// Chapter 14 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "ch14",
    title: "Extensions",
    bin: "ch14-extensions",
    figures,
    measured: Some(measured),
    deep: Some(measured),
    print_tables,
};

/// The solution of Win at Chess no. 237: 1...Rc1+!
pub const SOLUTION: &str = "c2c1";

/// The deepest iteration searched for the solution.
const SOLVE_MAX_DEPTH: u32 = 16;

/// The swept singular margins, in centipawns per ply (the default is 2).
const MARGINS: [i32; 4] = [1, 2, 4, 8];
/// The swept first depths of the singular test (the default is 7).
const MIN_DEPTHS: [i32; 3] = [6, 7, 8];

/// The FEN of WAC 237, the `singular` position of the six.
pub fn wac237_fen() -> &'static str {
    six_positions()
        .into_iter()
        .find(|p| p.id == "singular")
        .expect("six.epd has WAC 237")
        .fen
}

/// The iteration at which the engine first prefers [`SOLUTION`] in WAC 237 at the stage of
/// `switch`'s chapter with `switch` set to `on` and `params`, with the nodes searched up to it
/// and its line; `None` if it does not by [`SOLVE_MAX_DEPTH`].
pub fn solve(switch: &str, on: bool, params: Params) -> Option<Found> {
    first_preferred(
        wac237_fen(),
        SOLUTION,
        six::at_own_stage(switch, on),
        params,
        SOLVE_MAX_DEPTH,
    )
}

const SWEPT: [Swept; 2] = [
    Swept {
        name: "margin",
        values: &MARGINS,
        set: |p, v| p.singular_margin_per_ply = v,
    },
    Swept {
        name: "min_depth",
        values: &MIN_DEPTHS,
        set: |p, v| p.singular_min_depth = v,
    },
];

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
    let defaults = Params::DEFAULT;
    f.add("ch14.singular.min_depth", defaults.singular_min_depth)
        .add("ch14.singular.tt_slack", defaults.singular_tt_depth_slack)
        .add(
            "ch14.singular.margin_per_ply",
            defaults.singular_margin_per_ply,
        )
        .add("ch14.singular.margin.d8", defaults.singular_margin(8))
        .add("ch14.singular.test_depth.d8", defaults.singular_depth(8));

    let (with, without) = (
        solve("singular", true, defaults),
        solve("singular", false, defaults),
    );
    if let (Some(with), Some(without)) = (&with, &without) {
        f.add(
            "ch14.wac237.nodes_ratio",
            six::ratio(without.nodes, with.nodes),
        );
    }
    add_found(&mut f, "ch14.wac237.on", with.as_ref());
    add_found(&mut f, "ch14.wac237.off", without.as_ref());
    f
}

/// The heavy figures: the sweeps of the singular margin and first depth (the six and WAC 237 once
/// per value) and WAC 237 with the check extension on and off. Deterministic, so `cargo xtask
/// recheck` computes them again.
pub fn measured() -> Figures {
    let mut f = Figures::new("ch14");
    let defaults = Params::DEFAULT;
    let stage = Stage::Chapter(14).switches();
    for swept in &SWEPT {
        let prefix = format!("ch14.sweep.{}.d{DEPTH}", swept.name);
        six::sweep(&mut f, &prefix, stage, DEPTH, swept.values, swept.set);
        for &value in swept.values {
            let mut params = defaults;
            (swept.set)(&mut params, value);
            let total = six::total(&six::six_with(stage, params, DEPTH));
            f.add(
                &format!("{prefix}.v{value}.searches"),
                total.singular_searches,
            )
            .add(
                &format!("{prefix}.v{value}.extensions"),
                total.singular_extensions,
            );
            let found = solve("singular", true, params);
            f.add(
                &format!("ch14.sweep.{}.v{value}.wac237.depth", swept.name),
                found.as_ref().map_or(0, |it| it.depth),
            )
            .add(
                &format!("ch14.sweep.{}.v{value}.wac237.nodes", swept.name),
                found.as_ref().map_or(0, |it| it.nodes),
            );
        }
    }

    let (with, without) = (
        solve("checkext", true, defaults),
        solve("checkext", false, defaults),
    );
    add_found(&mut f, "ch14.wac237.checkext.on", with.as_ref());
    add_found(&mut f, "ch14.wac237.checkext.off", without.as_ref());
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
    let stage = Stage::Chapter(14).switches();
    for swept in &SWEPT {
        println!(
            "\nsingular {} swept at stage 14, depth {DEPTH} (the six; WAC 237 found at):",
            swept.name
        );
        for &value in swept.values {
            let mut params = Params::DEFAULT;
            (swept.set)(&mut params, value);
            let total = six::total(&six::six_with(stage, params, DEPTH));
            let found = solve("singular", true, params);
            println!(
                "  {value:>4}: {:>9} nodes, {} tests, {} extended; WAC 237 {}",
                total.nodes,
                total.singular_searches,
                total.singular_extensions,
                found.map_or("not found".to_string(), |it| format!(
                    "at depth {} after {} nodes",
                    it.depth, it.nodes
                ))
            );
        }
    }
    for switch in ["singular", "checkext"] {
        for (state, on) in [("on", true), ("off", false)] {
            match solve(switch, on, Params::DEFAULT) {
                Some(it) => println!(
                    "\nWAC 237, {switch} {state}: {SOLUTION} at depth {} after {} nodes ({}): {}",
                    it.depth, it.nodes, it.score, it.pv
                ),
                None => {
                    println!("\nWAC 237, {switch} {state}: not found by depth {SOLVE_MAX_DEPTH}")
                }
            }
        }
    }
    println!();
    print!("{}", figures().to_yaml());
    print!("{}", measured().to_yaml());
}
