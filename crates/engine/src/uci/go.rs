//! Reading `go`: its parameters, the clock of the side to move, and the search's limits.
//!
//! A GUI that sends `go` waits for `bestmove`, so `go` is read leniently, the way Stockfish reads
//! it: an unknown word is skipped with a warning, `movestogo 0` means no `movestogo`, a count of
//! 0 asks for the least the search can do, a negative time counts as zero and a number too large
//! for its type as the largest. Only a value that is not a number at all (or is missing) makes
//! the `go` unreadable; the session then answers it with `bestmove 0000` rather than guess.

use super::shorten;
use crate::search::{Limits, MAX_DEPTH};
use crate::square::Color;
use crate::time::{self, Budget, Clock};
use std::time::{Duration, Instant};

/// The parameters of `go`, as UCI names them. Times are in milliseconds on the wire.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    pub wtime: Option<Duration>,
    pub btime: Option<Duration>,
    pub winc: Option<Duration>,
    pub binc: Option<Duration>,
    /// Moves until the clock is refilled; `movestogo 0` is read as absent (sudden death).
    pub movestogo: Option<u32>,
    /// The last iteration, from 1 to [`MAX_DEPTH`] (`depth 0` is read as 1).
    pub depth: Option<u32>,
    /// Stop after this many nodes. `nodes 0` asks for the least search that still gives a
    /// searched move: one iteration of depth 1, whatever its nodes (a search stopped at its first
    /// node would play the move generator's first move, `e1e2` in some openings).
    pub nodes: Option<u64>,
    /// Look for a mate in this many moves: the search stops when it finds one. `mate 0` is
    /// read as absent: there is no mate in zero moves to find.
    pub mate: Option<u32>,
    pub movetime: Option<Duration>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Think on the opponent's time: the position is the one after the move the engine expects
    /// the opponent to play; `ponderhit` says it was played, `stop` that it was not.
    pub ponder: bool,
}

/// The words `go` knows. An unknown word, and the words after it up to the next of these, are
/// skipped together: they are most likely a parameter and its value.
const GO_KEYWORDS: [&str; 12] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "ponder",
    "searchmoves",
];

/// Whether `word` is one of [`GO_KEYWORDS`].
fn is_keyword(word: &str) -> bool {
    GO_KEYWORDS.contains(&word)
}

impl Go {
    // ANCHOR: go_parse
    /// Reads the arguments of `go`: the parameters and the warnings to show for what was
    /// skipped, or why the `go` cannot be read (a value that is missing or not a number).
    pub fn parse(args: &[&str]) -> Result<(Go, Vec<String>), String> {
        let mut go = Go::default();
        let mut warnings = Vec::new();
        let mut seen: Vec<&str> = Vec::new();
        let mut words = args.iter().copied().peekable();
        while let Some(word) = words.next() {
            if !is_keyword(word) {
                while words.next_if(|w| !is_keyword(w)).is_some() {}
                warnings.push(format!("go: unknown parameter '{}' ignored", shorten(word)));
                continue;
            }
            if seen.contains(&word) {
                warnings.push(format!("go: {word} given twice; the last one counts"));
            }
            seen.push(word);
            match word {
                "infinite" => go.infinite = true,
                "ponder" => go.ponder = true,
                // The search has no root move filter: say so rather than pretend.
                "searchmoves" => {
                    while words.next_if(|w| !is_keyword(w)).is_some() {}
                    warnings.push("go: searchmoves is not supported; searching every move".into());
                }
                _ => {
                    let value = words
                        .next()
                        .ok_or_else(|| format!("go: {word} needs a value"))?;
                    go.set(word, value)?;
                }
            }
        }
        Ok((go, warnings))
    }
    // ANCHOR_END: go_parse

    /// Sets the parameter `name`, which takes a value, to `value`.
    fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "wtime" => self.wtime = Some(parse_millis(name, value)?),
            "btime" => self.btime = Some(parse_millis(name, value)?),
            "winc" => self.winc = Some(parse_millis(name, value)?),
            "binc" => self.binc = Some(parse_millis(name, value)?),
            "movetime" => self.movetime = Some(parse_millis(name, value)?),
            "movestogo" => self.movestogo = nonzero(parse_count(name, value)?),
            "depth" => {
                self.depth = Some(parse_count(name, value)?.clamp(1, u64::from(MAX_DEPTH)) as u32)
            }
            "mate" => self.mate = nonzero(parse_count(name, value)?),
            _ => self.nodes = Some(parse_count(name, value)?),
        }
        Ok(())
    }

    /// The clock of the side to move, if `go` gave a clock. When it gave only the opponent's,
    /// ours counts as zero (Stockfish reads it so too): thinking without limit while our clock
    /// runs would lose the game, and a GUI that forgets our time can spare little of it.
    pub fn clock(&self, side: Color) -> Option<Clock> {
        let (ours, theirs, increment) = match side {
            Color::White => (self.wtime, self.btime, self.winc),
            Color::Black => (self.btime, self.wtime, self.binc),
        };
        let remaining = ours.or(theirs.map(|_| Duration::ZERO))?;
        Some(Clock {
            remaining,
            increment: increment.unwrap_or_default(),
            moves_to_go: self.movestogo,
        })
    }

    /// The name of the side to move's time if `go` gave only the opponent's (see [`Go::clock`]).
    pub fn missing_clock(&self, side: Color) -> Option<&'static str> {
        match side {
            Color::White => (self.wtime.is_none() && self.btime.is_some()).then_some("wtime"),
            Color::Black => (self.btime.is_none() && self.wtime.is_some()).then_some("btime"),
        }
    }

    /// The time limits of this `go`: the tighter of the clock's and `movetime`'s, or none.
    pub fn budget(&self, side: Color, overhead: Duration) -> Option<Budget> {
        let from_clock = self.clock(side).map(|c| time::clock_budget(&c, overhead));
        let from_movetime = self.movetime.map(|t| time::movetime_budget(t, overhead));
        match (from_clock, from_movetime) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

/// `Some(n)` unless `n` is 0: for the parameters whose 0 means "not given".
fn nonzero(n: u64) -> Option<u32> {
    (n > 0).then(|| n.min(u64::from(u32::MAX)) as u32)
}

// ANCHOR: lenient_number
/// A whole number in decimal, with an optional sign: negative numbers read as 0 and numbers
/// past `u64::MAX` as `u64::MAX`, so only text that is no number at all is refused.
fn lenient_number(text: &str) -> Option<u64> {
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if negative {
        return Some(0);
    }
    Some(digits.parse().unwrap_or(u64::MAX))
}
// ANCHOR_END: lenient_number

/// A time in milliseconds (see [`lenient_number`]).
fn parse_millis(name: &str, text: &str) -> Result<Duration, String> {
    lenient_number(text)
        .map(Duration::from_millis)
        .ok_or_else(|| {
            format!(
                "go: {name} '{}' is not a whole number of milliseconds",
                shorten(text)
            )
        })
}

/// A count (see [`lenient_number`]).
fn parse_count(name: &str, text: &str) -> Result<u64, String> {
    lenient_number(text)
        .ok_or_else(|| format!("go: {name} '{}' is not a whole number", shorten(text)))
}

// ANCHOR: search_limits
/// The search's limits for `go` with the time `budget`, the clock having started at `start`.
/// `ponder` and `infinite` searches wait for `stop`; a ponder search gets its time limits only
/// when `ponderhit` restarts it. `nodes 0` is the first iteration, whole.
pub(super) fn search_limits(go: &Go, budget: Option<Budget>, start: Instant) -> Limits {
    let infinite = go.infinite || go.ponder;
    let budget = budget.filter(|_| !infinite);
    let least = go.nodes == Some(0);
    Limits {
        depth: if least { Some(1) } else { go.depth },
        nodes: go.nodes.filter(|_| !least),
        soft_deadline: budget.and_then(|b| start.checked_add(b.soft)),
        hard_deadline: budget.and_then(|b| start.checked_add(b.hard)),
        infinite,
    }
}
// ANCHOR_END: search_limits

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<(Go, Vec<String>), String> {
        Go::parse(&text.split_whitespace().collect::<Vec<_>>())
    }

    #[test]
    fn go_parses_every_parameter() {
        let words = "wtime 1000 btime -5 winc 10 binc 20 movestogo 7 depth 9 nodes 500 mate 3 \
                     movetime 250 infinite ponder";
        let (go, warnings) = parse(words).expect("valid");
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(go.wtime, Some(Duration::from_millis(1000)));
        assert_eq!(go.btime, Some(Duration::ZERO));
        assert_eq!(
            (go.winc, go.binc),
            (
                Some(Duration::from_millis(10)),
                Some(Duration::from_millis(20))
            )
        );
        assert_eq!(
            (go.movestogo, go.depth, go.nodes, go.mate),
            (Some(7), Some(9), Some(500), Some(3))
        );
        assert_eq!(go.movetime, Some(Duration::from_millis(250)));
        assert!(go.infinite && go.ponder);
        let clock = go.clock(Color::Black).expect("a clock");
        assert_eq!(
            (clock.remaining, clock.increment, clock.moves_to_go),
            (Duration::ZERO, Duration::from_millis(20), Some(7))
        );
    }

    #[test]
    fn unknown_words_are_skipped_with_their_values_and_a_warning() {
        let (go, warnings) = parse("fish 12 13 depth 4 searchmoves e2e4 d2d4 nodes 9").expect("ok");
        assert_eq!((go.depth, go.nodes), (Some(4), Some(9)));
        assert_eq!(
            warnings,
            vec![
                "go: unknown parameter 'fish' ignored".to_string(),
                "go: searchmoves is not supported; searching every move".to_string(),
            ]
        );
        let (go, warnings) = parse("depth 3 depth 5").expect("ok");
        assert_eq!(go.depth, Some(5));
        assert_eq!(warnings, vec!["go: depth given twice; the last one counts"]);
    }

    #[test]
    fn zeros_negatives_and_huge_numbers_are_read_not_refused() {
        let (go, _) = parse("movestogo 0 depth 0 nodes 0 mate 0 wtime -20 winc -1").expect("ok");
        let limits = search_limits(&go, None, Instant::now());
        assert_eq!(
            (limits.depth, limits.nodes),
            (Some(1), None),
            "nodes 0 is one whole iteration"
        );
        assert_eq!((go.movestogo, go.mate), (None, None), "0 means absent");
        assert_eq!(
            (go.depth, go.nodes),
            (Some(1), Some(0)),
            "0 means the least"
        );
        assert_eq!(
            (go.wtime, go.winc),
            (Some(Duration::ZERO), Some(Duration::ZERO))
        );
        let (go, _) =
            parse("depth 99999999999999999999999 movetime +99999999999999999999999").expect("ok");
        assert_eq!(go.depth, Some(MAX_DEPTH));
        assert_eq!(go.movetime, Some(Duration::from_millis(u64::MAX)));
        let budget = go.budget(Color::White, Duration::from_millis(50));
        let limits = search_limits(&go, budget, Instant::now());
        let far = Instant::now() + Duration::from_secs(3600);
        assert!(
            limits.hard_deadline.is_none_or(|t| t > far),
            "a deadline far away, or none where the clock cannot count so far"
        );
    }

    #[test]
    fn only_missing_and_non_numeric_values_make_go_unreadable() {
        for (words, error) in [
            ("depth x", "go: depth 'x' is not a whole number"),
            ("wtime", "go: wtime needs a value"),
            (
                "wtime - btime 5",
                "go: wtime '-' is not a whole number of milliseconds",
            ),
            ("nodes 1e6", "go: nodes '1e6' is not a whole number"),
            (
                "movetime 10ms",
                "go: movetime '10ms' is not a whole number of milliseconds",
            ),
        ] {
            assert_eq!(parse(words), Err(error.to_string()), "{words}");
        }
    }

    #[test]
    fn a_clock_given_only_for_the_opponent_counts_ours_as_zero() {
        let (go, _) = parse("btime 1000 binc 100").expect("ok");
        assert_eq!(go.missing_clock(Color::White), Some("wtime"));
        assert_eq!(go.missing_clock(Color::Black), None);
        let clock = go.clock(Color::White).expect("a clock");
        assert_eq!(
            (clock.remaining, clock.increment),
            (Duration::ZERO, Duration::ZERO)
        );
        assert_eq!(parse("").expect("ok").0.clock(Color::White), None);
    }
}
