//! Chapter 15, time management: the two limits `time.rs` sets for one move, computed by its
//! pure functions for a few clocks (nothing is timed, so every figure is exact).

use crate::{Chapter, Figure, Figures};
use cb2026::time::{self, Budget, Clock};
use std::time::Duration;

/// Chapter 15 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "ch15",
    title: "Time management",
    bin: "ch15-time",
    figures,
    measured: None,
    deep: None,
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

/// Chapter 15's figures.
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
    println!();
    print!("{}", figures().to_yaml());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn milliseconds_keep_one_decimal() {
        assert_eq!(ms(Duration::from_micros(1_224_166)).to_string(), "1224.2");
        assert_eq!(ms(Duration::from_millis(950)).to_string(), "950.0");
    }
}
