//! The search chapters' test bench: the six positions of `data/positions/six.epd`, searched to a
//! fixed depth with some set of switches, and the figures chapters 7 to 14 draw from them.
//!
//! Every run is made as bench makes its runs (ARCHITECTURE.md, "Determinism"): one thread, a
//! 16 MB table ([`HASH_MB`], the console's default `Hash`, so `ucinewgame` then `go depth N`
//! reproduces a count), and before each position the table emptied, its generation reset and
//! the histories and killers cleared. A run therefore depends only on the position, the depth
//! and the switches, and the same run asked for by two chapters is made once per process
//! ([`six`] keeps the results).
//!
//! A chapter measures its feature by switching it off and searching again ([`OnOff`]); its keys
//! are `<chapter>.<switch>.d<depth>.<position>.{on,off}.nodes`, the six together under
//! `six`, with the relative change of the node count and the number of positions whose best move
//! changed.

use crate::{Figure, Figures};
use cb2026::bench::six_positions;
use cb2026::position::Position;
use cb2026::search::pruning::Params;
use cb2026::search::{Limits, SearchStats, Searcher};
use cb2026::switches::{Stage, Switches};
use cb2026::time::Progress;
use cb2026::tt::TtCounters;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

/// The table size of every search figure, in megabytes: bench's and the console's default.
pub const HASH_MB: usize = 16;

/// The depth at which chapters 8 to 14 compare a switch on and off: a few seconds for all of
/// them in a test build, deep enough that every feature acts (singular extensions start at
/// depth 7).
pub const DEPTH: u32 = 8;

/// One completed iteration of a run.
#[derive(Clone, Debug)]
pub struct Iteration {
    pub depth: u32,
    /// Nodes of this iteration and every earlier one.
    pub cumulative_nodes: u64,
    /// The best move, in UCI notation.
    pub best_move: String,
    /// The score as UCI reports it (`cp 25`, `mate 3`).
    pub score: String,
    /// What M4's time measures read after this iteration.
    pub progress: Progress,
}

/// One position searched to a fixed depth.
#[derive(Clone, Debug)]
pub struct Run {
    /// The position's id in `six.epd` (`opening`, ..., `pawn-endgame`).
    pub id: &'static str,
    /// What the search counted, over every iteration.
    pub stats: SearchStats,
    /// The table's own counters for this position's search.
    pub table: TtCounters,
    pub iterations: Vec<Iteration>,
}

impl Run {
    /// The last iteration (every run completes at least depth 1).
    pub fn last(&self) -> &Iteration {
        self.iterations
            .last()
            .expect("a depth-limited search completes its iterations")
    }

    /// Nodes of iteration `depth` alone: its cumulative count less the previous one's.
    pub fn iteration_nodes(&self, depth: u32) -> u64 {
        let cumulative = |d: u32| {
            self.iterations
                .iter()
                .find(|it| it.depth == d)
                .map_or(0, |it| it.cumulative_nodes)
        };
        cumulative(depth) - cumulative(depth - 1)
    }
}

/// Searches `fen` to `depth` with `switches` from a cleared searcher, recording each iteration.
/// `until` may end the search early: after the first iteration for which it returns true, no
/// further iteration is reported (the search stops within 1,024 nodes, and those nodes are
/// left out of the iterations' counts).
pub fn search(
    searcher: &mut Searcher,
    fen: &str,
    depth: u32,
    until: &dyn Fn(&Iteration) -> bool,
) -> (SearchStats, TtCounters, Vec<Iteration>) {
    let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    searcher.clear();
    let stop = Arc::new(AtomicBool::new(false));
    let mut iterations: Vec<Iteration> = Vec::new();
    let outcome = searcher.search(&pos, &Limits::depth(depth), &stop, &mut |info| {
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            return;
        }
        let iteration = Iteration {
            depth: info.depth,
            cumulative_nodes: info.nodes,
            best_move: info
                .pv
                .first()
                .map_or("(none)".to_string(), |m| m.to_string()),
            score: info.score.to_string(),
            progress: info.progress,
        };
        if until(&iteration) {
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        iterations.push(iteration);
    });
    (outcome.stats, searcher.tt().counters(), iterations)
}

/// A searcher for the figures: [`HASH_MB`] and `switches`.
pub fn searcher(switches: Switches) -> Searcher {
    let mut searcher = Searcher::new(HASH_MB);
    searcher.set_switches(switches);
    searcher
}

type Cache = Mutex<Vec<(Switches, Params, u32, Arc<Vec<Run>>)>>;
static CACHE: Cache = Mutex::new(Vec::new());

/// The six positions searched to `depth` with `switches`, in file order. Computed once per
/// process for each pair: several chapters compare against the same default run.
pub fn six(switches: Switches, depth: u32) -> Arc<Vec<Run>> {
    six_with(switches, Params::DEFAULT, depth)
}

/// [`six`] with other search parameters: a chapter's sweep of one margin or reduction.
pub fn six_with(switches: Switches, params: Params, depth: u32) -> Arc<Vec<Run>> {
    let cached = |cache: &Cache| {
        let cache = cache
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        cache
            .iter()
            .find(|(s, p, d, _)| *s == switches && *p == params && *d == depth)
            .map(|(_, _, _, runs)| Arc::clone(runs))
    };
    if let Some(runs) = cached(&CACHE) {
        return runs;
    }
    let mut searcher = searcher(switches);
    searcher.set_params(params);
    let runs: Vec<Run> = six_positions()
        .iter()
        .map(|p| {
            let (stats, table, iterations) = search(&mut searcher, p.fen, depth, &|_| false);
            Run {
                id: p.id,
                stats,
                table,
                iterations,
            }
        })
        .collect();
    let runs = Arc::new(runs);
    let mut cache = CACHE
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    cache.push((switches, params, depth, Arc::clone(&runs)));
    runs
}

/// One parameter a chapter sweeps: its key, its values and how to set it in [`Params`].
#[derive(Debug)]
pub struct Swept {
    /// The key's part naming the parameter (`divisor`).
    pub name: &'static str,
    /// The values tried, the default among them.
    pub values: &'static [i32],
    /// Sets the parameter to a value.
    pub set: fn(&mut Params, i32),
}

/// One value of a swept parameter and what the six positions cost with it.
#[derive(Clone, Debug)]
pub struct SweepPoint {
    /// The parameter's value, as the figure key spells it (`2`, `75`).
    pub value: i32,
    /// Nodes of the six searches together.
    pub nodes: u64,
    /// How many of the six best moves differ from those with the default value.
    pub best_changed: usize,
}

/// Searches the six positions at `stage_switches` and `depth` once per value of one parameter
/// (`set` writes the value into a copy of the defaults), so a chapter can show what its choice
/// of number costs or saves against its neighbours. Adds `<prefix>.v<value>.nodes` and
/// `<prefix>.v<value>.best_changed` for each value.
pub fn sweep(
    f: &mut Figures,
    prefix: &str,
    stage_switches: Switches,
    depth: u32,
    values: &[i32],
    set: fn(&mut Params, i32),
) -> Vec<SweepPoint> {
    let default = six(stage_switches, depth);
    let points: Vec<SweepPoint> = values
        .iter()
        .map(|&value| {
            let mut params = Params::DEFAULT;
            set(&mut params, value);
            let runs = six_with(stage_switches, params, depth);
            let best_changed = runs
                .iter()
                .zip(default.iter())
                .filter(|(a, b)| a.last().best_move != b.last().best_move)
                .count();
            SweepPoint {
                value,
                nodes: total(&runs).nodes,
                best_changed,
            }
        })
        .collect();
    for point in &points {
        let key = |rest: &str| format!("{prefix}.v{}.{rest}", point.value);
        f.add(&key("nodes"), point.nodes)
            .add(&key("best_changed"), point.best_changed);
    }
    points
}

/// The counters of several runs added together.
pub fn total(runs: &[Run]) -> SearchStats {
    let mut sum = SearchStats::default();
    for run in runs {
        sum.add(&run.stats);
    }
    sum
}

/// The table counters of several runs added together.
pub fn total_table(runs: &[Run]) -> TtCounters {
    let mut sum = TtCounters::default();
    for run in runs {
        sum.add(&run.table);
    }
    sum
}

/// The engine at the stage of `name`'s own chapter (its switches and every earlier chapter's on,
/// every later one off), with `name` set to `on`: what a chapter compares, so that a feature
/// added by a later chapter cannot move its figures.
pub fn at_own_stage(name: &str, on: bool) -> Switches {
    let stage = Stage::of_switch(name).unwrap_or_else(|e| panic!("switch {name}: {e}"));
    let mut switches = stage.switches();
    switches
        .set(name, on)
        .unwrap_or_else(|e| panic!("switch {name}: {e}"));
    switches
}

/// A milestone against the one before it on the six positions at `depth`: adds, under
/// `<id>.milestone.d<depth>.six`, both totals' nodes, the change, how many best moves differ,
/// and each of `acted`'s counters before and after; then bench with the milestone's `switches`
/// on and off in the default engine (`<id>.bench.milestone_on/off.nodes`). Returns the totals,
/// before and after, for the milestone's own figures.
pub fn add_milestone(
    f: &mut Figures,
    id: &str,
    milestone: u8,
    switches: &[&str],
    acted: impl Fn(&SearchStats) -> Vec<(&'static str, u64)>,
    depth: u32,
) -> (SearchStats, SearchStats) {
    let before = six(Stage::Milestone(milestone - 1).switches(), depth);
    let after = six(Stage::Milestone(milestone).switches(), depth);
    let (before_stats, after_stats) = (total(&before), total(&after));
    let key = format!("{id}.milestone.d{depth}.six");
    f.add(&format!("{key}.before.nodes"), before_stats.nodes)
        .add(&format!("{key}.after.nodes"), after_stats.nodes)
        .add(
            &format!("{key}.change_pct"),
            change_pct(after_stats.nodes, before_stats.nodes),
        );
    for (state, stats) in [("after", &after_stats), ("before", &before_stats)] {
        for (name, count) in acted(stats) {
            f.add(&format!("{key}.{state}.{name}"), count);
        }
    }
    let best_changed = before
        .iter()
        .zip(after.iter())
        .filter(|(b, a)| b.last().best_move != a.last().best_move)
        .count();
    f.add(&format!("{key}.best_changed"), best_changed);
    for (state, on) in [("on", true), ("off", false)] {
        let mut engine = crate::engine_before_m12();
        for name in switches {
            engine.set(name, on).expect("a milestone switch");
        }
        f.add(
            &format!("{id}.bench.milestone_{state}.nodes"),
            crate::bench_nodes(engine),
        );
    }
    (before_stats, after_stats)
}

/// `100 × (new − old) / old` to one decimal, rounded half away from zero, in integer arithmetic
/// so it is the same on every machine: −31.1 means the new count is 31.1 % smaller.
pub fn change_pct(new: u64, old: u64) -> Figure {
    assert!(old > 0, "a change relative to nothing");
    let difference = i128::from(new) - i128::from(old);
    let scaled = difference * 1000;
    let old = i128::from(old);
    let rounded = (scaled.abs() * 2 + old) / (2 * old) * scaled.signum();
    Figure::Fixed {
        units: i64::try_from(rounded).expect("a percentage fits"),
        places: 1,
    }
}

/// `a / b` to one decimal (a ratio such as a branching factor), in integer arithmetic.
pub fn ratio(a: u64, b: u64) -> Figure {
    assert!(b > 0, "a ratio to nothing");
    let units = (u128::from(a) * 20 + u128::from(b)) / (2 * u128::from(b));
    Figure::Fixed {
        units: i64::try_from(units).expect("a ratio fits"),
        places: 1,
    }
}

/// The six positions searched with one switch on and off at one depth, at the switch's own
/// stage ([`at_own_stage`]).
#[derive(Clone, Debug)]
pub struct OnOff {
    pub switch: &'static str,
    pub depth: u32,
    pub on: Arc<Vec<Run>>,
    pub off: Arc<Vec<Run>>,
}

impl OnOff {
    /// Searches the six positions at `switch`'s own stage with `switch` on, then off.
    pub fn measure(switch: &'static str, depth: u32) -> OnOff {
        OnOff {
            switch,
            depth,
            on: six(at_own_stage(switch, true), depth),
            off: six(at_own_stage(switch, false), depth),
        }
    }

    /// `<chapter>.<switch>.d<depth>.<rest>`.
    pub fn key(&self, chapter: &str, rest: &str) -> String {
        format!("{chapter}.{}.d{}.{rest}", self.switch, self.depth)
    }

    /// The counters of the six positions together, switch on.
    pub fn total_on(&self) -> SearchStats {
        total(&self.on)
    }

    /// The counters of the six positions together, switch off.
    pub fn total_off(&self) -> SearchStats {
        total(&self.off)
    }

    /// Adds the node counts of each position, on and off, then [`OnOff::add_totals`]: every
    /// count a page's **Run it here** panel of the six compares with.
    pub fn add_nodes(&self, f: &mut Figures, chapter: &str) {
        for (on, off) in self.on.iter().zip(self.off.iter()) {
            f.add(
                &self.key(chapter, &format!("{}.on.nodes", on.id)),
                on.stats.nodes,
            )
            .add(
                &self.key(chapter, &format!("{}.off.nodes", off.id)),
                off.stats.nodes,
            );
        }
        self.add_totals(f, chapter);
    }

    /// Adds the node counts of the six together, on and off, the change of the total, and how
    /// many of the six best moves differ.
    fn add_totals(&self, f: &mut Figures, chapter: &str) {
        let (on, off) = (self.total_on().nodes, self.total_off().nodes);
        f.add(&self.key(chapter, "six.on.nodes"), on)
            .add(&self.key(chapter, "six.off.nodes"), off)
            .add(&self.key(chapter, "six.change_pct"), change_pct(on, off))
            .add(&self.key(chapter, "six.best_changed"), self.best_changed());
    }

    /// Adds in how many of the six positions the switch enlarges the tree.
    pub fn add_on_larger(&self, f: &mut Figures, chapter: &str) {
        f.add(&self.key(chapter, "six.on_larger"), self.on_larger());
    }

    /// In how many of the six positions the tree with the switch on is the larger one.
    pub fn on_larger(&self) -> usize {
        self.on
            .iter()
            .zip(self.off.iter())
            .filter(|(on, off)| on.stats.nodes > off.stats.nodes)
            .count()
    }

    /// Adds each position's best move and score, on and off.
    pub fn add_moves(&self, f: &mut Figures, chapter: &str) {
        for (on, off) in self.on.iter().zip(self.off.iter()) {
            for (state, run) in [("on", on), ("off", off)] {
                f.add(
                    &self.key(chapter, &format!("{}.{state}.best", run.id)),
                    run.last().best_move.as_str(),
                )
                .add(
                    &self.key(chapter, &format!("{}.{state}.score", run.id)),
                    run.last().score.as_str(),
                );
            }
        }
    }

    /// How many of the six positions get a different best move with the switch off.
    pub fn best_changed(&self) -> usize {
        self.on
            .iter()
            .zip(self.off.iter())
            .filter(|(on, off)| on.last().best_move != off.last().best_move)
            .count()
    }

    /// The comparison as a table for a person.
    pub fn print(&self) {
        let stage = Stage::of_switch(self.switch).expect("a measured switch exists");
        println!(
            "\n{} on and off at stage {stage}, depth {}, {HASH_MB} MB, empty table:\n",
            self.switch, self.depth
        );
        println!(
            "{:<13} {:>10} {:>10} {:>8}  {:<16} {:<16}",
            "position", "on", "off", "change", "best, score on", "best, score off"
        );
        for (on, off) in self.on.iter().zip(self.off.iter()) {
            println!(
                "{:<13} {:>10} {:>10} {:>7}%  {:<16} {:<16}",
                on.id,
                on.stats.nodes,
                off.stats.nodes,
                change_pct(on.stats.nodes, off.stats.nodes),
                format!("{} {}", on.last().best_move, on.last().score),
                format!("{} {}", off.last().best_move, off.last().score),
            );
        }
        let (on, off) = (self.total_on().nodes, self.total_off().nodes);
        println!(
            "{:<13} {on:>10} {off:>10} {:>7}%",
            "six",
            change_pct(on, off)
        );
    }
}

/// Timed runs of bench per configuration in [`bench_speed_off_on`] (medians are kept).
pub const BENCH_RUNS: usize = 15;

/// A milestone's measured figures for one switch: bench's speed with the default engine's
/// switch off and on (`engine(false)`, `engine(true)`), the median of [`BENCH_RUNS`] runs
/// each, taken in turns so that a change in the machine's load falls on both alike; under
/// `<id>.measured.`, with the load average before and after and the clock used.
pub fn bench_speed_off_on(id: &'static str, engine: fn(bool) -> Switches) -> Figures {
    use crate::ch02::{clock_name, load_average, time_medians};
    let mut f = Figures::new(id);
    f.add(&format!("{id}.measured.load_before"), load_average());
    let mut nodes = [0u64; 2];
    let [off, on] = &mut nodes;
    eprintln!("{id}: bench with the switch off and on, {BENCH_RUNS} runs each");
    let times = time_medians(
        BENCH_RUNS,
        &mut [
            &mut || *off = std::hint::black_box(crate::bench_nodes(engine(false))),
            &mut || *on = std::hint::black_box(crate::bench_nodes(engine(true))),
        ],
    );
    let knps = |i: usize| nodes[i] as f64 / times[i].as_secs_f64() / 1e3;
    for (i, name) in ["off", "on"].into_iter().enumerate() {
        f.add(
            &format!("{id}.measured.bench.{name}.knps"),
            Figure::fixed(knps(i), 0),
        )
        .add(&format!("{id}.measured.bench.{name}.nodes"), nodes[i]);
    }
    f.add(
        &format!("{id}.measured.bench.nps_change_pct"),
        Figure::fixed(100.0 * (knps(1) / knps(0) - 1.0), 1),
    )
    .add(&format!("{id}.measured.clock"), clock_name())
    .add(&format!("{id}.measured.load_after"), load_average());
    f
}

/// A milestone's pinned figures for its one switch: the six positions at [`DEPTH`] at the
/// switch's own stage, off and on (nodes, scores, best moves), bench's node count with the
/// default engine's switch off and on (`engine(false)`, `engine(true)`), and the stage.
pub fn add_switch_figures(
    f: &mut Figures,
    id: &str,
    switch: &'static str,
    engine: fn(bool) -> Switches,
) {
    let comparison = OnOff::measure(switch, DEPTH);
    comparison.add_nodes(f, id);
    comparison.add_moves(f, id);
    let stage = Stage::of_switch(switch).expect("a registered switch");
    f.add(&format!("{id}.depth"), DEPTH)
        .add(
            &format!("{id}.bench.on.nodes"),
            crate::bench_nodes(engine(true)),
        )
        .add(
            &format!("{id}.bench.off.nodes"),
            crate::bench_nodes(engine(false)),
        )
        .add(&format!("{id}.stage"), stage.to_string());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn change_and_ratio_round_half_away_from_zero() {
        assert_eq!(change_pct(69, 100).to_string(), "-31.0");
        assert_eq!(change_pct(1, 3).to_string(), "-66.7");
        assert_eq!(change_pct(3, 2).to_string(), "50.0");
        assert_eq!(change_pct(100, 100).to_string(), "0.0");
        assert_eq!(ratio(7, 2).to_string(), "3.5");
        assert_eq!(ratio(2, 3).to_string(), "0.7");
    }

    #[test]
    fn iteration_nodes_are_differences_of_cumulative_counts() {
        let run = Run {
            id: "x",
            stats: SearchStats::default(),
            table: TtCounters::default(),
            iterations: [(1, 10), (2, 35), (3, 100)]
                .map(|(depth, cumulative_nodes)| Iteration {
                    depth,
                    cumulative_nodes,
                    best_move: "e2e4".into(),
                    score: "cp 0".into(),
                    progress: Progress::default(),
                })
                .to_vec(),
        };
        assert_eq!(run.iteration_nodes(1), 10);
        assert_eq!(run.iteration_nodes(3), 65);
    }
}
