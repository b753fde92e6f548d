//! Match records: what a match was (engines, signatures, time control, openings, machine) and what
//! happened (counts), stored as JSON under `snapshots/games/<name>.json` beside its PGN.
//!
//! A record stores counts, not conclusions. [`record_figures`] recomputes every figure a chapter may
//! quote from the counts, so a number in the book can always be traced to games that were played.

use crate::adjudication::Adjudication;
use crate::bench::{LoadRecord, Machine};
use crate::stats::{self, Pentanomial, SprtParams, Trinomial};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The record format; bumped when a field changes meaning.
pub const FORMAT: u32 = 1;

/// One engine as it played.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EngineRecord {
    pub name: String,
    /// The command, as [`crate::spec::EngineSpec::recorded_cmd`] names it: `cb2026` for this
    /// repository's release build, a system engine's own name (`stockfish`), or a command
    /// relative to the repository; never a path of the machine that played. (Records played
    /// before this rule hold the path they were started from, `target/match/cb2026-<pid>` or
    /// `/usr/games/stockfish`; their bench signature and `id name` still identify the engine.)
    pub cmd: String,
    pub args: Vec<String>,
    /// Every option the arena set, in order (including a move overhead it added).
    pub options: Vec<(String, String)>,
    /// The engine's `id name`.
    pub id_name: Option<String>,
    /// The node count of `<cmd> bench`, or `None` if the engine has none.
    pub bench: Option<u64>,
}

/// Where the openings came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OpeningsRecord {
    pub file: String,
    pub seed: u64,
}

/// Faults of one engine: games it lost by an illegal move, a crash, or on time, and the
/// protocol faults that lose no game (see `uci::ProtocolCounts`; records from before they were
/// counted read 0).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FaultCounts {
    pub illegal: u64,
    pub crash: u64,
    pub time: u64,
    #[serde(default)]
    pub protocol_errors: u64,
    #[serde(default)]
    pub unanswered: u64,
}

impl FaultCounts {
    /// Every fault of every kind.
    pub fn total(&self) -> u64 {
        self.illegal + self.crash + self.time + self.protocol_errors + self.unanswered
    }

    /// Adds `other`'s counts, kind by kind.
    pub fn add(&mut self, other: &FaultCounts) {
        self.illegal += other.illegal;
        self.crash += other.crash;
        self.time += other.time;
        self.protocol_errors += other.protocol_errors;
        self.unanswered += other.unanswered;
    }
}

/// What happened, from the first engine's point of view.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Counts {
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Finished game pairs by the first engine's points: [0, ½, 1, 1½, 2].
    pub pentanomial: [u64; 5],
    /// Games by how they ended (`checkmate`, `time_forfeit`, ...; see `Termination::key`).
    pub terminations: BTreeMap<String, u64>,
    /// Per engine, in the order of `engines`.
    pub faults: [FaultCounts; 2],
}

impl Counts {
    pub fn trinomial(&self) -> Trinomial {
        Trinomial {
            wins: self.wins,
            draws: self.draws,
            losses: self.losses,
        }
    }

    pub fn pentanomial(&self) -> Pentanomial {
        Pentanomial(self.pentanomial)
    }

    /// Checks the counts agree with each other (a hand-edited or truncated record fails here).
    pub fn check(&self) -> Result<(), String> {
        if self.wins + self.draws + self.losses != self.games {
            return Err(format!(
                "wins + draws + losses = {} but games = {}",
                self.wins + self.draws + self.losses,
                self.games
            ));
        }
        let pairs: u64 = self.pentanomial.iter().sum();
        if 2 * pairs > self.games {
            return Err(format!(
                "{pairs} pairs need {} games but only {} were played",
                2 * pairs,
                self.games
            ));
        }
        let ended: u64 = self.terminations.values().sum();
        if ended != self.games {
            return Err(format!(
                "terminations add up to {ended} but games = {}",
                self.games
            ));
        }
        Ok(())
    }
}

/// Derived figures stored for people reading the JSON. Never read back: [`record_figures`]
/// recomputes them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub score_pct: f64,
    pub elo: Option<f64>,
    pub elo_error: Option<f64>,
    pub los_pct: f64,
    pub llr: Option<f64>,
}

/// A whole match record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MatchRecord {
    pub format: u32,
    pub name: String,
    /// When the match started, RFC 3339 UTC.
    pub date: String,
    pub duration_s: f64,
    pub machine: Machine,
    /// The machine's load average while the games ran (absent in records from before it was kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load: Option<LoadRecord>,
    pub engines: [EngineRecord; 2],
    /// `8+0.08`, `nodes=5000` or `depth=8`.
    pub time_control: String,
    pub time_margin_ms: u64,
    pub openings: OpeningsRecord,
    pub concurrency: usize,
    pub adjudication: Adjudication,
    pub sprt: Option<SprtParams>,
    /// Game pairs the match would have played without SPRT or interruption.
    pub pairs_planned: usize,
    /// `completed`, `sprt` or `interrupted`.
    pub stopped_by: String,
    pub counts: Counts,
    /// `H0`, `H1` or `no verdict` (also without SPRT).
    pub verdict: String,
    pub summary: Summary,
    /// The PGN file beside the record.
    pub pgn: String,
    /// The index of the first opening pair no run has played yet: where a resumed match goes on
    /// (absent in records from before matches could be resumed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_pair: Option<usize>,
    /// Each run that played this record's games, in order (one, unless the match was resumed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub runs: Vec<RunRecord>,
}

/// One sitting of a match: a record may add up several, on one machine or several.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    /// When the run started, RFC 3339 UTC.
    pub date: String,
    pub duration_s: f64,
    /// Games this run finished.
    pub games: u64,
    pub concurrency: usize,
    pub machine: Machine,
    pub load: Option<LoadRecord>,
}

impl MatchRecord {
    /// Why `other` cannot add its games to this record, if it cannot: the games must be the same
    /// experiment (engines with the same options, `id name` and bench signature; the same time
    /// control, openings, adjudication and SPRT), and the SPRT must not have decided already.
    /// The engines' commands may differ (each run plays its own copy of a build); the machine
    /// and concurrency may too, and each run says which it had. `other` needs only its header:
    /// engines, time control, margin, openings, adjudication and SPRT.
    pub fn resumable_by(&self, other: &MatchRecord) -> Result<(), String> {
        if self.next_pair.is_none() {
            return Err(format!(
                "{} was recorded before matches could be resumed",
                self.name
            ));
        }
        if self.verdict != "no verdict" {
            return Err(format!(
                "{} has a verdict already: {}",
                self.name, self.verdict
            ));
        }
        for (old, new) in self.engines.iter().zip(&other.engines) {
            let same = old.name == new.name
                && old.args == new.args
                && old.options == new.options
                && old.id_name == new.id_name
                && old.bench == new.bench;
            if !same {
                return Err(format!(
                    "engine {} differs from the record's (options, id name or bench {:?} vs {:?})",
                    new.name, new.bench, old.bench
                ));
            }
        }
        let same_games = self.time_control == other.time_control
            && self.time_margin_ms == other.time_margin_ms
            && self.openings == other.openings
            && self.adjudication == other.adjudication
            && self.sprt == other.sprt;
        if !same_games {
            return Err(format!(
                "{}: time control, margin, openings, adjudication or SPRT differ from the record's",
                self.name
            ));
        }
        Ok(())
    }
}

/// The load of several runs as one: first start, last end, the mean over all samples, the largest.
pub fn combined_load(runs: &[RunRecord]) -> Option<LoadRecord> {
    let loads: Vec<&LoadRecord> = runs.iter().filter_map(|r| r.load.as_ref()).collect();
    let (first, last) = (loads.first()?, loads.last()?);
    let samples: usize = loads.iter().map(|l| l.samples).sum();
    let weighted: f64 = loads.iter().map(|l| l.mean * l.samples as f64).sum();
    Some(LoadRecord {
        start: first.start,
        end: last.end,
        mean: (weighted / samples.max(1) as f64 * 100.0).round() / 100.0,
        max: loads.iter().map(|l| l.max).fold(f64::MIN, f64::max),
        samples,
    })
}

/// The elo estimate a record reports: from pentanomial pairs when there are any (the honest
/// variance), else from W/D/L.
fn headline_elo(counts: &Counts) -> Option<stats::EloEstimate> {
    if counts.pentanomial().pairs() > 0 {
        stats::elo_pentanomial(&counts.pentanomial())
    } else {
        stats::elo_trinomial(&counts.trinomial())
    }
}

/// The LLR a record reports: pentanomial (what the arena stops on), trinomial if no pair finished.
pub fn llr(sprt: &SprtParams, counts: &Counts) -> f64 {
    if counts.pentanomial().pairs() > 0 {
        sprt.llr_pentanomial(&counts.pentanomial())
    } else {
        sprt.llr_trinomial(&counts.trinomial())
    }
}

/// The verdict of the record's SPRT on its counts ("no verdict" without SPRT).
pub fn verdict(sprt: Option<&SprtParams>, counts: &Counts) -> stats::Verdict {
    sprt.map_or(stats::Verdict::Continue, |s| s.verdict(llr(s, counts)))
}

impl Summary {
    pub fn of(counts: &Counts, sprt: Option<&SprtParams>) -> Self {
        let elo = headline_elo(counts);
        Summary {
            score_pct: score_pct(counts),
            elo: elo.map(|e| e.elo),
            elo_error: elo.map(|e| e.error),
            los_pct: 100.0 * stats::los(counts.wins, counts.losses),
            llr: sprt.map(|s| llr(s, counts)),
        }
    }
}

fn score_pct(counts: &Counts) -> f64 {
    if counts.games == 0 {
        return 0.0;
    }
    100.0 * (counts.wins as f64 + 0.5 * counts.draws as f64) / counts.games as f64
}

impl MatchRecord {
    /// Reads a record and checks its counts.
    pub fn load(path: &Path) -> Result<Self, RecordError> {
        let err = |message: String| RecordError {
            path: path.display().to_string(),
            message,
        };
        let text = std::fs::read_to_string(path).map_err(|e| err(e.to_string()))?;
        let record: MatchRecord =
            serde_json::from_str(&text).map_err(|e| err(format!("not a match record: {e}")))?;
        if record.format != FORMAT {
            return Err(err(format!(
                "record format {} (this arena reads {FORMAT})",
                record.format
            )));
        }
        record.counts.check().map_err(err)?;
        Ok(record)
    }

    /// Writes the record as pretty JSON (stable field order: the struct's), ending in a newline.
    pub fn save(&self, path: &Path) -> Result<(), RecordError> {
        let err = |message: String| RecordError {
            path: path.display().to_string(),
            message,
        };
        let mut text = serde_json::to_string_pretty(self).map_err(|e| err(e.to_string()))?;
        text.push('\n');
        std::fs::write(path, text).map_err(|e| err(e.to_string()))
    }
}

/// A record that cannot be read or does not add up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordError {
    pub path: String,
    pub message: String,
}

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl std::error::Error for RecordError {}

/// Fixed-decimal rounding for figures: Rust's `{:.N}` (correctly rounded from the binary value),
/// with a negative zero written as zero.
fn fixed(value: f64, decimals: usize) -> String {
    let text = format!("{value:.decimals$}");
    if text.starts_with('-') && text[1..].chars().all(|c| c == '0' || c == '.') {
        text[1..].to_string()
    } else {
        text
    }
}

/// The figures a chapter may quote from the match record at `path`, recomputed from its counts.
///
/// Keys are `games.<stem>.<figure>`, `<stem>` being the file name without `.json`. "First engine"
/// is `engines[0]`, the candidate; W/D/L are its results.
///
/// | key | value | rounding |
/// |---|---|---|
/// | `games`, `wins`, `draws`, `losses` | counts | integer |
/// | `pairs` | finished game pairs | integer |
/// | `penta_ll`, `penta_ld`, `penta_dd`, `penta_wd`, `penta_ww` | pentanomial counts (`penta_dd` counts DD and WL pairs) | integer |
/// | `score_pct` | (W + D/2) / games, % | 1 decimal |
/// | `draw_pct` | D / games, % | 1 decimal |
/// | `elo`, `elo_error` | logistic Elo ± 95% (pentanomial if any pair finished, else W/D/L) | 1 decimal |
/// | `elo_model` | `pentanomial` or `trinomial`: which one `elo` used | text |
/// | `elo_trinomial`, `elo_trinomial_error` | the same from W/D/L alone | 1 decimal |
/// | `nelo` | normalized Elo (same model as `elo`), absent if the variance is 0 | 1 decimal |
/// | `los` | likelihood of superiority, % | 1 decimal |
/// | `verdict` | `H0`, `H1` or `no verdict` | text |
/// | `llr`, `llr_lower`, `llr_upper` | GSPRT LLR and its bounds (only with SPRT) | 2 decimals |
/// | `elo0`, `elo1`, `alpha`, `beta` | SPRT parameters as stored (only with SPRT) | as stored |
/// | `tc` | time control (`8+0.08`, `nodes=5000`) | text |
/// | `concurrency` | games at once | integer |
/// | `duration_min` | wall time of the match, minutes | 1 decimal |
/// | `load_mean`, `load_max` | the machine's one-minute load average during the games (if stored) | 2 decimals |
/// | `date` | day the match started, `YYYY-MM-DD` | text |
/// | `time_losses`, `illegal_moves`, `crashes`, `protocol_errors`, `unanswered` | faults of both engines together | integer |
/// | `engine1.name`, `engine2.name` | engine names | text |
/// | `engine1.bench`, `engine2.bench` | bench node counts, or `none` | integer |
/// | `engine1.time_losses`, `.illegal_moves`, `.crashes`, `.protocol_errors`, `.unanswered` (and `engine2.`) | faults per engine | integer |
/// | `runs`; `run1.games`, `run1.concurrency`, `run1.load_mean`, `run1.date` (and `run2.` ...) | the sittings a resumed record adds up | as above |
///
/// Errors: the file cannot be read, is not a record, its counts do not add up, or its stored verdict
/// differs from the one its counts give.
pub fn record_figures(path: &Path) -> Result<BTreeMap<String, String>, RecordError> {
    let record = MatchRecord::load(path)?;
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let c = &record.counts;
    let mut figures = BTreeMap::new();
    let mut put = |key: &str, value: String| {
        figures.insert(format!("games.{stem}.{key}"), value);
    };
    put("games", c.games.to_string());
    put("wins", c.wins.to_string());
    put("draws", c.draws.to_string());
    put("losses", c.losses.to_string());
    put("pairs", c.pentanomial().pairs().to_string());
    for (name, count) in ["penta_ll", "penta_ld", "penta_dd", "penta_wd", "penta_ww"]
        .iter()
        .zip(c.pentanomial)
    {
        put(name, count.to_string());
    }
    put("score_pct", fixed(score_pct(c), 1));
    let draw_pct = if c.games == 0 {
        0.0
    } else {
        100.0 * c.draws as f64 / c.games as f64
    };
    put("draw_pct", fixed(draw_pct, 1));
    let pentanomial = c.pentanomial().pairs() > 0;
    if let Some(e) = headline_elo(c) {
        put("elo", fixed(e.elo, 1));
        put("elo_error", fixed(e.error, 1));
    }
    put(
        "elo_model",
        if pentanomial {
            "pentanomial"
        } else {
            "trinomial"
        }
        .to_string(),
    );
    if let Some(e) = stats::elo_trinomial(&c.trinomial()) {
        put("elo_trinomial", fixed(e.elo, 1));
        put("elo_trinomial_error", fixed(e.error, 1));
    }
    let nelo = if pentanomial {
        stats::normalized_elo_pentanomial(&c.pentanomial())
    } else {
        stats::normalized_elo_trinomial(&c.trinomial())
    };
    if let Some(nelo) = nelo {
        put("nelo", fixed(nelo, 1));
    }
    put("los", fixed(100.0 * stats::los(c.wins, c.losses), 1));
    let verdict = verdict(record.sprt.as_ref(), c).label();
    if verdict != record.verdict {
        return Err(RecordError {
            path: path.display().to_string(),
            message: format!(
                "stored verdict `{}` but the counts give `{verdict}`",
                record.verdict
            ),
        });
    }
    put("verdict", verdict.to_string());
    if let Some(sprt) = &record.sprt {
        let (lower, upper) = sprt.bounds();
        put("llr", fixed(llr(sprt, c), 2));
        put("llr_lower", fixed(lower, 2));
        put("llr_upper", fixed(upper, 2));
        put("elo0", sprt.elo0.to_string());
        put("elo1", sprt.elo1.to_string());
        put("alpha", sprt.alpha.to_string());
        put("beta", sprt.beta.to_string());
    }
    put("tc", record.time_control.clone());
    put("concurrency", record.concurrency.to_string());
    put("duration_min", fixed(record.duration_s / 60.0, 1));
    if let Some(load) = &record.load {
        put("load_mean", fixed(load.mean, 2));
        put("load_max", fixed(load.max, 2));
    }
    put(
        "date",
        record.date.get(..10).unwrap_or(&record.date).to_string(),
    );
    let total = |f: fn(&FaultCounts) -> u64| c.faults.iter().map(f).sum::<u64>().to_string();
    put("time_losses", total(|f| f.time));
    put("illegal_moves", total(|f| f.illegal));
    put("crashes", total(|f| f.crash));
    put("protocol_errors", total(|f| f.protocol_errors));
    put("unanswered", total(|f| f.unanswered));
    put("runs", record.runs.len().to_string());
    for (i, run) in record.runs.iter().enumerate() {
        let prefix = format!("run{}", i + 1);
        put(&format!("{prefix}.games"), run.games.to_string());
        put(
            &format!("{prefix}.concurrency"),
            run.concurrency.to_string(),
        );
        if let Some(load) = &run.load {
            put(&format!("{prefix}.load_mean"), fixed(load.mean, 2));
        }
        put(
            &format!("{prefix}.date"),
            run.date.get(..10).unwrap_or(&run.date).to_string(),
        );
    }
    for (i, (engine, faults)) in record.engines.iter().zip(&c.faults).enumerate() {
        let prefix = format!("engine{}", i + 1);
        put(&format!("{prefix}.name"), engine.name.clone());
        put(
            &format!("{prefix}.bench"),
            engine
                .bench
                .map_or_else(|| "none".to_string(), |b| b.to_string()),
        );
        put(&format!("{prefix}.time_losses"), faults.time.to_string());
        put(
            &format!("{prefix}.illegal_moves"),
            faults.illegal.to_string(),
        );
        put(&format!("{prefix}.crashes"), faults.crash.to_string());
        put(
            &format!("{prefix}.protocol_errors"),
            faults.protocol_errors.to_string(),
        );
        put(
            &format!("{prefix}.unanswered"),
            faults.unanswered.to_string(),
        );
    }
    Ok(figures)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> MatchRecord {
        let counts = Counts {
            games: 100,
            wins: 30,
            draws: 40,
            losses: 30,
            pentanomial: [5, 10, 20, 10, 5],
            terminations: BTreeMap::from([
                ("checkmate".to_string(), 60),
                ("draw_adjudication".to_string(), 40),
            ]),
            faults: [
                FaultCounts::default(),
                FaultCounts {
                    illegal: 0,
                    crash: 1,
                    time: 2,
                    protocol_errors: 3,
                    unanswered: 4,
                },
            ],
        };
        let sprt = SprtParams {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let engine = |name: &str| EngineRecord {
            name: name.into(),
            cmd: format!("/usr/bin/{name}"),
            args: vec![],
            options: vec![("Hash".into(), "16".into())],
            id_name: Some(name.to_uppercase()),
            bench: Some(12345),
        };
        MatchRecord {
            format: FORMAT,
            name: "sample".into(),
            date: "2026-01-02T03:04:05Z".into(),
            duration_s: 150.0,
            machine: Machine {
                cores: 2,
                cpu: "test cpu".into(),
            },
            load: Some(LoadRecord {
                start: 1.5,
                end: 2.25,
                mean: 2.04,
                max: 2.5,
                samples: 9,
            }),
            engines: [engine("a"), engine("b")],
            time_control: "8+0.08".into(),
            time_margin_ms: 100,
            openings: OpeningsRecord {
                file: "data/openings/8moves_v3.epd".into(),
                seed: 1,
            },
            concurrency: 2,
            adjudication: Adjudication::FISHTEST,
            sprt: Some(sprt),
            pairs_planned: 50,
            stopped_by: "completed".into(),
            next_pair: Some(50),
            runs: Vec::new(),
            verdict: verdict(Some(&sprt), &counts).label().into(),
            summary: Summary::of(&counts, Some(&sprt)),
            counts,
            pgn: "sample.pgn".into(),
        }
    }

    fn temp(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("arena-record-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(format!("{name}.json"))
    }

    #[test]
    fn records_round_trip() {
        let path = temp("roundtrip");
        let record = sample();
        record.save(&path).unwrap();
        assert_eq!(MatchRecord::load(&path).unwrap(), record);
    }

    #[test]
    fn figures_are_recomputed_from_counts() {
        let path = temp("even");
        let mut record = sample();
        // A stored derived number is ignored: the figures come from the counts.
        record.summary.elo = Some(999.0);
        record.save(&path).unwrap();
        let f = record_figures(&path).unwrap();
        assert_eq!(f["games.even.games"], "100");
        assert_eq!(f["games.even.elo"], "0.0");
        assert_eq!(f["games.even.elo_model"], "pentanomial");
        assert_eq!(f["games.even.elo_trinomial"], "0.0");
        assert_eq!(f["games.even.elo_trinomial_error"], "53.2");
        assert_eq!(f["games.even.los"], "50.0");
        assert_eq!(f["games.even.score_pct"], "50.0");
        assert_eq!(f["games.even.draw_pct"], "40.0");
        assert_eq!(f["games.even.llr_lower"], "-2.94");
        assert_eq!(f["games.even.verdict"], "no verdict");
        assert_eq!(f["games.even.time_losses"], "2");
        assert_eq!(f["games.even.engine2.crashes"], "1");
        assert_eq!(f["games.even.engine2.protocol_errors"], "3");
        assert_eq!(f["games.even.unanswered"], "4");
        assert_eq!(f["games.even.engine1.bench"], "12345");
        assert_eq!(f["games.even.duration_min"], "2.5");
        assert_eq!(f["games.even.load_mean"], "2.04");
        assert_eq!(f["games.even.date"], "2026-01-02");
    }

    #[test]
    fn inconsistent_records_are_rejected() {
        let path = temp("bad");
        let mut record = sample();
        record.counts.wins += 1;
        record.save(&path).unwrap();
        assert!(record_figures(&path).unwrap_err().message.contains("games"));
        let mut record = sample();
        record.verdict = "H1".into();
        record.save(&path).unwrap();
        assert!(
            record_figures(&path)
                .unwrap_err()
                .message
                .contains("verdict")
        );
        assert!(record_figures(Path::new("/nonexistent/x.json")).is_err());
    }

    #[test]
    fn negative_zero_is_written_as_zero() {
        assert_eq!(fixed(-0.0001, 1), "0.0");
        assert_eq!(fixed(-0.06, 1), "-0.1");
        assert_eq!(fixed(2.944438, 2), "2.94");
    }
}
