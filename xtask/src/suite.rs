//! `cargo xtask suite wac|bk|FILE [--movetime MS] [--store]`: a test suite of positions with a
//! known best move, each searched by the release engine for a fixed time.
//!
//! Win at Chess (Fred Reinfeld's 300 positions, `data/suites/wac.epd`) and the Bratko-Kopec test
//! (24 positions, `data/suites/bratko-kopec.epd`) are EPD files: a FEN without its clocks, then
//! operations such as `bm Qg6;` (the best move, one or more, in SAN) and `am ...` (a move to
//! avoid) and `id "WAC.001";`, read by `cb2026::epd`. A position is solved when the engine's
//! move is one of the `bm` moves and none of the `am` ones. SAN is turned into a move by
//! `cb2026::san`, which matches it against the engine's own legal moves, so the suite needs no
//! chess library beyond the engine.
//!
//! The engine runs as a GUI would run it, over UCI (`ucinewgame`, `position fen`, `go movetime
//! N`) through the arena's driver (`arena::uci`), so the whole path of a timed search is
//! exercised. A search that stops on the clock does
//! not stop at the same node twice: the count of solved positions varies a little from run to
//! run and with the machine's load. `--store` keeps it as a stored measurement
//! (`snapshots/measured/suite-<name>-<N>ms.yaml`, keys `suite.<name>.movetime<N>.solved` and
//! `.positions`), never as a snapshot. `--stage M4` plays the engine of a stage (file and keys
//! end in `-m4` / `.m4`), `--shipped-after M11` the engine as it shipped then, before a later
//! milestone turned some defaults on (`-shipped-m11` / `.shipped.m11`). `--baseline-cpu` plays
//! the engine built for the x86-64 baseline, without M16's POPCNT (`-baseline-cpu` /
//! `.baseline.cpu`), and `--label NAME` names a run of the engine as it is (`-NAME` / `.NAME`), so
//! that a later milestone's run does not replace an earlier one's record.

use arena::EngineSpec;
use arena::uci::{EngineError, Score, UciEngine};
use cb2026::epd::{self, EpdLine};
use cb2026::position::Position;
use cb2026::san;
use cb2026::switches::{Stage, Switches};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The command line of `cargo xtask suite`.
#[derive(clap::Args, Debug)]
pub struct SuiteArgs {
    /// `wac` (data/suites/wac.epd), `bk` (data/suites/bratko-kopec.epd) or an EPD file.
    suite: String,
    /// The time for each position, in milliseconds (`go movetime N`).
    #[arg(long, default_value_t = 200)]
    movetime: u64,
    /// The engine's table size in MB.
    #[arg(long, default_value_t = 16)]
    hash: u32,
    /// Play the engine as it stands at this stage (`18`, `M1`): every switch of the chapters
    /// and milestones up to it on, every later one off. The shipped defaults when omitted.
    #[arg(long)]
    stage: Option<String>,
    /// Play the engine as it shipped at the end of this stage (`M11`): today's defaults with
    /// every switch a later milestone turned on off again (`Switches::shipped_after`).
    #[arg(long, conflicts_with = "stage")]
    shipped_after: Option<String>,
    /// Play the engine built for the x86-64 baseline, without POPCNT (M16): the same search,
    /// slower.
    #[arg(long)]
    baseline_cpu: bool,
    /// A name for the stored run, added to its file and keys (`--label m16`).
    #[arg(long, value_parser = label)]
    label: Option<String>,
    /// Store the result in snapshots/measured/suite-<name>-<N>ms[-<stage>].yaml (or
    /// `-shipped-<stage>` with `--shipped-after`; `-baseline-cpu` and `-<label>` follow).
    #[arg(long)]
    store: bool,
}

/// A label is a word of lower-case letters and digits: it becomes part of a file name and a key.
fn label(text: &str) -> Result<String, String> {
    if !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
    {
        Ok(text.to_string())
    } else {
        Err(format!(
            "bad label {text:?}: use lower-case letters and digits"
        ))
    }
}

/// Reads an EPD suite (`cb2026::epd`). A line without `bm` or `am` is an error: it could
/// never be solved.
pub fn read_suite(text: &str) -> Result<Vec<EpdLine>, String> {
    let lines = epd::parse(text).map_err(|error| error.to_string())?;
    match lines
        .iter()
        .find(|line| line.best_moves().is_empty() && line.avoid_moves().is_empty())
    {
        Some(line) => Err(format!("line {}: no bm or am", line.line)),
        None => Ok(lines),
    }
}

/// A position's name in the report: its `id`, or its line.
fn position_name(line: &EpdLine) -> String {
    line.id()
        .map_or_else(|| format!("line {}", line.line), str::to_string)
}

/// What the engine played in one position.
#[derive(Clone, Debug)]
struct Attempt {
    entry: EpdLine,
    played: String,
    solved: bool,
    /// The last `info` line's depth and score (`d12 cp 35`).
    search: String,
}

/// `cargo xtask suite`.
pub fn run(args: SuiteArgs, root: &Path) -> Result<(), String> {
    let (name, file) = suite_file(&args.suite, root);
    let text = std::fs::read_to_string(&file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let entries = read_suite(&text).map_err(|e| format!("{}: {e}", file.display()))?;
    let engine_path = if args.baseline_cpu {
        xtask::release::build_cb2026_for_baseline_cpu(root)?
    } else {
        crate::tools::build_cb2026(root)?
    };
    let played = Played::from_args(&args)?;
    let mut engine = Engine::start(&engine_path, args.hash, played.switches())?;
    println!(
        "{} positions of {}, go movetime {} ms each",
        entries.len(),
        file.display(),
        args.movetime
    );
    let started = Instant::now();
    let mut attempts = Vec::new();
    for entry in entries {
        let attempt = engine.attempt(entry, args.movetime)?;
        println!(
            "{:<10} {:<8} played {:<6} {:<14} bm {}{}",
            position_name(&attempt.entry),
            if attempt.solved { "solved" } else { "FAILED" },
            attempt.played,
            attempt.search,
            attempt.entry.best_moves().join(" "),
            if attempt.entry.avoid_moves().is_empty() {
                String::new()
            } else {
                format!(" am {}", attempt.entry.avoid_moves().join(" "))
            }
        );
        attempts.push(attempt);
    }
    drop(engine);
    let solved = attempts.iter().filter(|a| a.solved).count();
    println!("\nfailures:");
    for attempt in attempts.iter().filter(|a| !a.solved) {
        println!(
            "  {}: played {}, bm {} ({})",
            position_name(&attempt.entry),
            attempt.played,
            attempt.entry.best_moves().join(" "),
            attempt.entry.fen
        );
    }
    println!(
        "\n{name} at {} ms: solved {solved} of {} ({:.0} s)",
        args.movetime,
        attempts.len(),
        started.elapsed().as_secs_f64()
    );
    if args.store {
        store(root, &name, &args, played, solved, attempts.len())?;
    }
    Ok(())
}

/// The engine a run plays: the shipped defaults, a stage (`--stage`), or the engine as it
/// shipped at the end of a stage (`--shipped-after`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Played {
    Defaults,
    Stage(Stage),
    ShippedAfter(Stage),
}

impl Played {
    /// Reads `--stage` and `--shipped-after` (clap lets at most one through).
    fn from_args(args: &SuiteArgs) -> Result<Played, String> {
        let parse = |text: &str| Stage::parse(text).map_err(|e| e.to_string());
        Ok(match (&args.stage, &args.shipped_after) {
            (Some(stage), _) => Played::Stage(parse(stage)?),
            (None, Some(stage)) => Played::ShippedAfter(parse(stage)?),
            (None, None) => Played::Defaults,
        })
    }

    /// The switches to set; `None` leaves the engine's defaults.
    fn switches(self) -> Option<Switches> {
        match self {
            Played::Defaults => None,
            Played::Stage(stage) => Some(stage.switches()),
            Played::ShippedAfter(stage) => Some(Switches::shipped_after(stage)),
        }
    }

    /// The stored file's suffix (`-m4`, `-shipped-m11`, nothing) and the command's flag that
    /// asks for this engine (` --stage M4`, ` --shipped-after M11`, nothing).
    fn suffix_and_flag(self) -> (String, String) {
        match self {
            Played::Defaults => (String::new(), String::new()),
            Played::Stage(stage) => (format!("-{}", stage.id()), format!(" --stage {stage}")),
            Played::ShippedAfter(stage) => (
                format!("-shipped-{}", stage.id()),
                format!(" --shipped-after {stage}"),
            ),
        }
    }
}

/// The suite's short name and file: `wac`, `bk`, or a path (named by its stem).
fn suite_file(suite: &str, root: &Path) -> (String, PathBuf) {
    match suite {
        "wac" => ("wac".into(), root.join("data/suites/wac.epd")),
        "bk" => ("bk".into(), root.join("data/suites/bratko-kopec.epd")),
        path => {
            let path = PathBuf::from(path);
            let stem = path
                .file_stem()
                .map_or("suite".into(), |s| s.to_string_lossy().into_owned());
            (stem, path)
        }
    }
}

/// Writes the result as a stored measurement.
fn store(
    root: &Path,
    name: &str,
    args: &SuiteArgs,
    played: Played,
    solved: usize,
    positions: usize,
) -> Result<(), String> {
    let (mut suffix, mut flag) = played.suffix_and_flag();
    if args.baseline_cpu {
        suffix.push_str("-baseline-cpu");
        flag.push_str(" --baseline-cpu");
    }
    if let Some(label) = &args.label {
        suffix.push_str(&format!("-{label}"));
        flag.push_str(&format!(" --label {label}"));
    }
    let key = format!(
        "suite.{name}.movetime{}{}",
        args.movetime,
        suffix.replace('-', ".")
    );
    let body = format!("{key}.solved: {solved}\n{key}.positions: {positions}\n");
    let text = crate_figures::measured_file(
        &format!(
            "cargo xtask suite {} --movetime {}{flag} --store",
            args.suite, args.movetime
        ),
        &format!(
            "{} over UCI, Hash {} MB, go movetime {}",
            if args.baseline_cpu {
                "target/baseline-cpu/release/cb2026 (built for x86-64)"
            } else {
                "target/release/cb2026"
            },
            args.hash,
            args.movetime
        ),
        &crate_figures::machine(),
        &crate_figures::today(),
        &crate_figures::commit(root),
        &body,
    );
    let file = root.join(format!(
        "snapshots/measured/suite-{name}-{}ms{suffix}.yaml",
        args.movetime
    ));
    std::fs::create_dir_all(root.join("snapshots/measured")).map_err(|e| e.to_string())?;
    std::fs::write(&file, text).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    println!("wrote {}", file.display());
    Ok(())
}

use xtask::figures as crate_figures;

/// The engine, spoken to through the arena's UCI driver.
struct Engine {
    uci: UciEngine,
}

/// How long past its movetime an engine may take to answer before the suite gives up.
const GRACE: Duration = Duration::from_secs(10);

impl Engine {
    /// Starts the engine, sets its table size and, if asked, every switch.
    fn start(path: &Path, hash: u32, switches: Option<Switches>) -> Result<Engine, String> {
        let mut spec = EngineSpec::new("cb2026", path.display().to_string()).option("Hash", hash);
        if let Some(switches) = switches {
            spec = crate::matches::with_switches(spec, &switches);
        }
        let mut uci = UciEngine::start(&spec).map_err(|e| format!("cb2026: {e}"))?;
        uci.configure(&spec.options)
            .map_err(|e| format!("cb2026: {e}"))?;
        Ok(Engine { uci })
    }

    /// Searches one position from an empty table and judges the move.
    fn attempt(&mut self, entry: EpdLine, movetime: u64) -> Result<Attempt, String> {
        let position = Position::from_fen(&entry.fen)
            .map_err(|e| format!("{}: bad FEN: {e}", position_name(&entry)))?;
        let to_uci = |moves: &[String]| -> Result<Vec<String>, String> {
            moves
                .iter()
                .map(|text| san::to_move(&position, text).map(|m| m.to_string()))
                .collect::<Result<_, _>>()
                .map_err(|e| format!("{}: {e}", position_name(&entry)))
        };
        let (best, avoid) = (to_uci(entry.best_moves())?, to_uci(entry.avoid_moves())?);
        let never = AtomicBool::new(false);
        let failed = |e: EngineError| format!("{}: {e}", position_name(&entry));
        self.uci.new_game(&never).map_err(failed)?;
        let reply = self
            .uci
            .go(
                &format!("position fen {}", entry.fen),
                &format!("go movetime {movetime}"),
                Duration::from_millis(movetime) + GRACE,
                &never,
            )
            .map_err(failed)?;
        if self.uci.protocol.errors > 0 {
            return Err(format!(
                "{}: the engine refused a command (info string error)",
                position_name(&entry)
            ));
        }
        let score = match reply.score {
            Some(Score::Cp(cp)) => format!("cp {cp}"),
            Some(Score::Mate(n)) => format!("mate {n}"),
            None => String::new(),
        };
        let search = format!("d{} {score}", reply.depth.unwrap_or(0));
        let played = reply.bestmove;
        let solved = (best.is_empty() || best.contains(&played)) && !avoid.contains(&played);
        Ok(Attempt {
            entry,
            played,
            solved,
            search,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_suites_read_whole() {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
        for (suite, count) in [("wac", 300), ("bk", 24)] {
            let (_, file) = suite_file(suite, &root);
            let lines = read_suite(&std::fs::read_to_string(file).expect("the suite"));
            assert_eq!(lines.map(|l| l.len()), Ok(count), "{suite}");
        }
    }

    #[test]
    fn a_position_that_cannot_be_solved_is_refused() {
        let text = "4k3/8/8/8/8/8/8/R3K3 w Q - bm Ra8+;\n4k3/8/8/8/8/8/8/R3K3 w Q - id \"x\";\n";
        assert_eq!(read_suite(text), Err("line 2: no bm or am".to_string()));
        let lines = read_suite(&text.replace("id", "am Kd1; id")).expect("solvable");
        assert_eq!(position_name(&lines[0]), "line 1");
        assert_eq!(position_name(&lines[1]), "x");
    }

    #[derive(clap::Parser)]
    struct Cli {
        #[command(flatten)]
        args: SuiteArgs,
    }

    fn parsed(words: &[&str]) -> Result<SuiteArgs, clap::Error> {
        use clap::Parser as _;
        Cli::try_parse_from(["suite", "wac"].iter().chain(words)).map(|cli| cli.args)
    }

    #[test]
    fn a_label_is_lower_case_letters_and_digits() {
        assert_eq!(
            parsed(&["--label", "m16"])
                .expect("parsed")
                .label
                .as_deref(),
            Some("m16")
        );
        for bad in ["M16", "m-16", "", "a.b"] {
            assert!(parsed(&["--label", bad]).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_engine_asked_for_names_its_stored_file() {
        let played = |words: &[&str]| Played::from_args(&parsed(words).expect("parsed"));
        let defaults = played(&[]).expect("no flags");
        assert_eq!(defaults.switches(), None);
        assert_eq!(defaults.suffix_and_flag(), (String::new(), String::new()));
        let stage = played(&["--stage", "m4"]).expect("a stage");
        assert_eq!(stage.switches(), Some(Stage::Milestone(4).switches()));
        assert_eq!(
            stage.suffix_and_flag(),
            ("-m4".to_string(), " --stage M4".to_string())
        );
        let before = played(&["--shipped-after", "M11"]).expect("a stage");
        let switches = before.switches().expect("asked");
        assert_eq!(switches, Switches::shipped_after(Stage::Milestone(11)));
        assert_ne!(switches, Switches::default());
        assert_eq!(
            before.suffix_and_flag(),
            (
                "-shipped-m11".to_string(),
                " --shipped-after M11".to_string()
            )
        );
        assert!(parsed(&["--stage", "M4", "--shipped-after", "M11"]).is_err());
        assert!(played(&["--shipped-after", "M99"]).is_err());
    }
}
