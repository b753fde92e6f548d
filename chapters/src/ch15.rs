//! Chapter 15, time management: the two limits `time.rs` sets for one move, computed by its
//! pure functions for a few clocks, and what they do over a game and to a search. Nothing is
//! timed, so every figure is exact:
//!
//! - the limits for single clocks, and over a whole simulated game at 2+0.02 and 8+0.08, each
//!   move spending its soft limit, its target or its hard limit (pinned, cheap);
//! - sweeps of the two constants of the target, the moves assumed to remain and the share of
//!   the increment, on the same simulated game (pinned, cheap);
//! - the six positions searched at stage 15 with a node limit, and the two limits (switch
//!   `timeman` on) or the one fixed share (off) applied to their iterations at a stated speed
//!   in nodes per millisecond: which iteration each completes, when it stops, and how much of
//!   the time went into an iteration that was abandoned (`cargo xtask measure ch15`, rechecked).

use crate::six;
use crate::{Chapter, Figure, Figures};
use cb2026::bench::six_positions;
use cb2026::position::Position;
use cb2026::search::Limits;
use cb2026::time::{self, Budget, Clock};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Chapter 15 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "ch15",
    title: "Time management",
    bin: "ch15-time",
    figures,
    measured: Some(measured),
    deep: Some(measured),
    print_tables,
};

/// One clock the page discusses: a key, a description, and what `go` would say.
struct Case {
    key: &'static str,
    what: &'static str,
    remaining_ms: u64,
    increment_ms: u64,
    moves_to_go: Option<u32>,
}

/// The clocks of the page, with the default `Move Overhead`.
const CASES: [Case; 8] = [
    Case {
        key: "tc60.start",
        what: "60+0.6, first move",
        remaining_ms: 60_000,
        increment_ms: 600,
        moves_to_go: None,
    },
    Case {
        key: "tc60.left10s",
        what: "60+0.6, 10 s left",
        remaining_ms: 10_000,
        increment_ms: 600,
        moves_to_go: None,
    },
    Case {
        key: "tc60.left2s",
        what: "60+0.6, 2 s left",
        remaining_ms: 2_000,
        increment_ms: 600,
        moves_to_go: None,
    },
    Case {
        key: "tc60.left500ms",
        what: "60+0.6, 0.5 s left",
        remaining_ms: 500,
        increment_ms: 600,
        moves_to_go: None,
    },
    Case {
        key: "tc8.start",
        what: "8+0.08, first move",
        remaining_ms: 8_000,
        increment_ms: 80,
        moves_to_go: None,
    },
    Case {
        key: "tc40in10.start",
        what: "40 moves in 10 min, first move",
        remaining_ms: 600_000,
        increment_ms: 0,
        moves_to_go: Some(40),
    },
    Case {
        key: "tc40in10.last",
        what: "40 moves in 10 min, 40th move, 10 s left",
        remaining_ms: 10_000,
        increment_ms: 0,
        moves_to_go: Some(1),
    },
    Case {
        key: "tc40in10.second_last",
        what: "40 moves in 10 min, 39th move, 10 s left",
        remaining_ms: 10_000,
        increment_ms: 0,
        moves_to_go: Some(2),
    },
];

/// A duration in milliseconds to one decimal (rounded to the nearest tenth).
pub fn ms(d: Duration) -> Figure {
    let tenths = (d.as_micros() + 50) / 100;
    Figure::Fixed {
        units: i64::try_from(tenths).expect("a move's time fits"),
        places: 1,
    }
}

fn budget(case: &Case) -> Budget {
    let clock = Clock {
        remaining: Duration::from_millis(case.remaining_ms),
        increment: Duration::from_millis(case.increment_ms),
        moves_to_go: case.moves_to_go,
    };
    time::clock_budget(&clock, time::default_overhead())
}

// ---------------------------------------------------------------------------------------------
// A game on the clock.

/// A sudden-death control: a starting clock and an increment.
#[derive(Clone, Copy, Debug)]
pub struct Control {
    /// The key part: `tc2`, `tc8`.
    pub key: &'static str,
    pub what: &'static str,
    pub start_ms: u64,
    pub increment_ms: u64,
}

/// The matches' control (chapter 16) and one four times as long.
pub const CONTROLS: [Control; 2] = [
    Control {
        key: "tc2",
        what: "2+0.02",
        start_ms: 2_000,
        increment_ms: 20,
    },
    Control {
        key: "tc8",
        what: "8+0.08",
        start_ms: 8_000,
        increment_ms: 80,
    },
];

/// The moves of a game at which the page shows the clock.
const SHOWN_MOVES: [usize; 6] = [1, 10, 20, 40, 60, 80];

/// How long the simulated game lasts, in moves of one side: long enough for the clock to settle.
const GAME_MOVES: usize = 200;

/// How much of its budget each simulated move spends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spend {
    /// Every move stops at its soft limit (no iteration runs past it).
    Soft,
    /// Every move takes its target: the fixed share, what the switch off always spends.
    Target,
    /// Every move runs to its hard limit: the worst the two limits allow.
    Hard,
}

impl Spend {
    fn key(self) -> &'static str {
        match self {
            Spend::Soft => "soft",
            Spend::Target => "target",
            Spend::Hard => "hard",
        }
    }

    fn of(self, budget: Budget) -> Duration {
        match self {
            Spend::Soft => budget.soft,
            Spend::Target => time::fixed_share(budget).hard,
            Spend::Hard => budget.hard,
        }
    }
}

/// The constants of the target, so that a sweep can change one of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Constants {
    /// [`time::SUDDEN_DEATH_MOVES`].
    pub moves: u32,
    /// [`time::INCREMENT_QUARTERS`].
    pub quarters: u32,
}

impl Constants {
    /// The engine's.
    pub const DEFAULT: Constants = Constants {
        moves: time::SUDDEN_DEATH_MOVES,
        quarters: time::INCREMENT_QUARTERS,
    };
}

/// [`time::clock_budget`] in sudden death with other constants: the same steps, written out
/// again for the sweeps (a test checks that with the default constants it is the engine's).
pub fn sudden_death_budget(clock: &Clock, overhead: Duration, c: Constants) -> Budget {
    let usable = clock.remaining.saturating_sub(overhead);
    let target = usable / c.moves + clock.increment * c.quarters / 4;
    let hard = (target * time::HARD_FACTOR).min(usable / 2);
    Budget {
        soft: (target / 2).min(hard),
        hard,
    }
}

/// One move of a simulated game: the clock before it and its budget.
#[derive(Clone, Copy, Debug)]
pub struct GameMove {
    pub remaining: Duration,
    pub budget: Budget,
}

/// The first [`GAME_MOVES`] moves of one side at `control`, each spending what `spend` says of
/// its budget and nothing more (no delay is charged: the overhead is the margin for that).
pub fn game(control: Control, spend: Spend, c: Constants) -> Vec<GameMove> {
    let increment = Duration::from_millis(control.increment_ms);
    let mut remaining = Duration::from_millis(control.start_ms);
    let mut moves = Vec::with_capacity(GAME_MOVES);
    for _ in 0..GAME_MOVES {
        let clock = Clock {
            remaining,
            increment,
            moves_to_go: None,
        };
        let budget = sudden_death_budget(&clock, time::default_overhead(), c);
        moves.push(GameMove { remaining, budget });
        remaining = remaining.saturating_sub(spend.of(budget)) + increment;
    }
    moves
}

/// Where the clock settles when every move takes its target: the target is then the
/// increment, so `usable / moves = (1 − quarters / 4) · increment`.
pub fn reserve(control: Control, c: Constants) -> Duration {
    let increment = Duration::from_millis(control.increment_ms);
    time::default_overhead() + increment * c.moves * (4 - c.quarters) / 4
}

/// One constant's sweep: its name in the keys, the constants with each value, and the value.
type Sweep = (&'static str, Vec<Constants>, fn(Constants) -> u32);

/// The values each constant is swept over.
const MOVES_SWEPT: [u32; 3] = [20, 30, 40];
const QUARTERS_SWEPT: [u32; 3] = [2, 3, 4];

fn add_game_figures(f: &mut Figures) {
    for control in CONTROLS {
        let prefix = format!("ch15.game.{}", control.key);
        let target = game(control, Spend::Target, Constants::DEFAULT);
        for n in SHOWN_MOVES {
            let m = target[n - 1];
            let key = |rest: &str| format!("{prefix}.m{n}.{rest}");
            f.add(&key("remaining_ms"), ms(m.remaining))
                .add(&key("soft_ms"), ms(m.budget.soft))
                .add(&key("target_ms"), ms(time::fixed_share(m.budget).hard))
                .add(&key("hard_ms"), ms(m.budget.hard));
        }
        f.add(
            &format!("{prefix}.reserve_ms"),
            ms(reserve(control, Constants::DEFAULT)),
        );
        for spend in [Spend::Soft, Spend::Hard] {
            let moves = game(control, spend, Constants::DEFAULT);
            let key = |rest: &str| format!("{prefix}.{}.{rest}", spend.key());
            f.add(&key("m40.remaining_ms"), ms(moves[39].remaining))
                .add(
                    &key("last.remaining_ms"),
                    ms(moves[GAME_MOVES - 1].remaining),
                )
                .add(
                    &key("last.spent_ms"),
                    ms(spend.of(moves[GAME_MOVES - 1].budget)),
                );
        }
        f.add(
            &format!("{prefix}.target.last.remaining_ms"),
            ms(target[GAME_MOVES - 1].remaining),
        );
    }
    f.add("ch15.game.moves", GAME_MOVES);
    let tc2 = CONTROLS[0];
    let sweeps: [Sweep; 2] = [
        (
            "moves",
            MOVES_SWEPT
                .iter()
                .map(|&moves| Constants {
                    moves,
                    ..Constants::DEFAULT
                })
                .collect(),
            |c| c.moves,
        ),
        (
            "quarters",
            QUARTERS_SWEPT
                .iter()
                .map(|&quarters| Constants {
                    quarters,
                    ..Constants::DEFAULT
                })
                .collect(),
            |c| c.quarters,
        ),
    ];
    for (name, values, value) in sweeps {
        for c in values {
            let moves = game(tc2, Spend::Target, c);
            let key = |rest: &str| format!("ch15.sweep.{name}.v{}.{rest}", value(c));
            for n in [1, 20, 40] {
                let share = time::fixed_share(moves[n - 1].budget).hard;
                f.add(&key(&format!("m{n}.target_ms")), ms(share));
            }
            f.add(&key("m40.remaining_ms"), ms(moves[39].remaining))
                .add(&key("reserve_ms"), ms(reserve(tc2, c)));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The limits against a search.

/// The speed at which the model turns nodes into time: a round number near what `bench`
/// measures on one idle core of the test machine (chapter 16), stated, not measured, so that
/// every figure of the model is exact.
pub const NODES_PER_MS: u64 = 1_000;

/// One completed iteration: its depth, the nodes of it and every earlier one, its best move.
#[derive(Clone, Debug)]
pub struct Ended {
    pub depth: u32,
    pub cumulative_nodes: u64,
    pub best_move: String,
}

/// The iterations of one of the six positions, searched at stage 15 from an empty table until
/// `node_limit` nodes: every iteration the model can need completes before that.
pub fn iterations(fen: &str, node_limit: u64) -> Vec<Ended> {
    let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut searcher = six::searcher(six::at_own_stage("timeman", true));
    searcher.clear();
    let stop = Arc::new(AtomicBool::new(false));
    let mut ended = Vec::new();
    let limits = Limits::nodes(node_limit);
    searcher.search(&pos, &limits, &stop, &mut |info| {
        ended.push(Ended {
            depth: info.depth,
            cumulative_nodes: info.nodes,
            best_move: info
                .pv
                .first()
                .map_or("(none)".to_string(), |m| m.to_string()),
        });
    });
    ended
}

/// What a search with `budget` would do with these iterations at [`NODES_PER_MS`]: the rule of
/// `Searcher::search` (no iteration after the first starts past the soft limit; the hard limit
/// abandons the iteration in progress), applied to the iterations' node counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The last completed iteration.
    pub depth: u32,
    pub best_move: String,
    /// When the search stops, from `go`.
    pub used: Duration,
    /// The time spent on an iteration that was abandoned (zero if none was).
    pub wasted: Duration,
    /// Whether the hard limit stopped it (else it stopped because an iteration ended past the
    /// soft limit).
    pub cut: bool,
    /// Whether the last completed iteration changed the best move of the one before.
    pub changed_last: bool,
}

fn at_speed(nodes: u64) -> Duration {
    Duration::from_micros(nodes * 1_000 / NODES_PER_MS)
}

/// The model of one search (see [`Played`]); `ended` must reach past `budget.hard`.
pub fn play(ended: &[Ended], budget: Budget) -> Played {
    let mut last: Option<&Ended> = None;
    for (i, it) in ended.iter().enumerate() {
        let finish = at_speed(it.cumulative_nodes);
        if finish > budget.hard {
            break;
        }
        last = Some(it);
        if finish >= budget.soft {
            let changed_last = i > 0 && ended[i - 1].best_move != it.best_move;
            return Played {
                depth: it.depth,
                best_move: it.best_move.clone(),
                used: finish,
                wasted: Duration::ZERO,
                cut: false,
                changed_last,
            };
        }
    }
    let last = last.expect("the first iteration ends within the hard limit");
    let i = ended
        .iter()
        .position(|it| it.depth == last.depth)
        .expect("found");
    Played {
        depth: last.depth,
        best_move: last.best_move.clone(),
        used: budget.hard,
        wasted: budget.hard - at_speed(last.cumulative_nodes),
        cut: true,
        changed_last: i > 0 && ended[i - 1].best_move != last.best_move,
    }
}

/// The budgets the model applies: the first move at 2+0.02 and at 8+0.08, and the fortieth of
/// a game at 2+0.02 whose moves took their targets.
fn model_budgets() -> Vec<(&'static str, Budget)> {
    let first = |control: Control| game(control, Spend::Target, Constants::DEFAULT)[0].budget;
    vec![
        ("tc2", first(CONTROLS[0])),
        ("tc8", first(CONTROLS[1])),
        (
            "tc2m40",
            game(CONTROLS[0], Spend::Target, Constants::DEFAULT)[39].budget,
        ),
    ]
}

/// The position the page draws, with its iterations listed.
pub const WORKED: &str = "singular";

/// Chapter 15's heavy figures: the model on the six positions.
pub fn measured() -> Figures {
    let mut f = Figures::new("ch15");
    f.add("ch15.model.nodes_per_ms", NODES_PER_MS);
    let budgets = model_budgets();
    let longest = budgets.iter().map(|(_, b)| b.hard).max().expect("budgets");
    let node_limit = longest.as_micros() as u64 * NODES_PER_MS / 1_000 + 1;
    let runs: Vec<(&str, Vec<Ended>)> = six_positions()
        .iter()
        .map(|p| (p.id, iterations(p.fen, node_limit)))
        .collect();

    // How the iterations grow: the cumulative count of each iteration over the one before.
    let mut growth: Vec<u64> = Vec::new(); // in hundredths
    for (_, ended) in &runs {
        for pair in ended.windows(2) {
            if pair[0].depth >= 4 {
                growth.push(pair[1].cumulative_nodes * 100 / pair[0].cumulative_nodes);
            }
        }
    }
    growth.sort_unstable();
    // `median_next_pct`: where the iteration after one that ended exactly at the soft limit
    // (half the target) would end at the median growth, as a percentage of the target.
    let hundredths = |h: u64| Figure::Fixed {
        units: i64::try_from(h).expect("fits"),
        places: 2,
    };
    f.add("ch15.growth.count", growth.len())
        .add("ch15.growth.min", hundredths(growth[0]))
        .add("ch15.growth.median", hundredths(growth[growth.len() / 2]))
        .add("ch15.growth.max", hundredths(growth[growth.len() - 1]))
        .add(
            "ch15.growth.median_next_pct",
            Figure::Fixed {
                units: i64::try_from(growth[growth.len() / 2] * 5).expect("fits"),
                places: 1,
            },
        )
        .add(
            "ch15.growth.below2",
            growth.iter().filter(|&&g| g < 200).count(),
        )
        .add(
            "ch15.growth.above6",
            growth.iter().filter(|&&g| g > 600).count(),
        );

    for (key, budget) in &budgets {
        let share = time::fixed_share(*budget);
        let variants = [("on", *budget), ("off", share)];
        let mut all_depths: Vec<Vec<(u32, String)>> = Vec::new();
        for (state, b) in variants {
            let mut used = Duration::ZERO;
            let mut wasted = Duration::ZERO;
            let mut cut = 0;
            let mut depths = Vec::new();
            for (id, ended) in &runs {
                let p = play(ended, b);
                let k = |rest: &str| format!("ch15.model.{key}.{id}.{state}.{rest}");
                f.add(&k("depth"), p.depth)
                    .add(&k("best"), p.best_move.as_str())
                    .add(&k("used_ms"), ms(p.used))
                    .add(&k("wasted_ms"), ms(p.wasted));
                used += p.used;
                wasted += p.wasted;
                cut += usize::from(p.cut);
                depths.push((p.depth, p.best_move));
            }
            all_depths.push(depths);
            let k = |rest: &str| format!("ch15.model.{key}.six.{state}.{rest}");
            f.add(&k("used_ms"), ms(used))
                .add(&k("wasted_ms"), ms(wasted))
                .add(&k("cut"), cut)
                .add(
                    &k("used_pct"),
                    Figure::percent(
                        used.as_micros() as u64,
                        (share.hard * 6).as_micros() as u64,
                        1,
                    ),
                );
        }
        let (on, off) = (&all_depths[0], &all_depths[1]);
        let count = |keep: fn(&(u32, String), &(u32, String)) -> bool| {
            on.iter()
                .zip(off.iter())
                .filter(|(a, b)| keep(a, b))
                .count()
        };
        f.add(
            &format!("ch15.model.{key}.six.on_deeper"),
            count(|a, b| a.0 > b.0),
        )
        .add(
            &format!("ch15.model.{key}.six.off_deeper"),
            count(|a, b| a.0 < b.0),
        )
        .add(
            &format!("ch15.model.{key}.six.best_differs"),
            count(|a, b| a.1 != b.1),
        );
        f.add(&format!("ch15.model.{key}.soft_ms"), ms(budget.soft))
            .add(&format!("ch15.model.{key}.target_ms"), ms(share.hard))
            .add(&format!("ch15.model.{key}.hard_ms"), ms(budget.hard));
    }

    // The latest any search with the two limits stopped, as a share of its target: how much
    // of the room between the target and the hard limit the six positions used.
    let latest = budgets
        .iter()
        .flat_map(|(_, budget)| {
            let target = time::fixed_share(*budget).hard;
            runs.iter().map(move |(_, ended)| {
                let used = play(ended, *budget).used;
                (used.as_micros() as u64, target.as_micros() as u64)
            })
        })
        .max_by(|a, b| {
            (u128::from(a.0) * u128::from(b.1)).cmp(&(u128::from(b.0) * u128::from(a.1)))
        })
        .expect("searches");
    f.add(
        "ch15.model.latest_pct",
        Figure::percent(latest.0, latest.1, 1),
    );

    // The worked position's iterations.
    let (_, worked) = runs
        .iter()
        .find(|(id, _)| *id == WORKED)
        .expect("a six position");
    // Since which depth the move the two limits play at 2+0.02 had been the best move.
    let played = play(worked, budgets[0].1);
    let stable_since = worked
        .iter()
        .take_while(|it| it.depth <= played.depth)
        .filter(|it| {
            worked
                .iter()
                .filter(|later| later.depth >= it.depth && later.depth <= played.depth)
                .all(|later| later.best_move == played.best_move)
        })
        .map(|it| it.depth)
        .min()
        .expect("the played move is the last iteration's");
    f.add("ch15.worked.tc2.stable_since", stable_since);
    for it in worked {
        let k = |rest: &str| format!("ch15.worked.d{}.{rest}", it.depth);
        f.add(&k("nodes"), it.cumulative_nodes)
            .add(&k("ms"), ms(at_speed(it.cumulative_nodes)))
            .add(&k("best"), it.best_move.as_str());
    }
    f
}

// ---------------------------------------------------------------------------------------------

/// Chapter 15's cheap figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("ch15");
    f.add("ch15.overhead_ms", time::DEFAULT_MOVE_OVERHEAD_MS)
        .add("ch15.sudden_death_moves", time::SUDDEN_DEATH_MOVES)
        .add("ch15.hard_factor", time::HARD_FACTOR)
        .add("ch15.increment_quarters", time::INCREMENT_QUARTERS);
    for case in &CASES {
        let b = budget(case);
        f.add(&format!("ch15.{}.soft_ms", case.key), ms(b.soft))
            .add(&format!("ch15.{}.hard_ms", case.key), ms(b.hard));
    }
    let movetime = time::movetime_budget(Duration::from_millis(1_000), time::default_overhead());
    f.add("ch15.movetime1000.soft_ms", ms(movetime.soft))
        .add("ch15.movetime1000.hard_ms", ms(movetime.hard));
    add_game_figures(&mut f);
    f
}

fn print_tables() {
    println!(
        "The limits of one move (Move Overhead {} ms):\n",
        time::DEFAULT_MOVE_OVERHEAD_MS
    );
    println!("{:<42} {:>10} {:>10}", "clock", "soft ms", "hard ms");
    for case in &CASES {
        let b = budget(case);
        println!(
            "{:<42} {:>10} {:>10}",
            case.what,
            ms(b.soft).to_string(),
            ms(b.hard).to_string()
        );
    }
    for control in CONTROLS {
        println!(
            "\nA game at {}, every move taking its target:\n",
            control.what
        );
        println!(
            "{:>5} {:>10} {:>10} {:>10} {:>10}",
            "move", "clock ms", "soft ms", "target ms", "hard ms"
        );
        for (i, m) in game(control, Spend::Target, Constants::DEFAULT)
            .iter()
            .enumerate()
        {
            let n = i + 1;
            if n <= 10 || n % 10 == 0 {
                println!(
                    "{n:>5} {:>10} {:>10} {:>10} {:>10}",
                    ms(m.remaining).to_string(),
                    ms(m.budget.soft).to_string(),
                    ms(time::fixed_share(m.budget).hard).to_string(),
                    ms(m.budget.hard).to_string()
                );
            }
        }
    }
    println!();
    print!("{}", figures().to_yaml());
    println!("\nThe model ({NODES_PER_MS} nodes per ms) on the six positions at stage 15:\n");
    let budgets = model_budgets();
    let node_limit = budgets
        .iter()
        .map(|(_, b)| b.hard.as_micros() as u64 * NODES_PER_MS / 1_000 + 1)
        .max()
        .expect("budgets");
    for p in six_positions() {
        let ended = iterations(p.fen, node_limit);
        println!("{}:", p.id);
        for it in &ended {
            println!(
                "  depth {:>2} ends at {:>9} ms ({:>9} nodes) best {}",
                it.depth,
                ms(at_speed(it.cumulative_nodes)).to_string(),
                it.cumulative_nodes,
                it.best_move
            );
        }
        for (key, budget) in &budgets {
            let on = play(&ended, *budget);
            let off = play(&ended, time::fixed_share(*budget));
            println!("  {key}: on {on:?}\n  {key}: off {off:?}");
        }
    }
    println!();
    print!("{}", measured().to_yaml());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn milliseconds_keep_one_decimal() {
        assert_eq!(ms(Duration::from_micros(1_224_166)).to_string(), "1224.2");
        assert_eq!(ms(Duration::from_millis(950)).to_string(), "950.0");
    }

    #[test]
    fn the_sweeps_budget_is_the_engines_with_the_default_constants() {
        for increment in [0, 20, 80, 600, 5_000] {
            for remaining in (0..100_000).step_by(379) {
                let clock = Clock {
                    remaining: Duration::from_millis(remaining),
                    increment: Duration::from_millis(increment),
                    moves_to_go: None,
                };
                let overhead = time::default_overhead();
                assert_eq!(
                    sudden_death_budget(&clock, overhead, Constants::DEFAULT),
                    time::clock_budget(&clock, overhead),
                    "{clock:?}"
                );
            }
        }
    }

    #[test]
    fn a_game_of_targets_settles_at_the_reserve() {
        for control in CONTROLS {
            let moves = game(control, Spend::Target, Constants::DEFAULT);
            let last = moves[GAME_MOVES - 1].remaining;
            let reserve = reserve(control, Constants::DEFAULT);
            assert!(last >= reserve && last - reserve < Duration::from_millis(10));
        }
    }

    fn ended(cumulative: &[u64]) -> Vec<Ended> {
        cumulative
            .iter()
            .enumerate()
            .map(|(i, &n)| Ended {
                depth: i as u32 + 1,
                cumulative_nodes: n,
                best_move: if i < 2 { "e2e4" } else { "d2d4" }.to_string(),
            })
            .collect()
    }

    #[test]
    fn the_model_stops_after_the_iteration_that_ends_past_the_soft_limit() {
        // At 1,000 nodes a ms: iterations end at 10, 30, 70, 150 ms.
        let it = ended(&[10_000, 30_000, 70_000, 150_000, 400_000]);
        let ms = Duration::from_millis;
        let on = play(
            &it,
            Budget {
                soft: ms(50),
                hard: ms(300),
            },
        );
        assert_eq!((on.depth, on.used, on.cut), (3, ms(70), false));
        assert!(on.changed_last);
        let off = play(
            &it,
            Budget {
                soft: ms(100),
                hard: ms(100),
            },
        );
        assert_eq!(
            (off.depth, off.used, off.wasted, off.cut),
            (3, ms(100), ms(30), true)
        );
    }
}
