//! Chapter 20, the complete engine: every feature of chapters 6 to 19 measured in the engine
//! they make together, stage 20 (every chapter's switch on, no milestone's).
//!
//! Pinned: bench's node count at stage 20 and for the engine cb2026 ships (which leaves off what
//! games did not accept, and has the milestones' accepted switches). Measured (`cargo xtask
//! measure ch20`, rechecked in CI): the ablation table, the six positions at depth 8 at stage
//! 20 and with each chapter's switch turned off, one at a time.

use crate::plot::{LineChart, Series};
use crate::six::{self, DEPTH, change_pct, total};
use crate::{Chapter, Figure, Figures, records};
use cb2026::switches::{SWITCHES, Stage, Switches};

/// Chapter 20 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "ch20",
    title: "The complete engine",
    bin: "ch20-complete",
    figures,
    measured: Some(measured),
    deep: Some(measured),
    print_tables,
};

/// The switches the ablation leaves on, and why: turning them off changes nothing in a search
/// to a fixed depth on one thread, or the search cannot finish.
pub const NOT_FLIPPED: [(&str, &str); 4] = [
    (
        "alphabeta",
        "without it the search is minimax: depth 8 is out of reach",
    ),
    ("timeman", "a fixed depth does not read the clock"),
    ("smpvote", "one thread has no one to vote with"),
    ("smpoffset", "one thread has no helpers to start deeper"),
];

/// The engine of chapter 20: stage 20, every chapter's switch on, every milestone's off.
pub fn engine() -> Switches {
    Stage::Chapter(20).switches()
}

/// The switches of chapters 6 to 19 the ablation turns off, in chapter order.
pub fn flipped() -> Vec<&'static str> {
    SWITCHES
        .iter()
        .filter(|info| matches!(info.stage, Stage::Chapter(n) if (6..=19).contains(&n)))
        .map(|info| info.name)
        .filter(|name| NOT_FLIPPED.iter().all(|(skipped, _)| skipped != name))
        .collect()
}

/// The gauntlet of the engine cb2026 ships: the record of each match, the opponent's label on
/// the plot, and its colour, in the order the book's gauntlets have always been drawn (roughly
/// from the opponent cb2026 beats by most to the one it loses to by most; two close results can
/// swap from one gauntlet to the next). All at 2+0.02, 200 games each.
pub const GAUNTLET: [(&str, &str, &str); 6] = [
    ("gauntlet-m12-gnuchess", "GNU Chess 6.2.7", "#66a61e"),
    ("gauntlet-m12-toga2", "Toga II 3.0", "#7570b3"),
    (
        "gauntlet-m12-stockfish-2000",
        "Stockfish at 2000",
        "#666666",
    ),
    ("gauntlet-m12-glaurung", "Glaurung 2.2", "#e7298a"),
    (
        "gauntlet-m12-stockfish-2400",
        "Stockfish at 2400",
        "#a6761d",
    ),
    ("gauntlet-m12-ethereal", "Ethereal 12", "#d95f02"),
];

/// The gauntlet at the longer control, 8+0.08, 100 games each, against the same opponents in
/// [`GAUNTLET`]'s order. It was played by the engine as it shipped after M4, before M2's and
/// M3's later switches went in, so it is set beside that engine's gauntlet at 2+0.02
/// ([`AFTER_M4`]), not beside today's: the page quotes the bench its records carry.
pub const LONGER: [&str; 6] = [
    "gauntlet-m4-gnuchess-8s",
    "gauntlet-m4-toga2-8s",
    "gauntlet-m4-stockfish-2000-8s",
    "gauntlet-m4-glaurung-8s",
    "gauntlet-m4-stockfish-2400-8s",
    "gauntlet-m4-ethereal-8s",
];

/// The gauntlet at 2+0.02 of the engine that played [`LONGER`], in the same order.
pub const AFTER_M4: [&str; 6] = [
    "gauntlet-m4-gnuchess",
    "gauntlet-m4-toga2",
    "gauntlet-m4-stockfish-2000",
    "gauntlet-m4-glaurung",
    "gauntlet-m4-stockfish-2400",
    "gauntlet-m4-ethereal",
];

/// The opponents' names under the plot's x axis, in [`GAUNTLET`]'s order.
const SHORT_NAMES: [&str; 6] = [
    "GNU Chess",
    "Toga II",
    "SF 2000",
    "Glaurung",
    "SF 2400",
    "Ethereal",
];

/// The gauntlet's anchors: Stockfish limited to a rating on its own scale (`UCI_Elo`).
pub const ANCHORS: [(&str, f64); 2] = [
    ("gauntlet-m12-stockfish-2000", 2000.0),
    ("gauntlet-m12-stockfish-2400", 2400.0),
];

/// The same anchors in the games of the engine after M4, at 2+0.02 and at 8+0.08.
pub const ANCHORS_AFTER_M4: [(&str, f64); 2] = [
    ("gauntlet-m4-stockfish-2000", 2000.0),
    ("gauntlet-m4-stockfish-2400", 2400.0),
];
pub const ANCHORS_LONGER: [(&str, f64); 2] = [
    ("gauntlet-m4-stockfish-2000-8s", 2000.0),
    ("gauntlet-m4-stockfish-2400-8s", 2400.0),
];

/// The plot of the gauntlet, drawn by the chapter program with `--plot`.
pub const PLOT: &str = "book/src/ch20-gauntlet.svg";

/// The cheap figures: bench for stage 20 and for the default engine, each switch's default,
/// and the gauntlet's rating on Stockfish's scale.
pub fn figures() -> Figures {
    let drawn = std::fs::read_to_string(crate::repository_root().join(PLOT)).unwrap_or_default();
    assert!(
        drawn == gauntlet_svg(),
        "{PLOT} is not the plot of the gauntlet's records: run the ch20-complete program with --plot"
    );
    let mut f = Figures::new("ch20");
    let default_bench = crate::bench_nodes(Switches::default());
    // The gauntlet was played by the engine as it shipped after M12 (and M13, which shipped
    // nothing new); M14's page plays today's against the strongest two.
    let gauntlet_bench = crate::bench_nodes(Switches::shipped_after(Stage::Milestone(12)));
    f.add("ch20.bench.nodes", crate::bench_nodes(engine()))
        .add("ch20.bench.default.nodes", default_bench)
        .add("ch20.bench.m12.nodes", gauntlet_bench);
    for info in SWITCHES
        .iter()
        .filter(|i| matches!(i.stage, Stage::Chapter(_)))
    {
        let state = if info.default { "on" } else { "off" };
        f.add(&format!("ch20.default.{}", info.name), state);
    }
    // The gauntlet must be of the engine this build ships: its records carry bench's count.
    for (name, _, _) in GAUNTLET {
        let played = records::load(name).engines[0].bench;
        assert_eq!(
            played,
            Some(gauntlet_bench),
            "{name} was played by another version of cb2026 (bench {played:?}, the engine \
             after M12 {gauntlet_bench})"
        );
    }
    f.add("ch20.after_m4.bench", after_m4_bench());
    add_rating(&mut f, "ch20.rating", &ANCHORS);
    add_rating(&mut f, "ch20.rating.m4", &ANCHORS_AFTER_M4);
    add_rating(&mut f, "ch20.rating.8s", &ANCHORS_LONGER);
    let [(_, low), (_, high)] = ANCHORS;
    f.add("ch20.rating.anchor_gap", Figure::fixed(high - low, 0));
    f
}

/// The bench count of the engine that played the gauntlet after M4, at both controls: every
/// one of its records must carry the same, or they are not one engine's games.
fn after_m4_bench() -> u64 {
    let benches: Vec<Option<u64>> = AFTER_M4
        .iter()
        .chain(&LONGER)
        .map(|name| records::load(name).engines[0].bench)
        .collect();
    assert!(
        benches.windows(2).all(|pair| pair[0] == pair[1]),
        "the gauntlet after M4 was played by more than one version of cb2026: {benches:?}"
    );
    benches[0].expect("cb2026's bench in its records")
}

/// The rating fitted to the records of `anchors`, under `prefix`; then each anchor alone, and
/// how far apart the games put the two anchors: the model's check.
fn add_rating(f: &mut Figures, prefix: &str, anchors: &[(&str, f64); 2]) {
    let fit = fit_rating(anchors);
    f.add(&format!("{prefix}.elo"), Figure::fixed(fit.elo, 0))
        .add(&format!("{prefix}.error"), Figure::fixed(fit.error, 0))
        .add(&format!("{prefix}.games"), fit.games);
    let differences = anchors.map(|(name, anchor)| {
        let elo = records::load(name)
            .summary
            .elo
            .expect("a result short of all wins or all losses");
        f.add(
            &format!("{prefix}.alone.{anchor}"),
            Figure::fixed(anchor + elo, 0),
        );
        elo
    });
    let [low_elo, high_elo] = differences;
    f.add(
        &format!("{prefix}.measured_gap"),
        Figure::fixed(low_elo - high_elo, 1),
    );
}

/// A rating fitted to results against anchored opponents.
#[derive(Clone, Copy, Debug)]
pub struct Rating {
    pub elo: f64,
    /// The 95 % error: 1.96 standard errors.
    pub error: f64,
    pub games: usize,
}

/// The expected score of a player rated `elo` against one rated `anchor` (the logistic curve
/// of Elo's model, 400 points for odds of ten to one).
fn expected(elo: f64, anchor: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf((anchor - elo) / 400.0))
}

// ANCHOR: fit_rating
/// cb2026's rating on Stockfish's `UCI_Elo` scale: the rating whose expected scores against the
/// anchors add up to the points cb2026 scored against them (the maximum of the likelihood in
/// Elo's logistic model). Its error comes from the spread of the games' own scores (a draw
/// tells less than a win or a loss), carried through the slope of the curve. `anchors`: each
/// match's record and the rating its opponent plays at.
pub fn fit_rating(anchors: &[(&str, f64)]) -> Rating {
    let results: Vec<(f64, f64, f64, f64)> = anchors
        .iter()
        .map(|&(name, anchor)| {
            let c = records::load(name).counts;
            let games = c.games as f64;
            let score = (c.wins as f64 + 0.5 * c.draws as f64) / games;
            let spread = (c.wins as f64 * (1.0 - score).powi(2)
                + c.draws as f64 * (0.5 - score).powi(2)
                + c.losses as f64 * score.powi(2))
                / games;
            (anchor, games, score, spread)
        })
        .collect();
    // The points scored minus the points expected falls as the rating rises: bisect for zero.
    let surplus = |elo: f64| -> f64 {
        results
            .iter()
            .map(|&(anchor, games, score, _)| games * (score - expected(elo, anchor)))
            .sum()
    };
    let (mut low, mut high) = (0.0, 5000.0);
    while high - low > 0.01 {
        let mid = (low + high) / 2.0;
        if surplus(mid) > 0.0 {
            low = mid;
        } else {
            high = mid;
        }
    }
    let elo = (low + high) / 2.0;
    let slope = |anchor: f64| {
        let p = expected(elo, anchor);
        p * (1.0 - p) * std::f64::consts::LN_10 / 400.0
    };
    let information: f64 = results.iter().map(|r| r.1 * slope(r.0)).sum();
    let variance: f64 = results.iter().map(|r| r.1 * r.3).sum::<f64>() / information.powi(2);
    Rating {
        elo,
        error: 1.96 * variance.sqrt(),
        games: results.iter().map(|r| r.1 as usize).sum(),
    }
}
// ANCHOR_END: fit_rating

/// The gauntlet's plot: cb2026's Elo against each opponent, with the error bars of its match.
pub fn gauntlet_svg() -> String {
    let series = GAUNTLET
        .iter()
        .enumerate()
        .map(|(i, &(name, label, colour))| {
            let summary = records::load(name).summary;
            let (elo, error) = (
                summary
                    .elo
                    .expect("a result short of all wins or all losses"),
                summary.elo_error.expect("an error bar"),
            );
            Series {
                label: label.to_string(),
                colour,
                points: vec![(i as f64 + 1.0, elo)],
                error_bars: Some(vec![error]),
            }
        })
        .collect();
    LineChart {
        title: "cb2026 against six engines at 2+0.02, 200 games each",
        description: "cb2026's Elo difference against each opponent of the gauntlet, with 95% \
                      error bars",
        x_label: "opponent, from the one cb2026 beat by most (SF: Stockfish at that UCI_Elo)",
        y_label: "Elo, cb2026 − opponent",
        y_step: 100.0,
        x_tick: |v| SHORT_NAMES[(v as usize).saturating_sub(1).min(5)].to_string(),
        series,
    }
    .svg()
}

/// Redraws the gauntlet's plot from the records (the chapter program with `--plot`).
pub fn write_plot() {
    let path = crate::repository_root().join(PLOT);
    std::fs::write(&path, gauntlet_svg())
        .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    eprintln!("ch20: wrote {}", path.display());
}

/// The ablation table, under `ch20.measured.d8`: the six positions' nodes at stage 20, and for
/// each switch of [`flipped`] the nodes with it off, the change, and how many of the six best
/// moves differ.
pub fn measured() -> Figures {
    let mut f = Figures::new("ch20");
    let key = |rest: &str| format!("ch20.measured.d{DEPTH}.{rest}");
    let base = six::six(engine(), DEPTH);
    let base_nodes = total(&base).nodes;
    f.add(&key("six.nodes"), base_nodes);
    for name in flipped() {
        let mut switches = engine();
        switches.set(name, false).expect("a registered switch");
        eprintln!("ch20: {name} off");
        let runs = six::six(switches, DEPTH);
        let nodes = total(&runs).nodes;
        let best_changed = base
            .iter()
            .zip(runs.iter())
            .filter(|(a, b)| a.last().best_move != b.last().best_move)
            .count();
        f.add(&key(&format!("{name}.nodes")), nodes)
            .add(
                &key(&format!("{name}.change_pct")),
                change_pct(nodes, base_nodes),
            )
            .add(&key(&format!("{name}.best_changed")), best_changed);
    }
    f
}

fn print_tables() {
    println!("The gauntlet at 2+0.02 (Elo, cb2026 − opponent, ± 95 %):\n");
    for (name, label, _) in GAUNTLET {
        let summary = records::load(name).summary;
        println!(
            "{label:>22} {:+7.1} ± {:5.1}",
            summary.elo.unwrap_or(f64::NAN),
            summary.elo_error.unwrap_or(f64::NAN)
        );
    }
    let fit = fit_rating(&ANCHORS);
    println!(
        "\nOn Stockfish's UCI_Elo scale: {:.0} ± {:.0} ({} games)\n",
        fit.elo, fit.error, fit.games
    );
    println!("The engine after M4's gauntlet at 8+0.08:\n");
    for (name, (_, label, _)) in LONGER.iter().zip(GAUNTLET) {
        let summary = records::load(name).summary;
        println!(
            "{label:>22} {:+7.1} ± {:5.1}",
            summary.elo.unwrap_or(f64::NAN),
            summary.elo_error.unwrap_or(f64::NAN)
        );
    }
    let fit = fit_rating(&ANCHORS_LONGER);
    println!(
        "\nOn Stockfish's UCI_Elo scale at 8+0.08: {:.0} ± {:.0} ({} games)\n",
        fit.elo, fit.error, fit.games
    );
    println!("The ablation at stage 20 (takes a while):\n");
    print!("{}", measured().to_yaml());
    print!("{}", figures().to_yaml());
}
