//! `cargo xtask match`: games between UCI engines through `crates/arena`, stored as a record and a
//! PGN under `snapshots/games/`.
//!
//! ```text
//! # two engines (the first is the candidate; `cmd=cb2026` is this repository's release build)
//! cargo xtask match -e 'name=new,cmd=cb2026,option.ttbuckets=true' -e 'name=old,cmd=cb2026' \
//!     --tc 8+0.08 --games 2000 -j 2 --sprt 0,5 --name m5-buckets
//! # the same, shorter: cb2026 with a switch on against cb2026 with it off, both at the stage
//! # of the switch's chapter (every earlier chapter's switch on, every later one off)
//! cargo xtask match --switch ttbuckets --sprt 0,5
//! # several switches of one chapter together, at a stage of your choice
//! cargo xtask match --switch see,killers,history --stage 9 --sprt 0,10
//! # 400 more games for a record that has no verdict yet, added to it
//! cargo xtask match --switch pvs --tc 2+0.02 --sprt 0,10 --games 400 --name ch10-pvs --resume
//! # cb2026 against the Debian reference engines, one record per opponent
//! cargo xtask match --gauntlet --games 100 --stockfish-elo 1350,1600
//! ```

use arena::adjudication::Adjudication;
use arena::stats::SprtParams;
use arena::{EngineSpec, MatchConfig, TimeControl, run_match};
use cb2026::switches::{SWITCHES, Stage, Switches};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The command line of `cargo xtask match`.
#[derive(clap::Args, Debug)]
pub struct MatchArgs {
    /// An engine: `name=..,cmd=..,arg=..,option.NAME=VALUE,bench=off`. `cmd=cb2026` is this
    /// repository's engine, built in release. Two engines play a match; with more, the first plays
    /// each of the others (one record each).
    #[arg(long = "engine", short = 'e', value_name = "SPEC")]
    engines: Vec<String>,
    /// cb2026 with the switches NAME,.. on (the candidate) against cb2026 with them off, both at
    /// the stage of the latest switch's chapter (or `--stage`): every switch is set, so the
    /// match measures the feature as its chapter added it.
    #[arg(long, value_name = "NAME,..", conflicts_with_all = ["engines", "gauntlet"])]
    switch: Option<String>,
    /// The stage both engines of `--switch` play at (`11`, `M5`).
    #[arg(long, value_name = "STAGE", requires = "switch")]
    stage: Option<String>,
    /// cb2026 against the Debian reference engines (Stockfish at calibrated strengths, Glaurung,
    /// Toga II, GNU Chess, Ethereal), installed with apt-get if missing. One record per opponent.
    #[arg(long, conflicts_with = "engines")]
    gauntlet: bool,
    /// Stockfish's UCI_Elo rungs in the gauntlet (Stockfish 15.1 accepts 1350..2850).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "1350",
        value_name = "ELO,.."
    )]
    stockfish_elo: Vec<u32>,
    /// Time control: `base+inc` in seconds (8+0.08), `nodes=N` or `depth=N`.
    #[arg(long, default_value = "8+0.08")]
    tc: String,
    /// Games per match (rounded up to whole pairs); the most an SPRT may play.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Games played at once. Each needs two engine processes: keep it at most the core count.
    #[arg(long, short = 'j', default_value_t = 1)]
    concurrency: usize,
    /// Openings (EPD), relative to the repository.
    #[arg(long, default_value = OPENINGS)]
    openings: PathBuf,
    /// Seed of the openings' order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Stop on a GSPRT verdict for H0: elo = ELO0 against H1: elo = ELO1 (logistic Elo), e.g. 0,5.
    #[arg(long, value_name = "ELO0,ELO1")]
    sprt: Option<String>,
    /// SPRT false-positive rate.
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// SPRT false-negative rate.
    #[arg(long, default_value_t = 0.05)]
    beta: f64,
    /// The record's name: snapshots/games/<NAME>.json and .pgn (default: from the engines).
    #[arg(long)]
    name: Option<String>,
    /// Move overhead in ms, set as `Move Overhead` / `MoveOverhead` where an engine offers one.
    #[arg(long, default_value_t = MOVE_OVERHEAD_MS, value_name = "MS")]
    move_overhead: u64,
    /// How far past its clock a move may run before it loses on time.
    #[arg(long, default_value_t = 100, value_name = "MS")]
    time_margin: u64,
    /// Under nodes=N or depth=N: the longest one move may take before it counts as a loss on time.
    #[arg(long, default_value_t = 60.0, value_name = "SECS")]
    move_timeout: f64,
    /// Play every game to its end by the rules (no draw or resign adjudication).
    #[arg(long)]
    no_adjudication: bool,
    /// Skip the engines' bench signatures.
    #[arg(long)]
    no_bench: bool,
    /// Add this run's games to the stored record of the same name (the same engines, time
    /// control, openings and SPRT; it must have no verdict yet): the match goes on at the first
    /// opening pair not yet played, `--games` more at most, and the PGN grows.
    #[arg(long, requires = "name")]
    resume: bool,
    /// Where records go, relative to the repository.
    #[arg(long, default_value = "snapshots/games")]
    out: PathBuf,
}

/// The openings every match plays unless told otherwise, relative to the repository.
const OPENINGS: &str = "data/openings/8moves_v3.epd";

/// The move overhead set where an engine offers one, in ms.
const MOVE_OVERHEAD_MS: u64 = 50;

/// Debian's reference engines: package and binary.
const REFERENCE_ENGINES: [(&str, &str); 5] = [
    ("stockfish", "/usr/games/stockfish"),
    ("glaurung", "/usr/games/glaurung"),
    ("toga2", "/usr/games/toga2"),
    ("gnuchess", "/usr/games/gnuchess"),
    ("ethereal-chess", "/usr/games/ethereal-chess"),
];

pub fn run(args: MatchArgs, root: &Path) -> Result<(), String> {
    // Relative engine commands and paths mean the repository's, wherever cargo was run from.
    std::env::set_current_dir(root).map_err(|e| format!("cannot enter {}: {e}", root.display()))?;
    let time_control = TimeControl::parse(&args.tc)?;
    let sprt = args
        .sprt
        .as_deref()
        .map(|s| parse_sprt(s, args.alpha, args.beta))
        .transpose()?;
    let (candidate, opponents, default_name) = engines(&args, root)?;
    let base_name = args.name.clone().unwrap_or(default_name);
    let interrupt = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&interrupt);
    ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed))
        .map_err(|e| format!("Ctrl-C handler: {e}"))?;
    let out = root.join(&args.out);
    std::fs::create_dir_all(&out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let several = opponents.len() > 1;
    for opponent in opponents {
        if interrupt.load(Ordering::Relaxed) {
            break;
        }
        let name = if several {
            format!("{base_name}-{}", opponent.name)
        } else {
            base_name.clone()
        };
        let mut engines = [candidate.clone(), opponent];
        disambiguate(&mut engines);
        let openings = if args.openings.is_absolute() {
            args.openings.clone()
        } else {
            root.join(&args.openings)
        };
        let mut config = MatchConfig::new(
            &name,
            engines,
            time_control,
            args.games.div_ceil(2),
            openings,
        );
        config.openings_label = args.openings.display().to_string();
        config.concurrency = args.concurrency;
        config.seed = args.seed;
        config.sprt = sprt;
        config.adjudication = if args.no_adjudication {
            Adjudication::NONE
        } else {
            Adjudication::FISHTEST
        };
        config.time_margin = Duration::from_millis(args.time_margin);
        config.move_timeout = Duration::try_from_secs_f64(args.move_timeout)
            .map_err(|_| format!("bad --move-timeout {}", args.move_timeout))?;
        config.move_overhead_ms = Some(args.move_overhead);
        config.bench = !args.no_bench;
        config.progress = true;
        if args.resume {
            let path = out.join(format!("{name}.json"));
            let previous = arena::record::MatchRecord::load(&path).map_err(|e| e.to_string())?;
            println!(
                "resuming {name}: {} games stored, from opening pair {}",
                previous.counts.games,
                previous.next_pair.unwrap_or(0) + 1
            );
            config.previous = Some(previous);
        }
        play_and_store(&config, &interrupt, &out)?;
    }
    Ok(())
}

/// Plays one match, prints its result and writes `<out>/<name>.json` and `.pgn`.
fn play_and_store(config: &MatchConfig, interrupt: &AtomicBool, out: &Path) -> Result<(), String> {
    println!(
        "match {}: {} vs {}, {}, {} games, {} at once",
        config.name,
        config.engines[0].name,
        config.engines[1].name,
        config.time_control,
        2 * config.pairs,
        config.concurrency
    );
    let report = run_match(config, interrupt)?;
    let record = &report.record;
    let json = out.join(format!("{}.json", config.name));
    record.save(&json).map_err(|e| e.to_string())?;
    let pgn = out.join(&record.pgn);
    let earlier_games = if config.previous.is_some() {
        std::fs::read_to_string(&pgn).map_err(|e| format!("cannot read {}: {e}", pgn.display()))?
    } else {
        String::new()
    };
    std::fs::write(&pgn, earlier_games + &report.pgn)
        .map_err(|e| format!("cannot write {}: {e}", pgn.display()))?;
    println!(
        "{}",
        arena::runner::status_line(&record.counts, record.sprt.as_ref())
    );
    for (engine, faults) in record.engines.iter().zip(&record.counts.faults) {
        println!(
            "  {}: bench {}, time losses {}, illegal moves {}, crashes {}, protocol errors {}, \
             unanswered commands {}",
            engine.name,
            engine
                .bench
                .map_or_else(|| "none".to_string(), |b| b.to_string()),
            faults.time,
            faults.illegal,
            faults.crash,
            faults.protocol_errors,
            faults.unanswered
        );
    }
    println!(
        "  {} games in {:.0} s, stopped: {}, verdict: {}\n  wrote {} and {}",
        record.counts.games,
        record.duration_s,
        record.stopped_by,
        record.verdict,
        json.display(),
        pgn.display()
    );
    Ok(())
}

/// `0,5` → H0 elo0 = 0, H1 elo1 = 5.
fn parse_sprt(text: &str, alpha: f64, beta: f64) -> Result<SprtParams, String> {
    let bad = || format!("--sprt wants ELO0,ELO1 (e.g. 0,5), got `{text}`");
    let (e0, e1) = text.split_once(',').ok_or_else(bad)?;
    let sprt = SprtParams {
        elo0: e0.trim().parse().map_err(|_| bad())?,
        elo1: e1.trim().parse().map_err(|_| bad())?,
        alpha,
        beta,
    };
    sprt.validate()?;
    Ok(sprt)
}

/// The candidate, its opponents and a default record name, from the flags.
fn engines(args: &MatchArgs, root: &Path) -> Result<(EngineSpec, Vec<EngineSpec>, String), String> {
    if let Some(switch) = &args.switch {
        let cmd = build_cb2026_for_a_match(root)?;
        let names: Vec<&str> = switch.split(',').map(str::trim).collect();
        let stage = match &args.stage {
            Some(text) => Stage::parse(text).map_err(|e| e.to_string())?,
            None => names
                .iter()
                .map(|name| Stage::of_switch(name).map_err(|e| e.to_string()))
                .collect::<Result<Vec<Stage>, String>>()?
                .into_iter()
                .max()
                .ok_or("--switch wants at least one name")?,
        };
        let label = names.join("-");
        let [on, off] = [true, false].map(|state| {
            let mut switches = stage.switches();
            for name in &names {
                switches.set(name, state).expect("names checked above");
            }
            let word = if state { "on" } else { "off" };
            stage_spec(format!("cb2026-{label}-{word}"), &cmd, &switches)
        });
        return Ok((on, vec![off], format!("{label}-on-vs-off")));
    }
    if args.gauntlet {
        let cmd = build_cb2026_for_a_match(root)?;
        install_reference_engines()?;
        return Ok((
            cb2026_spec("cb2026".into(), &cmd),
            gauntlet_opponents(&args.stockfish_elo),
            "gauntlet".into(),
        ));
    }
    if args.engines.len() < 2 {
        return Err("give two or more --engine specs, or --switch NAME, or --gauntlet".into());
    }
    let mut specs = Vec::new();
    for text in &args.engines {
        let mut spec = EngineSpec::parse(text)?;
        if spec.cmd == "cb2026" {
            spec.cmd = build_cb2026_for_a_match(root)?;
            spec.shown_cmd = Some("cb2026".into());
        }
        specs.push(spec);
    }
    let candidate = specs.remove(0);
    let name = format!("{}-vs-{}", candidate.name, specs[0].name);
    Ok((candidate, specs, name))
}

/// cb2026 with every switch set as in `switches`, so the engine plays the stage whatever its
/// defaults are.
fn stage_spec(name: String, cmd: &str, switches: &Switches) -> EngineSpec {
    with_switches(cb2026_spec(name, cmd), switches)
}

/// `spec` with one option per switch, set as in `switches` (`cargo xtask suite --stage` too).
pub(crate) fn with_switches(spec: EngineSpec, switches: &Switches) -> EngineSpec {
    SWITCHES.iter().fold(spec, |spec, info| {
        let on = switches.get(info.name).expect("a registered switch");
        spec.option(info.name, on)
    })
}

/// The gauntlet's opponents. Options are set only where the engine advertises them (the arena
/// refuses others): GNU Chess's own book is switched off so it plays from our openings.
fn gauntlet_opponents(stockfish_elos: &[u32]) -> Vec<EngineSpec> {
    let mut opponents: Vec<EngineSpec> = stockfish_elos
        .iter()
        .map(|elo| {
            EngineSpec::new(format!("stockfish-{elo}"), "/usr/games/stockfish")
                .option("UCI_LimitStrength", "true")
                .option("UCI_Elo", elo)
        })
        .collect();
    let mut no_bench = |spec: EngineSpec| {
        opponents.push(EngineSpec {
            bench: false,
            ..spec
        })
    };
    // Glaurung 2.2 searches with two threads unless told otherwise: with two games at once on
    // two cores that oversubscribes the machine, and it lost games on time.
    no_bench(EngineSpec::new("glaurung", "/usr/games/glaurung").option("Threads", 1));
    no_bench(EngineSpec::new("toga2", "/usr/games/toga2"));
    no_bench(
        EngineSpec::new("gnuchess", "/usr/games/gnuchess")
            .arg("--uci")
            .option("OwnBook", "false"),
    );
    opponents.push(EngineSpec::new("ethereal", "/usr/games/ethereal-chess"));
    opponents
}

/// Two engines with the same name (`cmd=cb2026` twice) are told apart by their options, or by
/// their place when the options do not differ.
fn disambiguate(engines: &mut [EngineSpec; 2]) {
    if engines[0].name != engines[1].name {
        return;
    }
    for spec in engines.iter_mut() {
        let options: Vec<String> = spec
            .options
            .iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        if !options.is_empty() {
            spec.name = format!("{}[{}]", spec.name, options.join(","));
        }
    }
    if engines[0].name == engines[1].name {
        for (i, spec) in engines.iter_mut().enumerate() {
            spec.name = format!("{}#{}", spec.name, i + 1);
        }
    }
}

/// Our engine at `cmd` (a copy of the release build), recorded as `cb2026`: the copy's path
/// is this machine's and this process's, the bench signature says which build it was.
fn cb2026_spec(name: String, cmd: &str) -> EngineSpec {
    EngineSpec::new(name, cmd).shown_as("cb2026")
}

/// The release engine, copied to `target/match/cb2026-<pid>` so that a rebuild while the match
/// plays (which replaces `target/release/cb2026`) cannot change the engine between games.
pub(crate) fn build_cb2026_for_a_match(root: &Path) -> Result<String, String> {
    let binary = crate::tools::build_cb2026(root)?;
    let dir = root.join("target/match");
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let copy = dir.join(format!("cb2026-{}", std::process::id()));
    std::fs::copy(&binary, &copy).map_err(|e| {
        format!(
            "cannot copy {} to {}: {e}",
            binary.display(),
            copy.display()
        )
    })?;
    let shown = copy.strip_prefix(root).unwrap_or(&copy);
    Ok(shown.display().to_string())
}

/// Installs the Debian packages of missing reference engines ([`crate::tools::debian_engine`]).
fn install_reference_engines() -> Result<(), String> {
    for (package, binary) in REFERENCE_ENGINES {
        crate::tools::debian_engine(binary, package)?;
    }
    Ok(())
}

/// What the matches of `cargo xtask soak` share: one copy of our engine, one Ctrl-C flag.
pub struct Soak {
    root: PathBuf,
    cmd: String,
    interrupt: Arc<AtomicBool>,
}

impl Soak {
    /// Builds the engine and sets the Ctrl-C handler, once for all the soak's matches.
    pub fn new(root: &Path) -> Result<Soak, String> {
        std::env::set_current_dir(root)
            .map_err(|e| format!("cannot enter {}: {e}", root.display()))?;
        let cmd = build_cb2026_for_a_match(root)?;
        let interrupt = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&interrupt);
        ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed))
            .map_err(|e| format!("Ctrl-C handler: {e}"))?;
        Ok(Soak {
            root: root.to_path_buf(),
            cmd,
            interrupt,
        })
    }

    /// One match: cb2026 (default options) against `opponent` (`self`, or a reference
    /// engine's name in the gauntlet: `ethereal`, `toga2`, ..., `stockfish` at full strength)
    /// at `tc`, `games` games without adjudication, stored as `snapshots/games/<name>`.
    pub fn play(
        &self,
        name: &str,
        tc: &str,
        opponent: &str,
        games: usize,
        concurrency: usize,
    ) -> Result<(), String> {
        let (candidate, rival) = if opponent == "self" {
            (
                cb2026_spec("cb2026-a".into(), &self.cmd),
                cb2026_spec("cb2026-b".into(), &self.cmd),
            )
        } else {
            let mut references = gauntlet_opponents(&[]);
            references.push(EngineSpec::new("stockfish", "/usr/games/stockfish"));
            let known: Vec<String> = references.iter().map(|s| s.name.clone()).collect();
            let rival = references
                .into_iter()
                .find(|spec| spec.name == opponent)
                .ok_or_else(|| {
                    format!("unknown opponent `{opponent}`: self, {}", known.join(", "))
                })?;
            install_reference_engines()?;
            (cb2026_spec("cb2026".into(), &self.cmd), rival)
        };
        let openings = PathBuf::from(OPENINGS);
        let mut config = MatchConfig::new(
            name,
            [candidate, rival],
            TimeControl::parse(tc)?,
            games.div_ceil(2),
            self.root.join(&openings),
        );
        config.openings_label = OPENINGS.into();
        config.concurrency = concurrency;
        config.adjudication = Adjudication::NONE;
        config.move_overhead_ms = Some(MOVE_OVERHEAD_MS);
        config.progress = true;
        play_and_store(&config, &self.interrupt, &self.root.join("snapshots/games"))?;
        if self.interrupt.load(Ordering::Relaxed) {
            return Err("the soak was interrupted".into());
        }
        Ok(())
    }
}
