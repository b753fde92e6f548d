//! Time management (chapter 15): how long to think about one move.
//!
//! The GUI's `go` tells the engine its clock (`wtime`/`btime`), the increment it gets after each
//! move (`winc`/`binc`) and, in a repeating control such as 40 moves in 10 minutes, how many
//! moves are left until the clock is refilled (`movestogo`). From these the engine picks two
//! limits, the pair most engines use with iterative deepening (CPW "Time Management"):
//!
//! - the **soft** limit: past it, no new iteration is started. An iteration costs a large part
//!   of what all the ones before it cost together (chapter 15 measures how much), so one started
//!   late would end far past the time the move was meant to take;
//! - the **hard** limit: past it, the search is abandoned mid-iteration and the last completed
//!   iteration's move is played. It only catches the iteration that explodes (a fail low, a
//!   tactical storm), and it never exceeds a safe share of the clock.
//!
//! Everything here is a pure function of the numbers `go` sent and the `Move Overhead` option,
//! so it is tested without a clock.

use std::time::{Duration, Instant};

/// The default of the UCI option `Move Overhead`, in milliseconds: clock time the engine never
/// plans to use, because it is lost between the GUI's clock and the engine's (the pipe, the
/// scheduler, the GUI itself). Stockfish's default is 10 ms, tuned for idle machines; on the
/// shared two-core machines cb2026 is tested on, a process can wait tens of milliseconds for a
/// core, and 10 ms lost games on time. (Measured there with a dozen processes running: a `go`
/// whose hard limit was 25 ms answered within 47 ms in 99 cases of 100, 52 ms at worst.) 50 ms
/// is also what `cargo xtask match` sets.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 50;

/// The largest `Move Overhead` the option accepts (five seconds covers a slow network).
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5000;

/// In sudden death (no `movestogo`), how many more moves the game is assumed to last. CPW
/// "Time Management": programs typically assume 25 to 40; an increment is counted separately.
pub const SUDDEN_DEATH_MOVES: u32 = 30;

/// A `movestogo` larger than this is treated as this: the division should not make a move's
/// share vanish because a GUI sent an absurd count.
pub const MAX_MOVES_TO_GO: u32 = 50;

/// The share of the increment a move may spend on top of its share of the clock, in quarters:
/// most of it, keeping a little to build a reserve.
pub const INCREMENT_QUARTERS: u32 = 3;

/// The hard limit as a multiple of the target time: room for one iteration that runs long.
pub const HARD_FACTOR: u32 = 3;

/// What `go` said about the side to move's clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock (`wtime` or `btime`).
    pub remaining: Duration,
    /// Time added after each move (`winc` or `binc`).
    pub increment: Duration,
    /// Moves until the clock is refilled (`movestogo`); `None` in sudden death.
    pub moves_to_go: Option<u32>,
}

/// The two limits of one move, measured from the moment `go` was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Start no new iteration past this.
    pub soft: Duration,
    /// Abandon the search past this.
    pub hard: Duration,
}

impl Budget {
    /// The tighter of two budgets (a `go` may give both a clock and a `movetime`).
    pub fn min(self, other: Budget) -> Budget {
        Budget {
            soft: self.soft.min(other.soft),
            hard: self.hard.min(other.hard),
        }
    }
}

// ANCHOR: clock_budget
/// The limits for one move under a clock, with `overhead` (the `Move Overhead` option) kept
/// back.
///
/// 1. `usable` = remaining − overhead: what can be spent even if this move's answer is delayed
///    by a full overhead. The overhead is kept back once, not once for every move to come: it
///    guards against one late answer, while the delay of a typical move is far smaller.
/// 2. `target` = usable / moves + ¾ · increment, where `moves` is `movestogo` (at most
///    [`MAX_MOVES_TO_GO`]) or, in sudden death, [`SUDDEN_DEATH_MOVES`]: the time a move should
///    take on average. Dividing what is left by the moves left each time makes the shares
///    shrink with the clock, so the clock never runs out, only down.
/// 3. soft = target / 2: once an iteration ends past half the target, the next one would end
///    near or past the target (each iteration costs a large part of all the earlier ones
///    together), so none is started. A move therefore ends somewhere past half its target, and
///    may run on to the hard limit only while one iteration explodes.
/// 4. hard = [`HARD_FACTOR`] · target.
/// 5. Neither limit exceeds a share of `usable`: half of it while other moves must still be
///    played on this clock, four fifths when this is the last move before the clock is refilled
///    (`movestogo 1`). This is what keeps a move with a large increment and a small clock safe:
///    the increment only arrives after the move.
pub fn clock_budget(clock: &Clock, overhead: Duration) -> Budget {
    let usable = clock.remaining.saturating_sub(overhead);
    let moves = match clock.moves_to_go {
        Some(moves) => moves.clamp(1, MAX_MOVES_TO_GO),
        None => SUDDEN_DEATH_MOVES,
    };
    let target = usable / moves + clock.increment * INCREMENT_QUARTERS / 4;
    let cap = if moves == 1 {
        usable * 4 / 5
    } else {
        usable / 2
    };
    let hard = (target * HARD_FACTOR).min(cap);
    Budget {
        soft: (target / 2).min(hard),
        hard,
    }
}
// ANCHOR_END: clock_budget

// ANCHOR: fixed_share
/// The allocation with chapter 15's switch `timeman` off: one limit instead of two. The search
/// runs iterations until the move's fixed share of the clock is spent, then abandons the one in
/// progress and plays the last completed iteration's move. The share is the `target` of
/// [`clock_budget`] (under the same cap), recovered from its budget as the smaller of twice the
/// soft limit and the hard limit; for `movetime`, whose two limits are one, it is that limit.
///
/// It never loses on time where the two limits do not: its one limit is never later than the
/// hard one. What it loses is the soft limit's judgement: it starts an iteration it cannot
/// finish (the time spent on it is thrown away), and it cannot let an iteration that is
/// almost done run past the target.
pub fn fixed_share(budget: Budget) -> Budget {
    let share = budget.soft.saturating_mul(2).min(budget.hard);
    Budget {
        soft: share,
        hard: share,
    }
}
// ANCHOR_END: fixed_share

// ANCHOR: movetime_budget
/// The limits for `go movetime N`: think for N ms, less the overhead, so that the move arrives
/// within N ms of `go` as the GUI measures it; but at least half of N, since a GUI that sets a
/// time per move rarely enforces it to the millisecond. Both limits are the same: with a fixed
/// time there is nothing to save, so the last iteration may use whatever is left.
pub fn movetime_budget(movetime: Duration, overhead: Duration) -> Budget {
    let think = movetime.saturating_sub(overhead).max(movetime / 2);
    Budget {
        soft: think,
        hard: think,
    }
}
// ANCHOR_END: movetime_budget

// ANCHOR: soft_scale
/// What the iterations so far say about the move being chosen (M4): the input of
/// [`target_scale_pct`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// How many iterations in a row ended with the best move of the one before (0 when the
    /// last iteration changed it).
    pub stable_iterations: u32,
    /// How many centipawns the score fell since the previous iteration (negative if it rose;
    /// 0 after the first).
    pub score_drop: i32,
    /// The share of the last iteration's root nodes spent below its best move, in percent.
    pub best_move_node_pct: u32,
}

/// Which of M4's three measures of [`Progress`] are heeded (its switches `stability`,
/// `scoredrop` and `nodeshare`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Heed {
    pub stability: bool,
    pub score_drop: bool,
    pub node_share: bool,
}

/// The soft limit scales by stability: a best move that has just changed gets 40 % more
/// time, one that survived four iterations 20 % less (index: stable iterations, at most 4).
pub const STABILITY_PCT: [u32; 5] = [140, 120, 100, 90, 80];

/// A score that fell gets up to this much more time, in percent...
pub const SCORE_DROP_MAX_PCT: u32 = 50;
/// ...reached at a fall of this many centipawns (half a percent a centipawn).
pub const SCORE_DROP_FULL_CP: i32 = 100;

/// The scaled limit never falls below this share of the target, nor rises beyond this (and
/// never past the hard limit): in percent. The floor is a little below chapter 15's soft limit
/// (half the target), so a clear move can end sooner than it did there.
pub const TARGET_SCALE_RANGE_PCT: (u32, u32) = (40, 250);

/// How much of its target time a move may use before it starts no new iteration, after the
/// iterations so far, in percent: three factors multiplied (the form of Ethereal's and
/// Stockfish's time managers; CPW "Time Management"; the numbers are ours). It replaces chapter
/// 15's fixed half of the target: M4's first version scaled that half instead, and a move
/// that looked clear, most of them, ended sooner than before; the engine used a fifth less of
/// its clock and lost.
///
/// - **Stability**: a best move that keeps changing means the search has not made up its mind,
///   and another iteration is worth its cost; one that survived several iterations will most
///   likely survive the next, and the time is better saved for later moves.
/// - **Score drop**: a score that fell since the last iteration means trouble found late, and
///   the next iteration may find the way out.
/// - **Node share**: when the best move's subtree took nearly all of an iteration's nodes, every
///   other move was refuted quickly and the choice is clear; when it took few, the others were
///   hard to refute and the choice is close. The factor is 150 % less the share.
pub fn target_scale_pct(progress: &Progress, heed: Heed) -> u32 {
    let stability = if heed.stability {
        STABILITY_PCT[progress.stable_iterations.min(4) as usize]
    } else {
        100
    };
    let drop = if heed.score_drop {
        let fall = progress.score_drop.clamp(0, SCORE_DROP_FULL_CP) as u32;
        100 + fall * SCORE_DROP_MAX_PCT / SCORE_DROP_FULL_CP as u32
    } else {
        100
    };
    let share = if heed.node_share {
        150 - progress.best_move_node_pct.min(100)
    } else {
        100
    };
    let (low, high) = TARGET_SCALE_RANGE_PCT;
    (stability * drop / 100 * share / 100).clamp(low, high)
}

/// With M4's `timeplus`, the soft limit is this share of what it would be, in percent: the
/// engine with M4's scaling still ended its games with a fifth of its clock or more unused
/// (chapter M4 counts it from the stored games), time that a move could have spent.
pub const TIME_PLUS_PCT: u32 = 150;

/// The soft limit of a search that started at `start` with chapter 15's soft deadline `soft`:
/// `pct` percent of the target, which is twice chapter 15's soft limit ([`clock_budget`]), never
/// past `hard`.
pub fn scaled_soft_deadline(
    start: Instant,
    soft: Instant,
    hard: Option<Instant>,
    pct: u32,
) -> Instant {
    let target = soft.saturating_duration_since(start) * 2;
    let scaled = start + target * pct / 100;
    hard.map_or(scaled, |hard| scaled.min(hard))
}

// ANCHOR_END: soft_scale

/// The default `Move Overhead` as a duration.
pub fn default_overhead() -> Duration {
    Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn sudden_death(remaining: u64, increment: u64) -> Clock {
        Clock {
            remaining: ms(remaining),
            increment: ms(increment),
            moves_to_go: None,
        }
    }

    #[test]
    fn sudden_death_divides_the_clock_by_thirty_moves() {
        // usable 60 050 - 50 = 60 000; target 60 000 / 30 = 2 000 ms.
        let budget = clock_budget(&sudden_death(60_050, 0), ms(50));
        assert_eq!(
            budget,
            Budget {
                soft: ms(1_000),
                hard: ms(6_000)
            }
        );
    }

    #[test]
    fn the_increment_counts_three_quarters() {
        let without = clock_budget(&sudden_death(10_000, 0), ms(0));
        let with = clock_budget(&sudden_death(10_000, 1_000), ms(0));
        assert_eq!(with.soft - without.soft, ms(375));
        assert_eq!(with.hard - without.hard, ms(2_250));
    }

    #[test]
    fn a_large_increment_never_spends_more_than_half_the_clock() {
        // The increment arrives after the move: with 100 ms left, 50 ms of it usable, a move
        // may take 25 ms however large the increment.
        let budget = clock_budget(&sudden_death(100, 5_000), ms(50));
        assert_eq!(
            budget,
            Budget {
                soft: ms(25),
                hard: ms(25)
            }
        );
    }

    #[test]
    fn the_soft_scale_follows_stability_drops_and_the_node_share() {
        let all = Heed {
            stability: true,
            score_drop: true,
            node_share: true,
        };
        let calm = Progress {
            stable_iterations: 6,
            score_drop: -30,
            best_move_node_pct: 90,
        };
        // 80 % for stability, 100 % for a rising score, 60 % for a 90 % share: 48 %.
        assert_eq!(target_scale_pct(&calm, all), 48);
        let calmer = Progress {
            best_move_node_pct: 100,
            ..calm
        };
        assert_eq!(
            target_scale_pct(&calmer, all),
            40,
            "the least the three allow: 80 % × 50 %"
        );
        let troubled = Progress {
            stable_iterations: 0,
            score_drop: 60,
            best_move_node_pct: 20,
        };
        // 140 % × 130 % × 130 % = 236 %.
        assert_eq!(target_scale_pct(&troubled, all), 236);
        let worse = Progress {
            score_drop: 400,
            best_move_node_pct: 0,
            ..troubled
        };
        assert_eq!(target_scale_pct(&worse, all), 250, "the ceiling");
        // Each measure alone, and none: the soft limit as chapter 15 set it.
        assert_eq!(target_scale_pct(&troubled, Heed::default()), 100);
        let only = |heed: Heed| target_scale_pct(&troubled, heed);
        assert_eq!(
            only(Heed {
                stability: true,
                ..Heed::default()
            }),
            140
        );
        assert_eq!(
            only(Heed {
                score_drop: true,
                ..Heed::default()
            }),
            130
        );
        assert_eq!(
            only(Heed {
                node_share: true,
                ..Heed::default()
            }),
            130
        );
    }

    #[test]
    fn the_scaled_soft_deadline_never_passes_the_hard_one() {
        // Chapter 15's soft limit is half the target: here the target is 2 000 ms.
        let start = Instant::now();
        let soft = start + ms(1_000);
        let hard = start + ms(6_000);
        let deadline = |hard, pct| scaled_soft_deadline(start, soft, hard, pct);
        assert_eq!(deadline(Some(hard), 40), start + ms(800));
        assert_eq!(deadline(Some(hard), 236), start + ms(4_720));
        let tight = start + ms(3_000);
        assert_eq!(deadline(Some(tight), 236), tight);
        assert_eq!(deadline(None, 250), start + ms(5_000));
    }

    #[test]
    fn no_usable_time_means_no_thinking() {
        let budget = clock_budget(&sudden_death(30, 10), ms(50));
        assert_eq!(
            budget,
            Budget {
                soft: Duration::ZERO,
                hard: Duration::ZERO
            }
        );
    }

    #[test]
    fn repeating_controls_divide_by_the_moves_to_go() {
        let clock = Clock {
            remaining: ms(40_050),
            increment: Duration::ZERO,
            moves_to_go: Some(20),
        };
        // usable 40 000, target 2 000: soft 1 000, hard 6 000.
        assert_eq!(
            clock_budget(&clock, ms(50)),
            Budget {
                soft: ms(1_000),
                hard: ms(6_000)
            }
        );
        let absurd = Clock {
            moves_to_go: Some(1_000),
            ..clock
        };
        let fifty = Clock {
            moves_to_go: Some(50),
            ..clock
        };
        assert_eq!(clock_budget(&absurd, ms(50)), clock_budget(&fifty, ms(50)));
    }

    #[test]
    fn the_last_move_before_the_refill_may_use_four_fifths() {
        let clock = Clock {
            remaining: ms(10_050),
            increment: Duration::ZERO,
            moves_to_go: Some(1),
        };
        // target 10 000: hard would be 30 000, capped at 8 000; soft 5 000.
        assert_eq!(
            clock_budget(&clock, ms(50)),
            Budget {
                soft: ms(5_000),
                hard: ms(8_000)
            }
        );
        let two = Clock {
            moves_to_go: Some(2),
            ..clock
        };
        assert_eq!(clock_budget(&two, ms(50)).hard, ms(5_000));
    }

    #[test]
    fn limits_shrink_with_the_clock_and_soft_never_exceeds_hard() {
        let mut previous = clock_budget(&sudden_death(300_000, 2_000), ms(50));
        for remaining in (0..300_000).rev().step_by(997) {
            let budget = clock_budget(&sudden_death(remaining, 2_000), ms(50));
            assert!(budget.soft <= budget.hard, "{remaining}: {budget:?}");
            assert!(budget.hard <= previous.hard && budget.soft <= previous.soft);
            assert!(budget.hard <= ms(remaining).saturating_sub(ms(50)) / 2 + ms(1));
            previous = budget;
        }
    }

    #[test]
    fn one_second_plus_ten_ms_gets_a_few_tens_of_milliseconds() {
        // The arena's fastest control, 1+0.01 with the default overhead.
        // usable 950 ms; target 950 / 30 + 7.5 = 39.17 ms; soft 19.58 ms, hard 117.5 ms.
        let budget = clock_budget(&sudden_death(1_000, 10), default_overhead());
        assert_eq!(budget.soft.as_micros(), 19_583);
        assert_eq!(budget.hard.as_micros(), 117_499);
    }

    #[test]
    fn movetime_keeps_back_the_overhead_but_at_most_half() {
        assert_eq!(
            movetime_budget(ms(1_000), ms(50)),
            Budget {
                soft: ms(950),
                hard: ms(950)
            }
        );
        assert_eq!(
            movetime_budget(ms(60), ms(50)),
            Budget {
                soft: ms(30),
                hard: ms(30)
            }
        );
        assert_eq!(movetime_budget(ms(0), ms(50)).hard, Duration::ZERO);
    }

    /// The fixed share as chapter 15 defines it from the clock: `target`, capped like the
    /// hard limit (written out again here, apart from `clock_budget`).
    fn share_by_hand(clock: &Clock, overhead: Duration) -> Duration {
        let usable = clock.remaining.saturating_sub(overhead);
        let moves = clock
            .moves_to_go
            .map_or(SUDDEN_DEATH_MOVES, |m| m.clamp(1, MAX_MOVES_TO_GO));
        let target = usable / moves + clock.increment * INCREMENT_QUARTERS / 4;
        let cap = if moves == 1 {
            usable * 4 / 5
        } else {
            usable / 2
        };
        target.min(cap)
    }

    #[test]
    fn the_fixed_share_is_the_target_time() {
        // usable 60 000 ms, target 2 000 ms: one limit at 2 s where the two were 1 s and 6 s.
        let budget = clock_budget(&sudden_death(60_050, 0), ms(50));
        assert_eq!(
            fixed_share(budget),
            Budget {
                soft: ms(2_000),
                hard: ms(2_000)
            }
        );
        // With the increment: 10 000 / 30 + 750 = 1 083.33 ms.
        let budget = clock_budget(&sudden_death(10_050, 1_000), ms(50));
        assert_eq!(fixed_share(budget).hard.as_micros(), 1_083_333);
    }

    #[test]
    fn the_fixed_share_keeps_the_cap() {
        // 100 ms left, 50 usable, a 5 s increment: the target is 3.75 s but the cap is 25 ms.
        let budget = clock_budget(&sudden_death(100, 5_000), ms(50));
        assert_eq!(fixed_share(budget).hard, ms(25));
        // The last move before the refill: target 10 000, capped at four fifths, 8 000.
        let last = Clock {
            remaining: ms(10_050),
            increment: Duration::ZERO,
            moves_to_go: Some(1),
        };
        assert_eq!(fixed_share(clock_budget(&last, ms(50))).hard, ms(8_000));
    }

    #[test]
    fn the_fixed_share_of_a_movetime_is_the_movetime() {
        let budget = movetime_budget(ms(1_000), ms(50));
        assert_eq!(fixed_share(budget), budget);
    }

    #[test]
    fn the_fixed_share_lies_between_the_two_limits_and_is_the_target() {
        for moves_to_go in [None, Some(1), Some(2), Some(40)] {
            for increment in [0, 10, 600, 5_000] {
                for remaining in (0..400_000).step_by(1_733) {
                    let clock = Clock {
                        remaining: ms(remaining),
                        increment: ms(increment),
                        moves_to_go,
                    };
                    let budget = clock_budget(&clock, ms(50));
                    let share = fixed_share(budget);
                    assert_eq!(share.soft, share.hard);
                    assert!(budget.soft <= share.hard && share.hard <= budget.hard);
                    // Twice a halved Duration may lose its last nanosecond.
                    let by_hand = share_by_hand(&clock, ms(50));
                    assert!(
                        by_hand
                            .checked_sub(share.hard)
                            .is_some_and(|lost| lost <= Duration::from_nanos(1)),
                        "{clock:?}: {share:?} against {by_hand:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_tighter_budget_wins() {
        let clock = Budget {
            soft: ms(100),
            hard: ms(900),
        };
        let movetime = Budget {
            soft: ms(300),
            hard: ms(300),
        };
        assert_eq!(
            clock.min(movetime),
            Budget {
                soft: ms(100),
                hard: ms(300)
            }
        );
    }
}
