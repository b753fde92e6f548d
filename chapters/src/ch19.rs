//! Chapter 19, tuning: the held-out loss of the hand-set and the tuned weights (measured again
//! here from the committed held-out positions), the run of `cargo xtask tune` as it recorded
//! itself (`data/tuning/loss-per-epoch.csv`, drawn as `book/src/ch19-loss.svg`), the weights
//! that moved most, the six positions' evaluations with both sets, and the searches of the six
//! with the switch `tuned` on and off at stage 19.

use crate::ch01::position;
use crate::six::OnOff;
use crate::{Chapter, Figure, Figures};
use cb2026::bench::six_positions;
use cb2026::eval::Tapered;
use cb2026::eval2::{self, TERMS, WeightSet, term_of};
use cb2026::eval2_tuned;
use cb2026::tune::{TuningSet, loss};
use std::fmt::Write as _;

/// Chapter 19 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "ch19",
    title: "Tuning",
    bin: "ch19-tuning",
    figures,
    measured: None,
    deep: None,
    print_tables,
};

/// The held-out positions, committed: `cargo xtask datagen` writes them.
pub const HELD_OUT: &str = include_str!("../../data/tuning/held-out.txt");

/// The losses `cargo xtask tune` recorded, epoch by epoch, for the weights the engine has.
const LOSSES: &str = include_str!("../../data/tuning/loss-per-epoch.csv");

/// The same record of a run on the same data without the price on drift (`cargo xtask tune
/// --epochs 200 --rate 1 --l2 0 --out <elsewhere> --losses <this file>`): its weights are not
/// kept, its losses are.
const LOSSES_NO_PRICE: &str = include_str!("../../data/tuning/loss-per-epoch-no-price.csv");

/// The plot of [`LOSSES`] in the book.
const PLOT: &str = "book/src/ch19-loss.svg";

/// The depth of the searches: the search chapters' depth.
pub const DEPTH: u32 = 8;

/// How many of the weights that moved most the chapter lists.
const MOVERS: usize = 12;

/// The piece kinds' names, in the table's order.
const PIECES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];

/// One row of the tuner's record.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochRow {
    pub epoch: usize,
    pub train: f64,
    pub held_out: f64,
}

/// The tuner's record of the weights the engine has, parsed.
pub fn epochs() -> Vec<EpochRow> {
    parse_epochs(LOSSES)
}

/// The tuner's record of the run without the price on drift, parsed.
pub fn epochs_no_price() -> Vec<EpochRow> {
    parse_epochs(LOSSES_NO_PRICE)
}

/// The value of `--flag` in a command line.
pub fn flag<'a>(command: &'a str, flag: &str) -> Option<&'a str> {
    let mut words = command.split_whitespace();
    words.find(|&w| w == flag)?;
    words.next()
}

/// How many games of the arena's stored records (`snapshots/games/*.pgn`) ended in a result on
/// or before `until`: the games `cargo xtask datagen --match-games-until` labels.
pub fn stored_match_games(until: &str) -> usize {
    let dir = crate::repository_root().join("snapshots/games");
    arena::stored_games::stored_games(&dir, until)
        .unwrap_or_else(|e| panic!("{e}"))
        .len()
}

pub fn parse_epochs(csv: &str) -> Vec<EpochRow> {
    csv.lines()
        .skip(1)
        .map(|line| {
            let mut cells = line.split(',');
            let mut next = || cells.next().expect("three cells");
            EpochRow {
                epoch: next().parse().expect("an epoch"),
                train: next().parse().expect("a loss"),
                held_out: next().parse().expect("a loss"),
            }
        })
        .collect()
}

/// The held-out positions, parsed.
pub fn held_out() -> TuningSet {
    TuningSet::parse(HELD_OUT).expect("the committed held-out set is valid")
}

/// A weight's name: its term, and its place in the term when it has several.
pub fn weight_name(index: usize) -> String {
    let term = TERMS[term_of(index)];
    let offset = index - term.start;
    if term.start == eval2::MATERIAL {
        return format!("material: {}", PIECES[offset]);
    }
    if term.start == eval2::PSQT {
        let square = offset % 64;
        // The tables are written a8 first, from White's side.
        let file = (b'a' + (square % 8) as u8) as char;
        let rank = 8 - square / 8;
        return format!("piece-square: {} on {file}{rank}", PIECES[offset / 64]);
    }
    if [
        eval2::KS_ATTACKERS,
        eval2::KS_ZONE_HITS,
        eval2::KS_SAFE_CHECKS,
    ]
    .contains(&term.start)
    {
        // M13's king safety inputs, one per kind of attacking piece.
        let kinds = ["knights", "bishops", "rooks", "queens"];
        return format!("{}, {}", term.name, kinds[offset]);
    }
    if let Some(name) = m15_weight_name(term.start, offset) {
        return name;
    }
    if term.len == 1 {
        term.name.to_string()
    } else if term.len == 8 {
        // Passed and connected pawns, by rank counted from the pawn's own side.
        format!("{} on rank {}", term.name, offset + 1)
    } else if term.name.starts_with("mobility") {
        format!("{} reaching {offset} squares", term.name)
    } else {
        format!("{} #{}", term.name, offset + 1)
    }
}

/// The names of M15's weights, which are laid out by file, by square or by more than one
/// thing at once (`None` for every other weight).
fn m15_weight_name(start: usize, offset: usize) -> Option<String> {
    let file = |f: usize| (b'a' + f as u8) as char;
    let name = match start {
        eval2::ISOLATED_FILE => format!("isolated pawn on the {}-file", file(offset)),
        eval2::DOUBLED_FILE => format!("doubled pawn on the {}-file", file(offset)),
        eval2::BACKWARD_RANK => format!(
            "backward pawn on rank {}{}",
            offset % 8 + 1,
            if offset >= 8 { ", open file" } else { "" }
        ),
        eval2::CONNECTED_SQUARE => {
            let (rank, f) = (offset / 4 + 1, offset % 4);
            format!(
                "connected pawn on {}{rank} or {}{rank}",
                file(f),
                file(7 - f)
            )
        }
        eval2::SHELTER => format!(
            "shelter: {}-file{}, {}",
            file(offset % 64 / 8),
            if offset >= 64 { " (the king's)" } else { "" },
            ranks_ahead(offset % 8)
        ),
        eval2::STORM_FILE => format!(
            "storm: {}-file or {}-file{}, {}",
            file(offset % 32 / 8),
            file(7 - offset % 32 / 8),
            if offset >= 32 { ", blocked" } else { "" },
            ranks_ahead(offset % 8)
        ),
        eval2::CLOSED_KNIGHT | eval2::CLOSED_ROOK => {
            let kind = if start == eval2::CLOSED_KNIGHT {
                "knight"
            } else {
                "rook"
            };
            format!("{kind}, closedness {offset}")
        }
        _ => return None,
    };
    Some(name)
}

/// A shelter or storm pawn's distance from the king as the weight names say it.
fn ranks_ahead(distance: usize) -> String {
    match distance {
        7 => "no pawn".to_string(),
        0 => "pawn level with the king".to_string(),
        1 => "pawn 1 rank ahead".to_string(),
        d => format!("pawn {d} ranks ahead"),
    }
}

/// How far a weight moved: the larger of its two halves' changes.
fn moved(index: usize) -> i32 {
    let (hand, tuned) = pair(index);
    (tuned.mg - hand.mg).abs().max((tuned.eg - hand.eg).abs())
}

/// A weight's hand-set and tuned values.
fn pair(index: usize) -> (Tapered, Tapered) {
    (
        eval2::WEIGHTS.pairs[index],
        eval2_tuned::TUNED_WEIGHTS.pairs[index],
    )
}

/// The weights that moved most, outside the piece-square tables (whose 384 squares are many
/// small corrections each): most moved first, ties by place in the table.
pub fn movers() -> Vec<usize> {
    most_moved(moved, MOVERS)
}

/// The `count` weights outside the piece-square tables that moved most by `moved`: most moved
/// first, ties by place in the table (M10 lists its own against chapter 19's).
pub fn most_moved(moved: impl Fn(usize) -> i32, count: usize) -> Vec<usize> {
    let mut indices: Vec<usize> = (0..eval2::NUM_WEIGHTS)
        .filter(|&i| !(eval2::PSQT..eval2::PSQT + 6 * 64).contains(&i))
        .collect();
    indices.sort_by_key(|&i| (-moved(i), i));
    indices.truncate(count);
    indices
}

/// Adds the `count` older weights that moved most between two tunings, as
/// `<id>.movers.<n>.{name, start.mg, start.eg, tuned.mg, tuned.eg}`: `pair` gives a weight where
/// the tuning started and where it ended, and the weights `is_new` says the tuning added are
/// left out (they all started at zero).
pub fn add_movers(
    f: &mut Figures,
    id: &str,
    count: usize,
    pair: impl Fn(usize) -> (Tapered, Tapered),
    is_new: impl Fn(usize) -> bool,
) {
    let moved = |i: usize| {
        let (start, tuned) = pair(i);
        (tuned.mg - start.mg).abs().max((tuned.eg - start.eg).abs())
    };
    let movers = most_moved(|i| if is_new(i) { 0 } else { moved(i) }, count);
    for (rank, index) in movers.into_iter().enumerate() {
        let (start, tuned) = pair(index);
        let key = format!("{id}.movers.{}", rank + 1);
        f.add(&format!("{key}.name"), weight_name(index))
            .add(&format!("{key}.start.mg"), start.mg)
            .add(&format!("{key}.start.eg"), start.eg)
            .add(&format!("{key}.tuned.mg"), tuned.mg)
            .add(&format!("{key}.tuned.eg"), tuned.eg);
    }
}

/// A loss as a figure: six decimals, as the tuner prints it.
pub fn loss_figure(value: f64) -> Figure {
    Figure::fixed(value, 6)
}

/// Chapter 19's figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("ch19");
    f.add("ch19.depth", DEPTH)
        .add("ch19.k", Figure::fixed(eval2_tuned::K, 6))
        .add("ch19.train.positions", eval2_tuned::TRAINING_POSITIONS)
        .add("ch19.train.command", eval2_tuned::DATA_COMMAND)
        .add("ch19.tune.rate", Figure::fixed(eval2_tuned::RATE, 2))
        .add("ch19.tune.l2", Figure::fixed(eval2_tuned::L2, 4));

    // The two sources of the training games, read from the command that labelled them.
    let command = eval2_tuned::DATA_COMMAND;
    let self_play: usize = flag(command, "--games")
        .and_then(|n| n.parse().ok())
        .expect("the data command names its games");
    let until = flag(command, "--match-games-until").expect("the data command names its date");
    f.add("ch19.train.self_play_games", self_play)
        .add("ch19.train.match_games_until", until)
        .add("ch19.train.match_games", stored_match_games(until));

    // The held-out loss, measured again here.
    let held = held_out();
    let k = eval2_tuned::K;
    let hand = loss(&held, &eval2::WEIGHTS, k);
    let tuned = loss(&held, &eval2_tuned::TUNED_WEIGHTS, k);
    f.add("ch19.held_out.positions", held.len())
        .add("ch19.held_out.loss.hand", loss_figure(hand))
        .add("ch19.held_out.loss.tuned", loss_figure(tuned))
        .add(
            "ch19.held_out.loss.drop_pct",
            Figure::fixed(100.0 * (hand - tuned) / hand, 1),
        );

    // The tuner's runs, from their records.
    let rows = epochs();
    add_run(&mut f, "ch19.tune", &rows);
    add_run(&mut f, "ch19.tune_free", &epochs_no_price());
    f.add("ch19.tune.first_tuned", eval2_tuned::FIRST_TUNED)
        .add(
            "ch19.tune.tuned_weights",
            eval2::EVAL3_TERMS - eval2_tuned::FIRST_TUNED,
        );

    // Material, before and after.
    for (k, piece) in PIECES.iter().enumerate().take(5) {
        let (hand, tuned) = pair(eval2::MATERIAL + k);
        f.add(&format!("ch19.material.{piece}.hand.mg"), hand.mg)
            .add(&format!("ch19.material.{piece}.hand.eg"), hand.eg)
            .add(&format!("ch19.material.{piece}.tuned.mg"), tuned.mg)
            .add(&format!("ch19.material.{piece}.tuned.eg"), tuned.eg);
    }
    // The weights that moved most.
    for (rank, index) in movers().into_iter().enumerate() {
        let (hand, tuned) = pair(index);
        let key = format!("ch19.movers.{}", rank + 1);
        f.add(&format!("{key}.name"), weight_name(index))
            .add(&format!("{key}.hand.mg"), hand.mg)
            .add(&format!("{key}.hand.eg"), hand.eg)
            .add(&format!("{key}.tuned.mg"), tuned.mg)
            .add(&format!("{key}.tuned.eg"), tuned.eg);
    }
    // (M13's king safety inputs and M14's terms, which came later and nothing tuned here, are
    // not counted.)
    let unchanged = (0..eval2::EVAL3_TERMS).filter(|&i| moved(i) == 0).count();
    f.add("ch19.weights.unchanged", unchanged);

    // The six, evaluated with both sets (White's view).
    for p in six_positions() {
        let pos = position(p.fen);
        for (set, name) in [(WeightSet::HandSet, "hand"), (WeightSet::Tuned, "tuned")] {
            f.add(
                &format!("ch19.{}.eval.{name}", p.id),
                eval2::trace(&pos, set).total,
            );
        }
    }

    // The switch at its own stage.
    let switch = OnOff::measure("tuned", DEPTH);
    switch.add_nodes(&mut f, "ch19");
    switch.add_moves(&mut f, "ch19");

    // The plot in the book must be the records'.
    let drawn = std::fs::read_to_string(crate::repository_root().join(PLOT)).unwrap_or_default();
    assert!(
        drawn == loss_svg(&rows, &epochs_no_price()),
        "{PLOT} is not the plot of data/tuning/loss-per-epoch.csv: run the ch19-tuning \
         program with --plot"
    );
    f
}

/// A run's losses before and after, and its best held-out epoch, under `prefix`.
fn add_run(f: &mut Figures, prefix: &str, rows: &[EpochRow]) {
    let (first, last) = (rows[0], rows[rows.len() - 1]);
    f.add(&format!("{prefix}.train.before"), loss_figure(first.train))
        .add(&format!("{prefix}.train.after"), loss_figure(last.train));
    add_held_out_run(f, prefix, rows);
}

/// A run's epochs, its held-out loss before and after, and its best held-out epoch, under
/// `prefix` (M10 reads its runs the same way).
pub fn add_held_out_run(f: &mut Figures, prefix: &str, rows: &[EpochRow]) {
    let (first, last) = (rows[0], rows[rows.len() - 1]);
    let best = rows
        .iter()
        .min_by(|a, b| a.held_out.total_cmp(&b.held_out))
        .expect("rows");
    f.add(&format!("{prefix}.epochs"), last.epoch)
        .add(
            &format!("{prefix}.held_out.before"),
            loss_figure(first.held_out),
        )
        .add(
            &format!("{prefix}.held_out.after"),
            loss_figure(last.held_out),
        )
        .add(&format!("{prefix}.held_out.best_epoch"), best.epoch)
        .add(
            &format!("{prefix}.held_out.best"),
            loss_figure(best.held_out),
        );
}

/// Redraws the plot from the record (the chapter program with `--plot`).
pub fn write_plot() {
    let path = crate::repository_root().join(PLOT);
    std::fs::write(&path, loss_svg(&epochs(), &epochs_no_price()))
        .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    eprintln!("ch19: wrote {}", path.display());
}

/// A line of the plot: its label, its colour, whether it is the run without the price (dashed)
/// and what it reads from a row.
type Series = (&'static str, &'static str, bool, fn(&EpochRow) -> f64);

/// The losses per epoch of both runs as a self-contained SVG, training and held out:
/// deterministic, the same records give the same bytes.
fn loss_svg(rows: &[EpochRow], no_price: &[EpochRow]) -> String {
    const WIDTH: f64 = 640.0;
    const HEIGHT: f64 = 380.0;
    const LEFT: f64 = 70.0;
    const RIGHT: f64 = 170.0;
    const TOP: f64 = 40.0;
    const BOTTOM: f64 = 50.0;
    let (plot_w, plot_h) = (WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM);
    let values = rows
        .iter()
        .chain(no_price)
        .flat_map(|r| [r.train, r.held_out]);
    let (low, high) = values.fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let step = 0.005;
    let (y_min, y_max) = ((low / step).floor() * step, (high / step).ceil() * step);
    let x_max = rows
        .iter()
        .chain(no_price)
        .map(|r| r.epoch)
        .max()
        .unwrap_or(1)
        .max(1);
    let x = |epoch: usize| LEFT + plot_w * epoch as f64 / x_max as f64;
    let y = |loss: f64| TOP + plot_h * (y_max - loss) / (y_max - y_min).max(1e-9);
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(
        svg,
        r#"<title>Mean squared error per epoch of tuning, on the training positions and on the held-out ones</title>"#
    );
    let _ = writeln!(
        svg,
        r#"<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>"#
    );
    let ticks = ((y_max - y_min) / step).round() as usize;
    for i in 0..=ticks {
        let value = y_min + step * i as f64;
        let at = y(value);
        let _ = writeln!(
            svg,
            r##"<line x1="{LEFT}" y1="{at:.1}" x2="{:.1}" y2="{at:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{value:.3}</text>"##,
            LEFT + plot_w,
            LEFT - 6.0,
            at + 4.0
        );
    }
    let x_step = (x_max / 5).max(1);
    for epoch in (0..=x_max).step_by(x_step) {
        let at = x(epoch);
        let _ = writeln!(
            svg,
            r##"<line x1="{at:.1}" y1="{TOP}" x2="{at:.1}" y2="{:.1}" stroke="#eee"/><text x="{at:.1}" y="{:.1}" text-anchor="middle">{epoch}</text>"##,
            TOP + plot_h,
            TOP + plot_h + 18.0
        );
    }
    let _ = writeln!(
        svg,
        r##"<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#444"/>"##
    );
    let _ = writeln!(
        svg,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">epoch (one step of Adam over every training position)</text>"#,
        LEFT + plot_w / 2.0,
        HEIGHT - 12.0
    );
    let _ = writeln!(
        svg,
        r#"<text transform="translate(16 {:.1}) rotate(-90)" text-anchor="middle">mean squared error</text>"#,
        TOP + plot_h / 2.0
    );
    let _ = writeln!(
        svg,
        r#"<text x="{LEFT}" y="22" font-size="14">Texel tuning of evaluation II: the loss as the weights learn</text>"#
    );
    let series: [Series; 4] = [
        ("kept: training", "#1b9e77", false, |r| r.train),
        ("kept: held out", "#d95f02", false, |r| r.held_out),
        ("no price: training", "#1b9e77", true, |r| r.train),
        ("no price: held out", "#d95f02", true, |r| r.held_out),
    ];
    for (i, (label, colour, dashed, value)) in series.iter().enumerate() {
        let run = if *dashed { no_price } else { rows };
        let dash = if *dashed {
            r#" stroke-dasharray="6 4""#
        } else {
            ""
        };
        let points: Vec<String> = run
            .iter()
            .map(|r| format!("{:.1},{:.1}", x(r.epoch), y(value(r))))
            .collect();
        let _ = writeln!(
            svg,
            r#"<polyline fill="none" stroke="{colour}" stroke-width="2"{dash} points="{}"/>"#,
            points.join(" ")
        );
        let legend_y = TOP + 10.0 + 20.0 * i as f64;
        let legend_x = LEFT + plot_w + 12.0;
        let _ = writeln!(
            svg,
            r#"<line x1="{legend_x:.1}" y1="{legend_y:.1}" x2="{:.1}" y2="{legend_y:.1}" stroke="{colour}" stroke-width="2"{dash}/><text x="{:.1}" y="{:.1}">{label}</text>"#,
            legend_x + 24.0,
            legend_x + 30.0,
            legend_y + 4.0
        );
    }
    svg.push_str("</svg>\n");
    svg
}

fn print_tables() {
    println!("The tuner's run (data/tuning/loss-per-epoch.csv), every 100 epochs:\n");
    println!("{:>6} {:>10} {:>10}", "epoch", "train", "held out");
    for row in epochs().iter().filter(|r| r.epoch % 100 == 0) {
        println!(
            "{:>6} {:>10.6} {:>10.6}",
            row.epoch, row.train, row.held_out
        );
    }
    println!("\nThe weights that moved most (outside the piece-square tables):\n");
    for index in movers() {
        let (hand, tuned) = pair(index);
        println!(
            "{:<40} ({:>4}, {:>4}) -> ({:>4}, {:>4})",
            weight_name(index),
            hand.mg,
            hand.eg,
            tuned.mg,
            tuned.eg
        );
    }
    println!();
    OnOff::measure("tuned", DEPTH).print();
    println!();
    print!("{}", figures().to_yaml());
}
