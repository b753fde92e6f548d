//! The bench signature of an engine, the machine a match ran on, and how loaded it was.
//!
//! `<engine> bench` searches a fixed set of positions to a fixed depth and prints the node count:
//! the count changes exactly when the search changes, so it identifies the build that played a match
//! (OpenBench reads it the same way). Engines print it in different forms; the arena accepts
//! OpenBench's `N nodes N nps` (cb2026, Berserk, ...), Ethereal's `Nodes : N` and Stockfish's
//! `Nodes searched : N` (on standard error), taking the last such line.

use crate::process;
use crate::spec::EngineSpec;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Runs `<cmd> <args> bench` with no input and returns the node count it prints, or `None` if the
/// engine does not support `bench`, prints no count, or takes longer than `timeout` (GNU Chess, for
/// one, waits for input forever; it is killed).
pub fn signature(spec: &EngineSpec, timeout: Duration) -> Option<u64> {
    let mut args = spec.args.clone();
    args.push("bench".to_string());
    let finished = process::run_to_exit(&spec.cmd, &args, None, Some(timeout)).ok()?;
    bench_nodes(&format!("{}\n{}", finished.stdout, finished.stderr))
}

/// The node count of the last bench summary line in `output` (see the module documentation).
/// UCI `info` lines are skipped: their `... cp 25 nodes 63569 ...` is not a summary.
pub fn bench_nodes(output: &str) -> Option<u64> {
    output
        .lines()
        .rev()
        .filter(|line| !line.trim_start().starts_with("info"))
        .find_map(|line| {
            let words: Vec<&str> = line
                .split(|c: char| c.is_whitespace() || c == ':')
                .filter(|w| !w.is_empty())
                .collect();
            let number_before_nodes = words
                .windows(2)
                .find(|w| w[1].eq_ignore_ascii_case("nodes"))
                .and_then(|w| w[0].parse().ok());
            let nodes_first = match words.as_slice() {
                [first, rest @ ..] if first.eq_ignore_ascii_case("nodes") => {
                    let rest = rest.strip_prefix(&["searched"]).unwrap_or(rest);
                    rest.first().and_then(|n| n.parse().ok())
                }
                _ => None,
            };
            number_before_nodes.or(nodes_first)
        })
}

/// The machine, for the record: logical cores and the CPU model from `/proc/cpuinfo`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Machine {
    pub cores: usize,
    pub cpu: String,
}

impl Machine {
    pub fn this() -> Self {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let cpu = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|text| {
                text.lines()
                    .find(|l| l.starts_with("model name"))
                    .and_then(|l| l.split_once(':'))
                    .map(|(_, model)| model.trim().to_string())
            })
            .unwrap_or_else(|| "unknown".to_string());
        Machine { cores, cpu }
    }
}

/// The machine's load while a match ran: the one-minute load average of `/proc/loadavg`, read
/// when the games start and then every [`LOAD_SAMPLE_EVERY`] until they end. Games at a time
/// control are only comparable on a machine that was not busy with something else: a load well
/// above the match's concurrency means the engines shared their cores, and the record says so.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LoadRecord {
    pub start: f64,
    pub end: f64,
    pub mean: f64,
    pub max: f64,
    pub samples: usize,
}

/// How often [`LoadSampler`] reads the load average.
pub const LOAD_SAMPLE_EVERY: Duration = Duration::from_secs(10);

/// The one-minute load average, if the system has `/proc/loadavg`.
pub fn load_average() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Reads the load average in a thread of its own until [`LoadSampler::finish`].
#[derive(Debug)]
pub struct LoadSampler {
    stop: std::sync::mpsc::Sender<()>,
    thread: std::thread::JoinHandle<Vec<f64>>,
}

impl LoadSampler {
    pub fn start() -> LoadSampler {
        let (stop, stopped) = std::sync::mpsc::channel::<()>();
        let thread = std::thread::spawn(move || {
            let mut samples: Vec<f64> = load_average().into_iter().collect();
            while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                stopped.recv_timeout(LOAD_SAMPLE_EVERY)
            {
                samples.extend(load_average());
            }
            samples.extend(load_average());
            samples
        });
        LoadSampler { stop, thread }
    }

    /// The samples summarised, or `None` where the load cannot be read.
    pub fn finish(self) -> Option<LoadRecord> {
        let _ = self.stop.send(());
        let samples = self.thread.join().unwrap_or_default();
        summarise_load(&samples)
    }
}

/// First, last, mean (two decimals) and largest of the samples.
fn summarise_load(samples: &[f64]) -> Option<LoadRecord> {
    let (&start, &end) = (samples.first()?, samples.last()?);
    let mean = samples.iter().sum::<f64>() / samples.len() as f64;
    Some(LoadRecord {
        start,
        end,
        mean: (mean * 100.0).round() / 100.0,
        max: samples.iter().copied().fold(f64::MIN, f64::max),
        samples: samples.len(),
    })
}

/// Now, in UTC, as `YYYY-MM-DDTHH:MM:SSZ` (RFC 3339).
pub fn utc_now() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// Today, in UTC, as `YYYY-MM-DD`: the date part of [`utc_now`].
pub fn utc_today() -> String {
    utc_now()[..10].to_string()
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant, "chrono-compatible
/// low-level date algorithms", `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_lines_of_known_engines() {
        // OpenBench's form, as cb2026 and the test engine print it.
        assert_eq!(
            bench_nodes("pos 1\n1114877 nodes 812345 nps\n"),
            Some(1_114_877)
        );
        // Ethereal 12.
        assert_eq!(
            bench_nodes("Time  : 6820ms\nNodes : 5132900\nNPS   : 752624\n"),
            Some(5_132_900)
        );
        // Stockfish 15.1 (standard error, after its searches' info lines).
        let stockfish = "info depth 13 score cp 30 nodes 85471 nps 332571\nbestmove d2d4\n\
                         Total time (ms) : 6582\nNodes searched  : 3467381\nNodes/second    : 526797\n";
        assert_eq!(bench_nodes(stockfish), Some(3_467_381));
        // No summary, or only search info: no signature.
        assert_eq!(
            bench_nodes("Usage: glaurung bench <hash> <threads>\n"),
            None
        );
        assert_eq!(bench_nodes("info depth 1 score cp 25 nodes 20\n"), None);
    }

    #[test]
    fn load_is_summarised_from_its_samples() {
        let load = summarise_load(&[1.0, 3.5, 2.0]).unwrap();
        assert_eq!(
            (load.start, load.end, load.max, load.samples),
            (1.0, 2.0, 3.5, 3)
        );
        assert_eq!(load.mean, 2.17);
        assert_eq!(summarise_load(&[]), None);
        if std::path::Path::new("/proc/loadavg").exists() {
            assert!(load_average().is_some_and(|l| l >= 0.0));
        }
    }

    #[test]
    fn dates_from_day_counts() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(20_513), (2026, 3, 1));
        assert_eq!(utc_now().len(), "2026-01-01T00:00:00Z".len());
    }
}
