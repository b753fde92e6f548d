//! Chapter 16, testing with games (SPRT): the arena's statistics on worked examples. The
//! figures of an actual match come from its record (`snapshots/games/<name>.json`) as
//! `games.<name>.*` keys, recomputed by `arena::record_figures`, not from here.
//!
//! Two things are read from the chapters' match records here, because `record_figures` does
//! not say them: which feature a match measured and at which stage (both from the options the
//! two engines played with), and the walk of the SPRT's log-likelihood ratio pair by pair (from
//! the PGN beside the record), drawn as the plot `book/src/ch16-llr-walks.svg`.

use crate::{Chapter, Figure, Figures, records};
use arena::MatchRecord;
use arena::stats::{
    Pentanomial, SprtParams, Trinomial, elo_pentanomial, elo_to_score, elo_trinomial, los,
};
use cb2026::switches::{Stage, Switches};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Chapter 16 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "ch16",
    title: "Testing with games (SPRT)",
    bin: "ch16-sprt",
    figures,
    measured: Some(measured),
    deep: Some(deep),
    print_tables,
};

/// The chapters' matches (stage N against stage N without the chapter's feature) whose LLR
/// walks the page plots: the five that had ended in a verdict when the plot was first drawn.
pub const CHAPTER_RECORDS: &[&str] = &[
    "ch07-alphabeta",
    "ch08-tt",
    "ch09-qsearch",
    "ch11-nullmove",
    "ch12-lmr",
];

/// Every chapter's match, in the book's order: the table of "What it's worth".
pub const TABLE_RECORDS: &[&str] = &[
    "ch06-evalterms",
    "ch07-alphabeta",
    "ch08-tt",
    "ch09-qsearch",
    "ch09-ordering",
    "ch10-pvs",
    "ch11-nullmove",
    "ch12-lmr",
    "ch13-pruning",
    "ch14-checkext",
    "ch14-1-singular",
    "ch15-timeman",
];

/// The record whose pairs the page counts by kind.
const PAIRS_RECORD: &str = "ch11-nullmove";

/// The plot of the records' LLR walks, drawn by `cargo xtask measure ch16`.
const PLOT: &str = "book/src/ch16-llr-walks.svg";

/// The switches an engine of a record played with: every switch named in its options set as
/// the option says, every switch not named (one added after the match) off, as in every stage
/// before the switch's chapter.
fn played_switches(options: &[(String, String)]) -> Switches {
    let mut switches = Switches::all(false);
    for (name, value) in options {
        if let (Ok(_), Ok(on)) = (Switches::info(name), Switches::parse_value(value)) {
            switches.set(name, on).expect("a registered switch");
        }
    }
    switches
}

/// What a chapter's match measured: the switches the candidate (`engines[0]`) had on and its
/// opponent off, and the stage the candidate played (the earliest whose switches are exactly
/// the candidate's). Panics on a record that is not a stage against the stage less a feature.
pub fn feature_and_stage(record: &MatchRecord) -> (Vec<&'static str>, Stage) {
    let on = played_switches(&record.engines[0].options);
    let off = played_switches(&record.engines[1].options);
    let feature: Vec<&'static str> = Switches::names()
        .into_iter()
        .filter(|name| on.get(name) != off.get(name))
        .collect();
    for name in &feature {
        assert!(
            on.get(name) == Ok(true),
            "{}: the candidate has {name} off and its opponent on",
            record.name
        );
    }
    assert!(
        !feature.is_empty(),
        "{}: the engines play the same switches",
        record.name
    );
    let stages = (1..=Stage::LAST_CHAPTER)
        .map(Stage::Chapter)
        .chain((1..=Stage::LAST_MILESTONE).map(Stage::Milestone));
    let stage = stages
        .into_iter()
        .find(|stage| stage.switches() == on)
        .unwrap_or_else(|| panic!("{}: the candidate plays no stage", record.name));
    (feature, stage)
}

/// One finished pair of a record: its number (the PGN's `Round` is `pair.game`), its opening,
/// and the candidate's points in its game as White (`first`) and as Black (`second`), whichever
/// the pair played first (the arena alternates: `arena::runner::first_engine_is_white`).
#[derive(Clone, Debug, PartialEq)]
pub struct Pair {
    pub number: u64,
    pub fen: String,
    pub first: f64,
    pub second: f64,
}

/// The finished pairs of a record, in the order of the openings. The arena stops on pairs as
/// they finish, which with two games at once is nearly, not exactly, this order.
pub fn pairs(record: &MatchRecord) -> Vec<Pair> {
    let path = crate::repository_root()
        .join("snapshots/games")
        .join(&record.pgn);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let candidate = &record.engines[0].name;
    let mut legs: BTreeMap<u64, [Option<(String, f64)>; 2]> = BTreeMap::new();
    for game in text.split("\n[Event ").filter(|g| !g.trim().is_empty()) {
        let tag = |name: &str| {
            game.lines()
                .find_map(|line| line.strip_prefix(&format!("[{name} \"")))
                .and_then(|rest| rest.strip_suffix("\"]"))
                .unwrap_or_else(|| panic!("{}: a game without {name}", path.display()))
        };
        let (pair, leg) = tag("Round")
            .split_once('.')
            .and_then(|(p, l)| Some((p.parse::<u64>().ok()?, l.parse::<usize>().ok()?)))
            .filter(|&(_, leg)| leg == 1 || leg == 2)
            .unwrap_or_else(|| panic!("{}: a Round that is not pair.game", path.display()));
        let white_points = match tag("Result") {
            "1-0" => 1.0,
            "0-1" => 0.0,
            "1/2-1/2" => 0.5,
            other => panic!("{}: result {other}", path.display()),
        };
        let candidate_white = tag("White") == candidate;
        let points = if candidate_white {
            white_points
        } else {
            1.0 - white_points
        };
        let seat = &mut legs.entry(pair).or_default()[usize::from(!candidate_white)];
        assert!(
            seat.is_none(),
            "{}: pair {pair}, game {leg}: the candidate has the same colour in both games",
            path.display()
        );
        *seat = Some((tag("FEN").to_string(), points));
    }
    legs.into_iter()
        .filter_map(|(number, [first, second])| {
            let ((fen, first), (fen2, second)) = (first?, second?);
            assert_eq!(fen, fen2, "pair {number}: two openings");
            Some(Pair {
                number,
                fen,
                first,
                second,
            })
        })
        .collect()
}

/// The LLR after each finished pair, in the order of [`pairs`], starting from 0 before
/// any pair. Panics if the pairs do not add up to the record's pentanomial counts.
pub fn llr_walk(record: &MatchRecord) -> Vec<f64> {
    let sprt = record
        .sprt
        .unwrap_or_else(|| panic!("{}: a match without SPRT", record.name));
    let mut pentanomial = Pentanomial::default();
    let mut walk = vec![0.0];
    for pair in pairs(record) {
        pentanomial.add_pair(pair.first, pair.second);
        walk.push(sprt.llr_pentanomial(&pentanomial));
    }
    assert_eq!(
        pentanomial.0, record.counts.pentanomial,
        "{}: the PGN's pairs are not the record's",
        record.name
    );
    walk
}

/// Match lengths for the error-bar table: an even match with half the games drawn.
const GAMES: [u64; 4] = [100, 1_000, 10_000, 40_000];

/// The SPRT of the arena's examples: H0 "no gain" against H1 "5 Elo", 5 % errors each way.
const SPRT: SprtParams = SprtParams {
    elo0: 0.0,
    elo1: 5.0,
    alpha: 0.05,
    beta: 0.05,
};

/// A match between equals of `games` games: a quarter won, half drawn, a quarter lost.
fn even_match(games: u64) -> Trinomial {
    Trinomial {
        wins: games / 4,
        draws: games / 2,
        losses: games / 4,
    }
}

/// The values of elo1 the chapters' matches used (H0 is 0 in each), for the shortest match.
const SWEEP_ELO1: [f64; 3] = [5.0, 30.0, 50.0];

/// How many pairs, each won twice by the candidate, take the LLR of `sprt` to its upper bound.
fn pairs_to_accept_h1(sprt: &SprtParams) -> u64 {
    let (_, upper) = sprt.bounds();
    (1..)
        .find(|&pairs| sprt.llr_pentanomial(&Pentanomial([0, 0, 0, 0, pairs])) >= upper)
        .expect("a sweep reaches any bound")
}

/// Chapter 16's figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("ch16");
    f.add(
        "ch16.score.elo100",
        Figure::fixed(100.0 * elo_to_score(100.0), 1),
    )
    .add(
        "ch16.score.elo400",
        Figure::fixed(100.0 * elo_to_score(400.0), 1),
    )
    .add(
        "ch16.score.elo5",
        Figure::fixed(100.0 * elo_to_score(5.0), 2),
    );

    for games in GAMES {
        let e = elo_trinomial(&even_match(games)).expect("games were played");
        f.add(
            &format!("ch16.even.g{games}.error"),
            Figure::fixed(e.error, 1),
        );
    }

    // One small match, counted as games and as pairs: 20 pairs, 40 games (three of the nine
    // one-point pairs were a win and a loss, six were two draws).
    let pentanomial = Pentanomial([1, 3, 9, 5, 2]);
    let trinomial = Trinomial {
        wins: 12,
        draws: 20,
        losses: 8,
    };
    let by_games = elo_trinomial(&trinomial).expect("games");
    let by_pairs = elo_pentanomial(&pentanomial).expect("pairs");
    f.add("ch16.example.wins", trinomial.wins)
        .add("ch16.example.draws", trinomial.draws)
        .add("ch16.example.losses", trinomial.losses)
        .add("ch16.example.elo", Figure::fixed(by_games.elo, 1))
        .add("ch16.example.error", Figure::fixed(by_games.error, 1))
        .add("ch16.example.pairs", pentanomial.pairs())
        .add("ch16.example.penta_error", Figure::fixed(by_pairs.error, 1))
        .add(
            "ch16.example.los",
            Figure::fixed(100.0 * los(trinomial.wins, trinomial.losses), 1),
        );

    let (lower, upper) = SPRT.bounds();
    f.add("ch16.sprt.elo0", Figure::fixed(SPRT.elo0, 0))
        .add("ch16.sprt.elo1", Figure::fixed(SPRT.elo1, 0))
        .add("ch16.sprt.lower", Figure::fixed(lower, 2))
        .add("ch16.sprt.upper", Figure::fixed(upper, 2));
    for games in GAMES {
        let llr = SPRT.llr_trinomial(&even_match(games));
        f.add(&format!("ch16.even.g{games}.llr"), Figure::fixed(llr, 2));
    }
    // How long the even match plays before its LLR reaches the lower bound (in steps of four
    // games, so that it stays a quarter won, half drawn, a quarter lost).
    let h0_games = (1..)
        .map(|quarters| 4 * quarters)
        .find(|&games| SPRT.llr_trinomial(&even_match(games)) <= lower)
        .expect("an even match reaches H0");
    f.add("ch16.even.h0_games", h0_games);
    // A candidate about 5 Elo better: 10,000 games, half drawn, scoring 50.72 %.
    let better = Trinomial {
        wins: 2_572,
        draws: 5_000,
        losses: 2_428,
    };
    let e = elo_trinomial(&better).expect("games");
    f.add("ch16.better.games", better.games())
        .add(
            "ch16.better.score_pct",
            Figure::percent(2 * better.wins + better.draws, 2 * better.games(), 2),
        )
        .add("ch16.better.elo", Figure::fixed(e.elo, 1))
        .add("ch16.better.error", Figure::fixed(e.error, 1))
        .add(
            "ch16.better.llr",
            Figure::fixed(SPRT.llr_trinomial(&better), 2),
        );
    // The shortest match an SPRT can end in: every pair won twice. Each such pair adds the
    // same amount to the LLR, which depends on elo1, not on how lopsided the match really is.
    for elo1 in SWEEP_ELO1 {
        let sprt = SprtParams { elo1, ..SPRT };
        f.add(
            &format!("ch16.all_wins.elo1_{elo1}.pairs"),
            pairs_to_accept_h1(&sprt),
        );
    }
    // The pairs of one record that scored one point each: two draws, or one win each, and
    // then the opening's colour won both games.
    let record = records::load(PAIRS_RECORD);
    let pairs = pairs(&record);
    let even = |p: &&Pair| p.first + p.second == 1.0;
    let split = |p: &&Pair| even(p) && p.first != 0.5;
    let first_split = pairs.iter().find(split).expect("a split pair");
    f.add("ch16.pairs.pairs", pairs.len())
        .add("ch16.pairs.one_point", pairs.iter().filter(even).count())
        .add("ch16.pairs.split", pairs.iter().filter(split).count())
        .add(
            "ch16.pairs.split_white_won",
            pairs
                .iter()
                .filter(split)
                .filter(|p| p.first == 1.0)
                .count(),
        )
        .add("ch16.pairs.first_split.number", first_split.number)
        .add("ch16.pairs.first_split.fen", first_split.fen.as_str());
    for name in TABLE_RECORDS {
        let (feature, stage) = feature_and_stage(&records::load(name));
        f.add(&format!("ch16.records.{name}.feature"), feature.join(" + "))
            .add(&format!("ch16.records.{name}.stage"), stage.to_string());
    }
    f
}

/// The walks: for each chapter record, the LLR after each of its pairs (the figures are the
/// number of pairs, the plot is the walk).
fn walk_figures() -> (Figures, Vec<Walk>) {
    let mut f = Figures::new("ch16");
    let mut walks = Vec::new();
    for name in CHAPTER_RECORDS {
        let record = records::load(name);
        let sprt = record.sprt.expect("checked by llr_walk");
        let (lower, upper) = sprt.bounds();
        let llr = llr_walk(&record);
        f.add(&format!("ch16.walk.{name}.pairs"), llr.len() - 1);
        walks.push(Walk {
            label: (*name).to_string(),
            llr,
            bounds: (lower, upper),
        });
    }
    (f, walks)
}

/// The walks' figures, and the plot redrawn (`cargo xtask measure ch16`).
fn measured() -> Figures {
    let (f, walks) = walk_figures();
    let plot = crate::repository_root().join(PLOT);
    if let Err(error) = std::fs::write(&plot, walks_svg(&walks)) {
        panic!("cannot write {}: {error}", plot.display());
    }
    eprintln!("ch16: wrote {}", plot.display());
    f
}

/// The walks' figures, computed again by `cargo xtask recheck`; panics if the plot in the book
/// is not the one these records give.
fn deep() -> Figures {
    let (f, walks) = walk_figures();
    let plot = crate::repository_root().join(PLOT);
    let drawn = std::fs::read_to_string(&plot).unwrap_or_default();
    assert!(
        drawn == walks_svg(&walks),
        "{} is not the plot of the stored records: redraw it with `cargo xtask measure ch16`",
        plot.display()
    );
    f
}

/// One record's walk for the plot.
struct Walk {
    label: String,
    /// The LLR before any pair, then after each.
    llr: Vec<f64>,
    bounds: (f64, f64),
}

/// Colours for the walks (ColorBrewer's Dark2, readable on white), reused in turn.
const COLOURS: [&str; 8] = [
    "#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#666666",
];

/// The walks as a self-contained SVG: pairs played across, LLR up, the bounds as dashed lines.
/// Written by hand and deterministic: the same records give the same bytes.
fn walks_svg(walks: &[Walk]) -> String {
    const WIDTH: f64 = 640.0;
    const HEIGHT: f64 = 400.0;
    const LEFT: f64 = 60.0;
    const RIGHT: f64 = 170.0;
    const TOP: f64 = 40.0;
    const BOTTOM: f64 = 50.0;
    let (plot_w, plot_h) = (WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM);
    let values = walks.iter().flat_map(|w| {
        w.llr
            .iter()
            .copied()
            .chain([w.bounds.0, w.bounds.1])
            .collect::<Vec<_>>()
    });
    let (low, high) = values.fold((0.0f64, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let (y_min, y_max) = (low.floor().min(-3.0), high.ceil().max(3.0));
    let longest = walks.iter().map(|w| w.llr.len() - 1).max().unwrap_or(1);
    let x_step = if longest <= 50 {
        10
    } else if longest <= 100 {
        20
    } else {
        50
    };
    let x_max = longest.div_ceil(x_step).max(1) * x_step;
    let x = |pair: usize| LEFT + plot_w * pair as f64 / x_max as f64;
    let y = |llr: f64| TOP + plot_h * (y_max - llr) / (y_max - y_min);

    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(
        svg,
        r#"<title>The log-likelihood ratio of each chapter's match, pair by pair, between the SPRT's bounds</title>"#
    );
    let _ = writeln!(
        svg,
        r#"<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>"#
    );
    let mut llr = y_min;
    while llr <= y_max + 1e-9 {
        let at = y(llr);
        let _ = writeln!(
            svg,
            r##"<line x1="{LEFT}" y1="{at:.1}" x2="{:.1}" y2="{at:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{llr:.0}</text>"##,
            LEFT + plot_w,
            LEFT - 6.0,
            at + 4.0
        );
        llr += 1.0;
    }
    for pair in (0..=x_max).step_by(x_step) {
        let at = x(pair);
        let _ = writeln!(
            svg,
            r##"<line x1="{at:.1}" y1="{TOP}" x2="{at:.1}" y2="{:.1}" stroke="#eee"/><text x="{at:.1}" y="{:.1}" text-anchor="middle">{pair}</text>"##,
            TOP + plot_h,
            TOP + plot_h + 18.0
        );
    }
    // The bounds: every record here uses the same error rates, so one pair of lines (the
    // first walk's), labelled with the verdict each one gives.
    if let Some(first) = walks.first() {
        for (bound, verdict) in [(first.bounds.1, "H1"), (first.bounds.0, "H0")] {
            let at = y(bound);
            let _ = writeln!(
                svg,
                r##"<line x1="{LEFT}" y1="{at:.1}" x2="{:.1}" y2="{at:.1}" stroke="#444" stroke-dasharray="6 4"/><text x="{:.1}" y="{:.1}">{bound:.2}: accept {verdict}</text>"##,
                LEFT + plot_w,
                LEFT + 6.0,
                at - 5.0
            );
        }
    }
    let _ = writeln!(
        svg,
        r##"<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#444"/>"##
    );
    let _ = writeln!(
        svg,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">game pairs played, in the order of their openings</text>"#,
        LEFT + plot_w / 2.0,
        HEIGHT - 12.0
    );
    let _ = writeln!(
        svg,
        r#"<text transform="translate(16 {:.1}) rotate(-90)" text-anchor="middle">log-likelihood ratio (LLR)</text>"#,
        TOP + plot_h / 2.0
    );
    let _ = writeln!(
        svg,
        r#"<text x="{LEFT}" y="22" font-size="14">Each chapter's match: stage N against stage N without its feature</text>"#
    );
    for (i, walk) in walks.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let points: Vec<String> = walk
            .llr
            .iter()
            .enumerate()
            .map(|(pair, &v)| format!("{:.1},{:.1}", x(pair), y(v)))
            .collect();
        let _ = writeln!(
            svg,
            r#"<polyline fill="none" stroke="{colour}" stroke-width="2" points="{}"/>"#,
            points.join(" ")
        );
        let legend_y = TOP + 10.0 + 20.0 * i as f64;
        let legend_x = LEFT + plot_w + 12.0;
        let _ = writeln!(
            svg,
            r#"<line x1="{legend_x:.1}" y1="{legend_y:.1}" x2="{:.1}" y2="{legend_y:.1}" stroke="{colour}" stroke-width="2"/><text x="{:.1}" y="{:.1}">{}</text>"#,
            legend_x + 24.0,
            legend_x + 30.0,
            legend_y + 4.0,
            walk.label
        );
    }
    svg.push_str("</svg>\n");
    svg
}

fn print_tables() {
    println!("Error bars of an even match with half the games drawn (95 %):\n");
    println!("{:>8} {:>8} {:>8}", "games", "± Elo", "LLR");
    for games in GAMES {
        let e = elo_trinomial(&even_match(games)).expect("games were played");
        println!(
            "{games:>8} {:>8} {:>8}",
            Figure::fixed(e.error, 1).to_string(),
            Figure::fixed(SPRT.llr_trinomial(&even_match(games)), 2).to_string()
        );
    }
    println!();
    println!("The chapters' matches (records in snapshots/games/):\n");
    println!(
        "{:<16} {:<22} {:>5} {:>6} {:>16} {:>10} {:>8} {:>6}",
        "record", "feature", "stage", "games", "Elo", "SPRT", "verdict", "load"
    );
    for name in CHAPTER_RECORDS {
        let record = records::load(name);
        let (feature, stage) = feature_and_stage(&record);
        let path = crate::repository_root().join(format!("snapshots/games/{name}.json"));
        let g = arena::record_figures(&path).unwrap_or_else(|e| panic!("{e}"));
        let get = |key: &str| {
            g.get(&format!("games.{name}.{key}"))
                .cloned()
                .unwrap_or_default()
        };
        println!(
            "{:<16} {:<22} {:>5} {:>6} {:>16} {:>10} {:>8} {:>6}",
            name,
            feature.join(", "),
            stage.to_string(),
            get("games"),
            format!("{} ± {}", get("elo"), get("elo_error")),
            format!("[{}, {}]", get("elo0"), get("elo1")),
            get("verdict"),
            get("load_mean")
        );
    }
    println!();
    print!("{}", figures().to_yaml());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_walk_ends_at_the_records_llr() {
        for name in CHAPTER_RECORDS {
            let record = records::load(name);
            let walk = llr_walk(&record);
            let sprt = record.sprt.expect("an SPRT");
            let stored = arena::record::llr(&sprt, &record.counts);
            assert!((walk[walk.len() - 1] - stored).abs() < 1e-9, "{name}");
        }
    }

    #[test]
    fn the_stage_is_the_candidates_and_the_feature_the_difference() {
        let record = records::load("ch07-alphabeta");
        assert_eq!(
            feature_and_stage(&record),
            (vec!["alphabeta"], Stage::Chapter(7))
        );
    }

    #[test]
    fn the_plot_draws_every_walk_between_the_bounds() {
        let walks = [
            Walk {
                label: "up".into(),
                llr: vec![0.0, 1.0, 3.0],
                bounds: (-2.94, 2.94),
            },
            Walk {
                label: "down".into(),
                llr: vec![0.0, -1.0, -2.0, -3.5],
                bounds: (-2.94, 2.94),
            },
        ];
        let svg = walks_svg(&walks);
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert_eq!(svg.matches("stroke-dasharray").count(), 2);
        assert!(svg.contains("2.94: accept H1") && svg.contains("-2.94: accept H0"));
        // The axis reaches down to -4 for the walk that fell to -3.5.
        assert!(svg.contains(">-4</text>"), "{svg}");
        assert_eq!(svg, walks_svg(&walks), "deterministic");
    }
}
