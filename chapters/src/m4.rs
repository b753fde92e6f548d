//! Milestone M4, time II: how long each engine thought per move, by the phase of the game, read
//! from the stored games of the milestone's two matches (M4's three switches on against off:
//! the first version, which scaled chapter 15's soft limit, and the second, which scales the
//! target), and the plot of it, `book/src/m4-time-per-move.svg`.
//!
//! The same program draws the strength line of the book's last part,
//! `book/src/m4-strength-line.svg`: cb2026 after each milestone against four of Debian's
//! engines, from the gauntlets' records.
//!
//! The measured figures (`--measured`, stored by `cargo xtask measure m4`) are bench's nodes and
//! speed for the engine after each milestone ([`after_milestone`]).
//!
//! A timed search is not deterministic, so no pinned figure comes from one: the time figures are
//! read from the match records, which `cargo xtask verify` checks against their own PGN. What
//! the three measures read after each iteration is searched, at a fixed depth: two of the six
//! positions at stage M4, and the share of its target a move would be given after each
//! iteration.

use crate::ch02::{clock_name, load_average, time_medians};
use crate::plot::{LineChart, Series};
use crate::six;
use crate::{Chapter, Figure, Figures};
use cb2026::switches::{self, Stage, Switches};
use cb2026::time::{self, Heed};
use std::hint::black_box;

/// Milestone M4 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "m4",
    title: "M4. Time that follows the search",
    bin: "m4-time",
    figures,
    measured: Some(measured),
    deep: None,
    print_tables,
};

/// The switches of the milestone.
pub const SWITCHES: [&str; 3] = ["stability", "scoredrop", "nodeshare"];

/// The matches whose games are read, with the short name their figures use: the engine with the
/// three switches on (`m4`) against it with them off (`m3`), in the first version and the
/// second.
pub const RECORDS: [(&str, &str); 2] = [("first", "m4-time"), ("target", "m4-time-target")];

/// The two engines of the record, as the PGN names them: M4 on, then off.
pub const ENGINES: [&str; 2] = ["m4", "m3"];

/// The plot the chapter program draws (`--plot`) and the figures test compares.
pub const PLOT: &str = "book/src/m4-time-per-move.svg";

/// The strength line: the plot, drawn with the time plot (`--plot`) and compared by the
/// figures test.
pub const STRENGTH_PLOT: &str = "book/src/m4-strength-line.svg";

/// The engines of the strength line, by the name their gauntlet records carry
/// (`gauntlet-<engine>-<opponent>`), their place on the x axis and its label: the engine after
/// M1, M3 and M4 (each with the switches games accepted then), after M2's three accepted
/// switches and M3's second three went in together, once their games said H1, and after
/// chapter 19's tuned weights went in on theirs, after the search's repetition rule stopped
/// taking one occurrence in the game for a draw (chapter 4), after M6's safe checks went in on
/// theirs, and last after M12's six switches went in together on theirs. M2 has no point of its
/// own: when it was played its switches shipped off, so the engine after it was the engine after
/// M1; nor has M5, whose switches ship off.
pub const MILESTONES: [(&str, f64, &str); 8] = [
    ("m1", 1.0, "M1"),
    ("m3", 3.0, "M3"),
    ("m4", 4.0, "M4"),
    ("m2m3", 5.0, "M4 + six"),
    ("tuned", 6.0, "+ tuned"),
    ("rep", 7.0, "+ repetition"),
    ("m6", 8.0, "+ safe checks"),
    ("m12", 9.0, "+ M12's six"),
];

/// The opponents of the strength line: their name in the records, their label and colour.
pub const OPPONENTS: [(&str, &str, &str); 4] = [
    ("gnuchess", "GNU Chess 6.2.7", "#66a61e"),
    ("glaurung", "Glaurung 2.2", "#e7298a"),
    ("toga2", "Toga II 3.0", "#7570b3"),
    ("ethereal", "Ethereal 12", "#d95f02"),
];

/// The phases of a game the figures average over, by full move number: the openings of the
/// match end at move 8, so every game starts in the first phase.
pub const PHASES: [(&str, u32, u32); 4] = [
    ("opening", 9, 20),
    ("middlegame", 21, 40),
    ("late", 41, 60),
    ("endgame", 61, u32::MAX),
];

/// The depth to which the six positions are searched for the measures after each iteration.
pub const SCALE_DEPTH: u32 = 10;

/// The positions of the six whose iterations the book shows: the Lucena position, where the
/// best move settles early, and WAC 237, where it keeps changing and the score falls.
pub const SCALE_POSITIONS: [&str; 2] = ["rook-endgame", "singular"];

/// All three of M4's measures heeded, as the engine cb2026 ships heeds them.
const ALL_MEASURES: Heed = Heed {
    stability: true,
    score_drop: true,
    node_share: true,
};

/// What M4 reads after each iteration of the searches of [`SCALE_POSITIONS`] to
/// [`SCALE_DEPTH`] at stage M4, under `m4.scale.<position>.d<depth>`: the best move and score,
/// the three measures (`stable`, `drop`, `share_pct`), and the share of the target all three
/// together allow (`all_pct`, the soft limit's place).
fn add_scales(f: &mut Figures) {
    f.add("m4.scale_depth", SCALE_DEPTH);
    let runs = six::six(Stage::Milestone(4).switches(), SCALE_DEPTH);
    for run in runs.iter().filter(|run| SCALE_POSITIONS.contains(&run.id)) {
        for iteration in &run.iterations {
            let key = format!("m4.scale.{}.d{}", run.id, iteration.depth);
            let progress = &iteration.progress;
            f.add(&format!("{key}.best"), iteration.best_move.as_str())
                .add(&format!("{key}.score"), iteration.score.as_str())
                .add(&format!("{key}.stable"), progress.stable_iterations)
                .add(&format!("{key}.drop"), progress.score_drop)
                .add(&format!("{key}.share_pct"), progress.best_move_node_pct)
                .add(
                    &format!("{key}.all_pct"),
                    time::target_scale_pct(progress, ALL_MEASURES),
                );
        }
    }
}

// ANCHOR: after_milestone
/// The engine after milestone `last` (`0` for none): the engine as it shipped then
/// ([`Switches::shipped_after`]), with every switch of a later milestone off. The milestones'
/// switches only ever add to the engine before them, so this is the engine each milestone
/// handed on, measured with today's code.
pub fn after_milestone(last: u8) -> Switches {
    let shipped = match last {
        0 => Stage::Chapter(Stage::LAST_CHAPTER),
        m => Stage::Milestone(m),
    };
    let mut engine = Switches::shipped_after(shipped);
    for info in &switches::SWITCHES {
        if matches!(info.stage, Stage::Milestone(m) if m > last) {
            engine.set(info.name, false).expect("a switch of the table");
        }
    }
    engine
}
// ANCHOR_END: after_milestone

/// The engines whose bench speed the page compares, by the name their figures use: before the
/// milestones, after M1, after M2, and after M3 and M4 together (M4's switches read only the
/// clock, which bench never does, so the engine after M3 and after M4 search the same trees
/// equally fast).
const SPEED_STAGES: [(&str, u8); 4] = [("none", 0), ("m1", 1), ("m2", 2), ("m4", 4)];

/// How many times bench is run in each configuration; the median is kept.
const BENCH_RUNS: usize = 9;

/// The measured figures: bench's nodes and speed after each milestone, the median of
/// [`BENCH_RUNS`] runs each, taken in turns, and the change from the engine before the
/// milestones.
pub fn measured() -> Figures {
    let mut f = Figures::new("m4");
    f.add("m4.measured.load_before", load_average());
    let mut nodes = [0u64; SPEED_STAGES.len()];
    eprintln!(
        "m4: bench after each milestone, {} configurations, {BENCH_RUNS} runs each",
        SPEED_STAGES.len()
    );
    let times = {
        let [a, b, c, d] = &mut nodes;
        let bench = |last: u8| crate::bench_nodes(after_milestone(last));
        time_medians(
            BENCH_RUNS,
            &mut [
                &mut || *a = black_box(bench(SPEED_STAGES[0].1)),
                &mut || *b = black_box(bench(SPEED_STAGES[1].1)),
                &mut || *c = black_box(bench(SPEED_STAGES[2].1)),
                &mut || *d = black_box(bench(SPEED_STAGES[3].1)),
            ],
        )
    };
    let knps: Vec<f64> = (0..SPEED_STAGES.len())
        .map(|i| nodes[i] as f64 / times[i].as_secs_f64() / 1e3)
        .collect();
    for (i, (name, _)) in SPEED_STAGES.iter().enumerate() {
        let key = format!("m4.measured.bench.{name}");
        f.add(&format!("{key}.nodes"), nodes[i])
            .add(&format!("{key}.knps"), Figure::fixed(knps[i], 0))
            .add(
                &format!("{key}.nps_change_pct"),
                Figure::fixed(100.0 * (knps[i] / knps[0] - 1.0), 1),
            );
    }
    f.add("m4.measured.clock", clock_name())
        .add("m4.measured.load_after", load_average());
    f
}

/// The width of the plot's buckets, in full moves.
const BUCKET_MOVES: u32 = 5;

/// A bucket is drawn only if each engine played at least this many moves in it.
const BUCKET_MIN_MOVES: usize = 100;

/// One move an engine played: its full move number and the seconds it took.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimedMove {
    pub full_move: u32,
    pub seconds: f64,
}

/// Every move `engine` played in the PGN text `pgn`, with its time, read from the comment the
/// arena writes after each move (`{+0.12/9 0.157s}`: score/depth, then the time). The comments
/// alternate between the engines from the side to move in the game's `FEN` tag; a comment with
/// no time (an adjudication's) is skipped.
pub fn timed_moves(pgn: &str, engine: &str) -> Vec<TimedMove> {
    let mut moves = Vec::new();
    for game in crate::records::games(pgn).filter(|g| g.played_by(engine)) {
        let times = game.movetext.split('{').skip(1).filter_map(|rest| {
            let comment = rest.split('}').next()?;
            let mut words = comment.split_whitespace();
            let _score_depth = words.next()?.split_once('/')?;
            words.next()?.strip_suffix('s')?.parse::<f64>().ok()
        });
        for (i, seconds) in times.enumerate() {
            if !game.is_move_of(i, engine) {
                continue;
            }
            let plies_before = i as u32 + u32::from(!game.white_first);
            moves.push(TimedMove {
                full_move: game.first_move + plies_before / 2,
                seconds,
            });
        }
    }
    moves
}

/// The moves of `engine` in the match `record`.
pub fn record_moves(record: &str, engine: &str) -> Vec<TimedMove> {
    timed_moves(&crate::records::pgn(record), engine)
}

/// The mean time of `moves` between full moves `from` and `to`, in milliseconds, and how many
/// moves that is.
fn mean_ms(moves: &[TimedMove], from: u32, to: u32) -> (f64, usize) {
    let chosen: Vec<f64> = moves
        .iter()
        .filter(|m| (from..=to).contains(&m.full_move))
        .map(|m| m.seconds)
        .collect();
    if chosen.is_empty() {
        return (0.0, 0);
    }
    (
        1000.0 * chosen.iter().sum::<f64>() / chosen.len() as f64,
        chosen.len(),
    )
}

/// The pinned figures.
pub fn figures() -> Figures {
    // The plot in the book must be the record's.
    let drawn = std::fs::read_to_string(crate::repository_root().join(PLOT)).unwrap_or_default();
    assert!(
        drawn == plot_svg(),
        "{PLOT} is not the plot of the M4 matches' games: run the m4-time program with --plot"
    );
    let line = std::fs::read_to_string(crate::repository_root().join(STRENGTH_PLOT));
    assert!(
        line.unwrap_or_default() == strength_svg(),
        "{STRENGTH_PLOT} is not the plot of the gauntlets' records: run the m4-time program with \
         --plot"
    );
    let mut f = Figures::new("m4");
    for (short, record) in RECORDS {
        for engine in ENGINES {
            let moves = record_moves(record, engine);
            let key = format!("m4.time.{short}.{engine}");
            let (all, count) = mean_ms(&moves, 0, u32::MAX);
            f.add(&format!("{key}.moves"), count)
                .add(&format!("{key}.mean_ms"), Figure::fixed(all, 1));
            for (phase, from, to) in PHASES {
                let (mean, count) = mean_ms(&moves, from, to);
                f.add(&format!("{key}.{phase}.moves"), count)
                    .add(&format!("{key}.{phase}.mean_ms"), Figure::fixed(mean, 1));
            }
        }
    }
    add_scales(&mut f);
    f
}

/// The lines of the plot: M4's second version, its first, and the engine without M4 (from the
/// second match), with their labels.
fn plotted() -> [(&'static str, Vec<TimedMove>); 3] {
    let [(_, first), (_, target)] = RECORDS;
    [
        ("M4: the target, scaled", record_moves(target, ENGINES[0])),
        ("M4 first: half, scaled", record_moves(first, ENGINES[0])),
        ("chapter 15 (M4 off)", record_moves(target, ENGINES[1])),
    ]
}

/// The buckets of [`BUCKET_MOVES`] full moves from move 9 where every line played enough
/// moves to draw: `(first full move, [mean ms of each line])`.
fn buckets(per_line: &[Vec<TimedMove>; 3]) -> Vec<(u32, [f64; 3])> {
    let mut rows = Vec::new();
    let mut from = PHASES[0].1;
    loop {
        let to = from + BUCKET_MOVES - 1;
        let means = per_line.each_ref().map(|moves| mean_ms(moves, from, to));
        if means.iter().any(|&(_, n)| n < BUCKET_MIN_MOVES) {
            break;
        }
        rows.push((from, means.map(|(mean, _)| mean)));
        from = to + 1;
    }
    rows
}

/// The plot: the mean time per move by full move, one line per engine.
pub fn plot_svg() -> String {
    let lines = plotted();
    let rows = buckets(&lines.each_ref().map(|(_, moves)| moves.clone()));
    let colours = ["#d95f02", "#7570b3", "#1b9e77"];
    let series = (0..3)
        .map(|e| Series {
            label: lines[e].0.to_string(),
            colour: colours[e],
            points: rows
                .iter()
                .map(|&(from, means)| (f64::from(from), means[e]))
                .collect(),
            error_bars: None,
        })
        .collect();
    LineChart {
        title: "Time per move at 2+0.02, by the move of the game",
        description: "Mean thinking time per move of cb2026 with and without M4's time \
                      management, in buckets of five moves",
        x_label: "full moves (bucket of five, from)",
        y_label: "mean time per move (ms)",
        y_step: 10.0,
        x_tick: |v| format!("{v}"),
        series,
    }
    .svg()
}

/// The Elo of cb2026 after `milestone` against `opponent`, and its error, from the gauntlet's
/// record (`gauntlet-<milestone>-<opponent>`).
pub fn gauntlet_elo(milestone: &str, opponent: &str) -> (f64, f64) {
    let name = format!("gauntlet-{milestone}-{opponent}");
    let record = crate::records::load(&name);
    match (record.summary.elo, record.summary.elo_error) {
        (Some(elo), Some(error)) => (elo, error),
        _ => panic!("{name}: no Elo (every game won or every game lost?)"),
    }
}

/// The strength line: cb2026's Elo against each opponent, milestone by milestone, with the
/// error bars of its gauntlet.
pub fn strength_svg() -> String {
    let series = OPPONENTS
        .iter()
        .map(|&(opponent, label, colour)| {
            let results: Vec<(f64, (f64, f64))> = MILESTONES
                .iter()
                .map(|&(milestone, x, _)| (x, gauntlet_elo(milestone, opponent)))
                .collect();
            Series {
                label: label.to_string(),
                colour,
                points: results.iter().map(|&(x, (elo, _))| (x, elo)).collect(),
                error_bars: Some(results.iter().map(|&(_, (_, error))| error).collect()),
            }
        })
        .collect();
    LineChart {
        title: "cb2026 against Debian's engines at 2+0.02, milestone by milestone",
        description: "cb2026's Elo difference against GNU Chess, Glaurung, Toga II and Ethereal, \
                      with 95% error bars, after M1, M3, M4, M2's and M3's later switches, \
                      chapter 19's tuned weights, the repetition rule, M6's safe checks and \
                      M12's six switches",
        x_label: "the engine after",
        y_label: "Elo, cb2026 − opponent",
        y_step: 100.0,
        x_tick: |v| {
            let milestone = MILESTONES.iter().find(|m| m.1 == v);
            milestone.map_or(String::new(), |m| m.2.to_string())
        },
        series,
    }
    .svg()
}

/// Redraws the plots from the records (the chapter program with `--plot`).
pub fn write_plot() {
    let root = crate::repository_root();
    for (path, svg) in [(PLOT, plot_svg()), (STRENGTH_PLOT, strength_svg())] {
        let path = root.join(path);
        std::fs::write(&path, svg)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        eprintln!("m4: wrote {}", path.display());
    }
}

fn print_tables() {
    let lines = plotted();
    println!("Mean time per move (ms), by full move:\n");
    println!(
        "{:>6} {:>24} {:>24} {:>24}",
        "moves", lines[0].0, lines[1].0, lines[2].0
    );
    for (from, means) in buckets(&lines.each_ref().map(|(_, moves)| moves.clone())) {
        println!(
            "{:>6} {:>24.1} {:>24.1} {:>24.1}",
            format!("{from}-{}", from + BUCKET_MOVES - 1),
            means[0],
            means[1],
            means[2]
        );
    }
    println!();
    println!("cb2026 against Debian's engines at 2+0.02 (Elo ± 95 % error):\n");
    print!("{:>10}", "after");
    for (_, label, _) in OPPONENTS {
        print!(" {label:>18}");
    }
    println!();
    for (milestone, _, label) in MILESTONES {
        print!("{label:>10}");
        for (opponent, _, _) in OPPONENTS {
            let (elo, error) = gauntlet_elo(milestone, opponent);
            print!(" {:>18}", format!("{elo:+.1} ± {error:.1}"));
        }
        println!();
    }
    println!();
    print!("{}", figures().to_yaml());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_given_to_the_right_engine_and_move_number() {
        // Black to move at move 9: Black's 9th, White's 10th, Black's 10th; then a comment
        // without a time (an adjudication's).
        let pgn = "[Event \"x\"]\n[White \"a\"]\n[Black \"b\"]\n\
                   [FEN \"8/8/8/8/8/8/8/K1k5 b - - 0 9\"]\n\n\
                   9... Kd2 {+0.10/7 0.050s} 10. Kb2 {-0.20/9 0.100s} Kd3 {+0.30/8 0.070s} \
                   {White resigns} 0-1\n";
        assert_eq!(
            timed_moves(pgn, "b"),
            vec![
                TimedMove {
                    full_move: 9,
                    seconds: 0.05
                },
                TimedMove {
                    full_move: 10,
                    seconds: 0.07
                }
            ]
        );
        assert_eq!(
            timed_moves(pgn, "a"),
            vec![TimedMove {
                full_move: 10,
                seconds: 0.1
            }]
        );
        assert!(timed_moves(pgn, "c").is_empty());
    }
}
