//! `cargo xtask perft [--full] [--max-nodes N]`: the standard perft suite, every count checked.
//!
//! `data/perft-standard.epd` holds 126 positions with their published counts at several depths
//! (`FEN ;D1 20 ;D2 400 ...`, the community suite collected on the Chess Programming Wiki's
//! "Perft Results" page), read by `cb2026::epd::perft_suite`. Each (position, depth) whose
//! count is at most `--max-nodes` (all of them with `--full`, about 4.8 billion nodes) is
//! counted by `cb2026::perft::perft` and compared with the published count. Any difference is
//! listed and makes the command fail.
//!
//! The engine runs inside this process. The `cb2026` package is built with opt-level 3 even in
//! the dev profile xtask uses (the workspace's Cargo.toml), which is within about 15% of the fat-LTO
//! release binary; running that binary per position instead would pay its start-up (the magic
//! tables are searched for when it starts) once for each of the 759 counts.

use cb2026::epd::{self, PerftEntry};
use cb2026::perft::perft;
use cb2026::position::Position;
use indicatif::{HumanCount, ProgressBar, ProgressStyle};
use std::path::Path;
use std::time::{Duration, Instant};

/// The suite, relative to the repository.
const SUITE: &str = "data/perft-standard.epd";

/// Without `--full`: counts up to ten million nodes, a check of a few seconds.
const DEFAULT_MAX_NODES: u64 = 10_000_000;

/// The command line of `cargo xtask perft`.
#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// Every depth of every position (about 4.8 billion nodes).
    #[arg(long, conflicts_with = "max_nodes")]
    full: bool,
    /// Only the counts of at most N nodes.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_NODES)]
    max_nodes: u64,
}

/// One count to check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    /// Index into the suite's entries.
    pub entry: usize,
    pub depth: u32,
    pub expected: u64,
}

/// A count that came out wrong, or a position that could not be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub line: usize,
    pub fen: String,
    pub depth: u32,
    pub expected: u64,
    /// What perft counted; `Err` when the FEN was refused.
    pub got: Result<u64, String>,
}

/// What a run of the suite did.
#[derive(Debug, Default)]
pub struct Report {
    pub positions: usize,
    pub counts: usize,
    pub nodes: u64,
    pub failures: Vec<Failure>,
}

/// The counts to check: all with `max_nodes = None`, else those of at most `max_nodes` nodes.
pub fn select(entries: &[PerftEntry], max_nodes: Option<u64>) -> Vec<Job> {
    entries
        .iter()
        .enumerate()
        .flat_map(|(entry, suite_entry)| {
            suite_entry
                .counts
                .iter()
                .map(move |&(depth, expected)| Job {
                    entry,
                    depth,
                    expected,
                })
        })
        .filter(|job| max_nodes.is_none_or(|max| job.expected <= max))
        .collect()
}

/// Counts every job, advancing `bar` by each job's nodes; failures are printed above the bar
/// as they happen and returned in the report.
pub fn run_jobs(entries: &[PerftEntry], jobs: &[Job], bar: &ProgressBar) -> Report {
    let mut report = Report::default();
    let mut last_entry = None;
    let mut position = None;
    for job in jobs {
        let entry = &entries[job.entry];
        if last_entry != Some(job.entry) {
            last_entry = Some(job.entry);
            report.positions += 1;
            position = Some(Position::from_fen(&entry.fen).map_err(|e| e.to_string()));
            bar.set_message(format!("line {}", entry.line));
        }
        let got = match position.as_mut().expect("set for the job's entry") {
            Ok(position) => Ok(perft(position, job.depth)),
            Err(message) => Err(message.clone()),
        };
        report.counts += 1;
        if let Ok(nodes) = got {
            report.nodes += nodes;
        }
        if got != Ok(job.expected) {
            let failure = Failure {
                line: entry.line,
                fen: entry.fen.clone(),
                depth: job.depth,
                expected: job.expected,
                got,
            };
            bar.println(format!("FAILED {}", describe(&failure)));
            report.failures.push(failure);
        }
        bar.inc(job.expected);
    }
    report
}

/// A failure on one line: where, what was expected, what came.
fn describe(failure: &Failure) -> String {
    let got = match &failure.got {
        Ok(nodes) => format!("got {nodes}"),
        Err(message) => format!("the FEN is refused: {message}"),
    };
    format!(
        "line {} depth {}: expected {}, {got}  ({})",
        failure.line, failure.depth, failure.expected, failure.fen
    )
}

/// `cargo xtask perft`: runs the suite and prints a summary; fails on any wrong count.
pub fn run(root: &Path, args: &PerftArgs) -> Result<(), String> {
    let path = root.join(SUITE);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let entries = epd::perft_suite(&text).map_err(|error| format!("{SUITE}: {error}"))?;
    let max_nodes = (!args.full).then_some(args.max_nodes);
    let jobs = select(&entries, max_nodes);
    let planned: u64 = jobs.iter().map(|job| job.expected).sum();
    match max_nodes {
        None => println!("{SUITE}: every count, {} nodes", HumanCount(planned)),
        Some(max) => println!(
            "{SUITE}: the counts of at most {} nodes, {} nodes in all (--full for every count)",
            HumanCount(max),
            HumanCount(planned)
        ),
    }

    let bar = ProgressBar::new(planned).with_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{wide_bar}] {percent:>3}% {human_pos}/{human_len} nodes, eta {eta} {msg}",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    let started = Instant::now();
    let report = run_jobs(&entries, &jobs, &bar);
    let elapsed = started.elapsed();
    bar.finish_and_clear();

    print_summary(&report, elapsed);
    if report.failures.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} perft count(s) differ from the suite",
            report.failures.len()
        ))
    }
}

fn print_summary(report: &Report, elapsed: Duration) {
    let seconds = elapsed.as_secs_f64();
    println!(
        "{} positions, {} counts, {} nodes in {seconds:.1} s: {:.1} million nodes/s",
        report.positions,
        report.counts,
        HumanCount(report.nodes),
        report.nodes as f64 / seconds.max(1e-9) / 1e6
    );
    if report.failures.is_empty() {
        println!("every count matches");
    } else {
        println!("{} failure(s):", report.failures.len());
        for failure in &report.failures {
            println!("  {}", describe(failure));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SUITE_TEXT: &str = "\
# two positions
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902

4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66
";

    #[test]
    fn max_nodes_selects_the_small_counts() {
        let entries = epd::perft_suite(SUITE_TEXT).unwrap();
        assert_eq!(select(&entries, None).len(), 5);
        let small = select(&entries, Some(400));
        let picked: Vec<(usize, u32)> = small.iter().map(|j| (j.entry, j.depth)).collect();
        assert_eq!(picked, [(0, 1), (0, 2), (1, 1), (1, 2)]);
    }

    #[test]
    fn right_counts_pass_and_wrong_ones_are_listed() {
        // The last line reads as EPD (four fields, a count) but is no position: the engine
        // refuses it when it is counted, and that is a failure of its own line.
        let text =
            format!("{SUITE_TEXT}4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D2 67\nnot/a/fen w - - ;D1 1\n");
        let entries = epd::perft_suite(&text).unwrap();
        let jobs = select(&entries, None);
        let report = run_jobs(&entries, &jobs, &ProgressBar::hidden());
        assert_eq!(report.positions, 4);
        assert_eq!(report.counts, 7);
        assert_eq!(report.nodes, 20 + 400 + 8902 + 15 + 66 + 66);
        assert_eq!(report.failures.len(), 2);
        assert_eq!(report.failures[0].line, 5);
        assert_eq!(report.failures[0].got, Ok(66));
        assert_eq!(report.failures[0].expected, 67);
        assert_eq!(report.failures[1].line, 6);
        assert!(report.failures[1].got.is_err());
    }
}
