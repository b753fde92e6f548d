//! bench: the engine's signature (the design's "bench" section).
//!
//! Fifty positions (`data/suites/bench-50.csv`, the set Ethereal, Carp and Viridithas use) are
//! searched to a fixed depth, one thread, with a 16 MB table. Before each position the table is
//! emptied, its generation reset and the histories and killers cleared, so a position's count
//! depends on nothing but the position, the depth and the switches: not on the order, the
//! machine, or what ran before in the process. The total changes exactly when the search
//! changes, which is how a patch that claims to change nothing is checked, and the last line,
//! `N nodes N nps`, is the form OpenBench reads.

use crate::epd;
use crate::position::Position;
use crate::search::{Limits, SearchStats, Searcher};
use crate::switches::Switches;
use std::io::{self, Write};
use std::sync::Arc;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The bench positions as the file has them: one quoted FEN per line, a comma after it.
const BENCH_CSV: &str = include_str!("../../../data/suites/bench-50.csv");

/// The depth `bench` searches when none is given: a release build takes a few seconds.
pub const DEFAULT_DEPTH: u32 = 8;

/// The table size bench uses, in megabytes.
pub const HASH_MB: usize = 16;

/// Three of the fifty, by index in `data/suites/bench-50.csv` (an opening, a middlegame, an
/// endgame), with a depth for each: the searches the benchmarks time whole
/// (`benches/search.rs`, `benches/eval.rs` and `cargo xtask perf eval`).
pub const TIMED_SEARCHES: [(&str, usize, u32); 3] =
    [("opening", 46, 9), ("middlegame", 6, 8), ("endgame", 4, 12)];

/// The FENs of the bench positions, in file order.
pub fn positions() -> Vec<&'static str> {
    BENCH_CSV
        .lines()
        .map(|line| line.trim().trim_end_matches(',').trim_matches('"').trim())
        .filter(|fen| !fen.is_empty())
        .collect()
}

/// The six positions of chapters 10 to 14 and M5, each with why it was chosen.
const SIX_EPD: &str = include_str!("../../../data/positions/six.epd");

/// One of the six positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SixPosition {
    /// A short name (`opening`, `singular`, ...).
    pub id: &'static str,
    pub fen: &'static str,
    /// Why it is one of the six.
    pub why: &'static str,
}

/// The six positions, in file order. Each line of `data/positions/six.epd` is an EPD line
/// ([`crate::epd`]): a FEN, then `id "...";` and `c0 "...";`. Read once; the texts live as long
/// as the program, so a position is `Copy`.
pub fn six_positions() -> Vec<SixPosition> {
    static SIX: OnceLock<Vec<SixPosition>> = OnceLock::new();
    SIX.get_or_init(|| {
        epd::parse(SIX_EPD)
            .expect("six.epd is valid EPD")
            .into_iter()
            .map(|line| {
                let text = |opcode: &str| -> &'static str {
                    line.operands(opcode)
                        .first()
                        .cloned()
                        .unwrap_or_default()
                        .leak()
                };
                SixPosition {
                    id: text("id"),
                    why: text("c0"),
                    fen: line.fen.clone().leak(),
                }
            })
            .collect()
    })
    .clone()
}

/// The result of a bench run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Nodes searched per position, in the order searched.
    pub nodes_per_position: Vec<u64>,
    /// All nodes.
    pub nodes: u64,
    /// Wall time of the searches.
    pub elapsed: Duration,
    /// The searches' counters added up (M9 counts the singular test's outcomes with them).
    pub stats: SearchStats,
}

impl BenchResult {
    /// Nodes per second (of wall time).
    pub fn nps(&self) -> u64 {
        let micros = self.elapsed.as_micros().max(1);
        (u128::from(self.nodes) * 1_000_000 / micros) as u64
    }
}

/// Runs bench over the 50 positions at `depth` with `switches`, writing a line per position and
/// the `N nodes N nps` line to `out`.
pub fn run(depth: u32, switches: Switches, out: &mut dyn Write) -> io::Result<BenchResult> {
    run_positions(&positions(), depth, switches, out)
}

/// [`run`] for the console, where `stop` may interrupt it: the line of each position, then the
/// result, for the caller to print its [`total_line`]; or, once `stop` is set, `None` after the
/// lines of the positions searched to the end. The search reads the flag anyway (every 1,024
/// nodes), so the counts are [`run`]'s. (The console prints the total itself, together with
/// marking the job done, so that whoever reads it and sends the next command finds the engine
/// idle.)
pub fn run_until(
    depth: u32,
    switches: Switches,
    out: &mut dyn Write,
    stop: &Arc<AtomicBool>,
) -> io::Result<Option<BenchResult>> {
    let fens = positions();
    let result = search_positions(&fens, depth, switches, out, stop)?;
    Ok((result.nodes_per_position.len() == fens.len()).then_some(result))
}

/// Bench over any list of FENs (for the tests of order independence). A FEN that does not
/// parse is reported on its line and counts 0 nodes.
pub fn run_positions(
    fens: &[&str],
    depth: u32,
    switches: Switches,
    out: &mut dyn Write,
) -> io::Result<BenchResult> {
    let never = Arc::new(AtomicBool::new(false));
    let result = search_positions(fens, depth, switches, out, &never)?;
    writeln!(out, "{}", total_line(&result))?;
    Ok(result)
}

/// The `N nodes N nps` line OpenBench reads, without its newline.
pub fn total_line(result: &BenchResult) -> String {
    format!("{} nodes {} nps", result.nodes, result.nps())
}

/// Searches `fens` in order, a line per position, until they are done or `stop` is set: then
/// the result holds the positions searched to the end, and the one cut short is not printed.
fn search_positions(
    fens: &[&str],
    depth: u32,
    switches: Switches,
    out: &mut dyn Write,
    stop: &Arc<AtomicBool>,
) -> io::Result<BenchResult> {
    let mut searcher = Searcher::new(HASH_MB);
    searcher.set_switches(switches);
    let mut nodes_per_position = Vec::with_capacity(fens.len());
    let mut stats = SearchStats::default();
    let mut elapsed = Duration::ZERO;
    for (i, fen) in fens.iter().enumerate() {
        let pos = match Position::from_fen(fen) {
            Ok(pos) => pos,
            Err(error) => {
                writeln!(out, "position {:>2}: bad FEN ({error}): {fen}", i + 1)?;
                nodes_per_position.push(0);
                continue;
            }
        };
        searcher.clear();
        let start = Instant::now();
        let outcome = searcher.search(&pos, &Limits::depth(depth), stop, &mut |_| {});
        elapsed += start.elapsed();
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let best = outcome
            .best_move
            .map_or("(none)".to_string(), |m| m.to_string());
        writeln!(
            out,
            "position {:>2}: {:>10} nodes  bestmove {best:<6} score {}  {fen}",
            i + 1,
            outcome.stats.nodes,
            outcome.score
        )?;
        nodes_per_position.push(outcome.stats.nodes);
        stats.add(&outcome.stats);
    }
    Ok(BenchResult {
        nodes: nodes_per_position.iter().sum(),
        nodes_per_position,
        elapsed,
        stats,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fifty_positions_that_parse() {
        let fens = positions();
        assert_eq!(fens.len(), 50);
        for fen in fens {
            assert!(Position::from_fen(fen).is_ok(), "{fen}");
        }
    }

    #[test]
    fn six_positions_parse_with_ids_and_reasons() {
        let six = six_positions();
        assert_eq!(six.len(), 6);
        for p in &six {
            assert!(Position::from_fen(p.fen).is_ok(), "{}", p.fen);
            assert!(!p.id.is_empty() && p.why.len() > 20, "{p:?}");
        }
        assert_eq!(six[3].id, "singular");
    }

    #[test]
    fn last_line_is_what_openbench_reads() {
        let mut out = Vec::new();
        let fens = &positions()[..2];
        let result = run_positions(fens, 2, Switches::default(), &mut out).expect("in memory");
        let text = String::from_utf8(out).expect("utf-8");
        let last = text.lines().last().expect("a last line");
        assert_eq!(last, format!("{} nodes {} nps", result.nodes, result.nps()));
        assert_eq!(text.lines().count(), 3);
    }

    #[test]
    fn a_stopped_bench_prints_no_total() {
        let stop = Arc::new(AtomicBool::new(true));
        let mut out = Vec::new();
        let result = run_until(3, Switches::default(), &mut out, &stop).expect("in memory");
        assert_eq!(result, None);
        assert!(!String::from_utf8_lossy(&out).contains(" nps"));
    }
}
