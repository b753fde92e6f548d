//! A match: game pairs between two engines, several at once, until the planned number is played,
//! the SPRT reaches a verdict, or the user presses Ctrl-C.
//!
//! Each worker thread owns one process of each engine and plays whole pairs: pair `i` plays opening
//! `i` twice, once with each engine as White, the first engine White first in even pairs and
//! second in odd ones ([`first_engine_is_white`]). The main thread
//! collects finished games, keeps the counts, shows progress, and stops the workers. A stop (SPRT
//! verdict or interrupt) abandons the games in progress: they are not scored, their engines are
//! ended, and the record holds exactly the games that finished. W/D/L count every finished game;
//! the pentanomial counts (and so the LLR) count finished pairs only.

use crate::adjudication::Adjudication;
use crate::bench::{self, Machine};
use crate::game::{Fault, Game, GameSettings, Player, play_game};
use crate::openings::{self, Opening};
use crate::pgn::{self, PgnHeader};
use crate::record::{
    self, Counts, EngineRecord, FaultCounts, MatchRecord, OpeningsRecord, RunRecord, Summary,
};
use crate::spec::{EngineSpec, TimeControl};
use crate::stats::{self, Pentanomial, SprtParams, Verdict};
use crate::uci::UciEngine;
use cozy_chess::Color;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{RecvTimeoutError, Sender, channel};
use std::time::{Duration, Instant};

/// The option names engines use for a move overhead (Stockfish `Move Overhead`, Ethereal
/// `MoveOverhead`): time an engine keeps in reserve for the pipe and the operating system.
pub const MOVE_OVERHEAD_OPTIONS: [&str; 2] = ["Move Overhead", "MoveOverhead"];

/// How long `<engine> bench` may take before the signature is given up.
pub const BENCH_TIMEOUT: Duration = Duration::from_secs(120);

/// Everything a match needs.
#[derive(Debug, Clone)]
pub struct MatchConfig {
    /// The record's name (file stem).
    pub name: String,
    /// The first engine is the candidate: W/D/L and Elo are its.
    pub engines: [EngineSpec; 2],
    pub time_control: TimeControl,
    /// Game pairs to play at most.
    pub pairs: usize,
    /// Games played at once (each needs two engine processes).
    pub concurrency: usize,
    pub openings_file: PathBuf,
    /// The openings file as the record names it (e.g. relative to the repository).
    pub openings_label: String,
    pub seed: u64,
    pub adjudication: Adjudication,
    pub sprt: Option<SprtParams>,
    pub time_margin: Duration,
    pub move_timeout: Duration,
    /// Set as `Move Overhead` / `MoveOverhead` on engines that advertise one, unless their spec
    /// sets it already.
    pub move_overhead_ms: Option<u64>,
    /// Run `<cmd> bench` for signatures (engines may also opt out in their spec).
    pub bench: bool,
    /// Draw a progress bar on the terminal.
    pub progress: bool,
    /// A record to add this match's games to (`cargo xtask match --resume`): the match goes on at
    /// its first unplayed opening pair, counts on from its counts (the SPRT too), and `pairs`
    /// more pairs are planned.
    pub previous: Option<MatchRecord>,
}

impl MatchConfig {
    /// A configuration with the arena's defaults: fishtest adjudication, 100 ms margin, one game at a
    /// time, seed 1, bench signatures, no SPRT, no progress bar.
    pub fn new(
        name: &str,
        engines: [EngineSpec; 2],
        time_control: TimeControl,
        pairs: usize,
        openings: PathBuf,
    ) -> Self {
        MatchConfig {
            name: name.to_string(),
            engines,
            time_control,
            pairs,
            concurrency: 1,
            openings_label: openings.display().to_string(),
            openings_file: openings,
            seed: 1,
            adjudication: Adjudication::FISHTEST,
            sprt: None,
            time_margin: Duration::from_millis(100),
            move_timeout: Duration::from_secs(60),
            move_overhead_ms: None,
            bench: true,
            progress: false,
            previous: None,
        }
    }

    fn validate(&self) -> Result<(), String> {
        if self.pairs == 0 {
            return Err("a match needs at least one game pair".into());
        }
        if self.concurrency == 0 {
            return Err("concurrency must be at least 1".into());
        }
        if self.engines[0].name == self.engines[1].name {
            return Err(format!(
                "both engines are named `{}`: give them distinct name= fields",
                self.engines[0].name
            ));
        }
        if self.name.is_empty() || self.name.contains(['/', '\\']) {
            return Err(format!("bad record name `{}`", self.name));
        }
        self.sprt.as_ref().map_or(Ok(()), SprtParams::validate)
    }
}

/// A finished match: the record and the PGN of its games.
#[derive(Debug, Clone)]
pub struct MatchReport {
    pub record: MatchRecord,
    pub pgn: String,
}

/// Plays the match. `interrupt` is the caller's stop request (Ctrl-C): the match then abandons the
/// games in progress and still returns its record. Errors are for a match that cannot start (an
/// engine that does not start or lacks an option, a bad openings file, bad parameters).
pub fn run_match(config: &MatchConfig, interrupt: &AtomicBool) -> Result<MatchReport, String> {
    config.validate()?;
    let first_pair = config
        .previous
        .as_ref()
        .map_or(0, |previous| previous.next_pair.unwrap_or(0));
    let openings = openings::choose(
        &config.openings_file,
        first_pair + config.pairs,
        config.seed,
    )?;
    let mut specs = config.engines.clone();
    let mut engine_records = Vec::new();
    for spec in &mut specs {
        let probe = probe_engine(spec, config.move_overhead_ms)?;
        let bench = (config.bench && spec.bench)
            .then(|| bench::signature(spec, BENCH_TIMEOUT))
            .flatten();
        engine_records.push(EngineRecord {
            name: spec.name.clone(),
            cmd: spec.recorded_cmd(),
            args: spec.args.clone(),
            options: spec.options.clone(),
            id_name: probe.id_name.clone(),
            bench,
        });
    }
    let engines: [EngineRecord; 2] = engine_records.try_into().expect("two engines");
    let mut record = MatchRecord {
        format: record::FORMAT,
        name: config.name.clone(),
        date: bench::utc_now(),
        duration_s: 0.0,
        machine: Machine::this(),
        load: None,
        engines,
        time_control: config.time_control.to_string(),
        time_margin_ms: config.time_margin.as_millis() as u64,
        openings: OpeningsRecord {
            file: config.openings_label.clone(),
            seed: config.seed,
        },
        concurrency: config.concurrency,
        adjudication: config.adjudication,
        sprt: config.sprt,
        pairs_planned: config.pairs,
        stopped_by: String::new(),
        counts: Counts::default(),
        verdict: String::new(),
        summary: Summary::of(&Counts::default(), None),
        pgn: format!("{}.pgn", config.name),
        next_pair: None,
        runs: Vec::new(),
    };
    if let Some(previous) = &config.previous {
        previous.resumable_by(&record)?;
    }
    let started = Instant::now();
    let settings = GameSettings {
        time_control: config.time_control,
        time_margin: config.time_margin,
        move_timeout: config.move_timeout,
        adjudication: config.adjudication,
    };
    let load = bench::LoadSampler::start();
    let earlier = config.previous.as_ref().map(|p| &p.counts);
    let played = play_pairs(
        config, &specs, &openings, first_pair, earlier, &settings, interrupt,
    );
    let load = load.finish();
    let verdict = record::verdict(config.sprt.as_ref(), &played.counts);
    let header = PgnHeader {
        event: config.name.clone(),
        site: "cb2026 arena".into(),
        date: record.date[..10].replace('-', "."),
        time_control: config.time_control,
    };
    let pgn: String = played
        .games
        .iter()
        .map(|(round, game)| pgn::write_game(game, &header, round))
        .collect();
    record.duration_s = (started.elapsed().as_secs_f64() * 10.0).round() / 10.0;
    record.load = load;
    record.runs = vec![RunRecord {
        date: record.date.clone(),
        duration_s: record.duration_s,
        games: played.games.len() as u64,
        concurrency: config.concurrency,
        machine: record.machine.clone(),
        load: record.load.clone(),
    }];
    record.stopped_by = played.stopped_by.to_string();
    record.summary = Summary::of(&played.counts, config.sprt.as_ref());
    record.verdict = verdict.label().to_string();
    record.counts = played.counts;
    record.next_pair = Some(played.next_pair);
    match &config.previous {
        None => Ok(MatchReport { record, pgn }),
        Some(previous) => Ok(MatchReport {
            record: added_to(previous, record),
            pgn,
        }),
    }
}

/// `run` (whose counts already include the earlier runs') as a continuation of `previous`: the
/// first run's date and engine commands, the durations added, every run listed, the load of all
/// of them together.
fn added_to(previous: &MatchRecord, run: MatchRecord) -> MatchRecord {
    let mut runs = previous.runs.clone();
    runs.extend(run.runs);
    MatchRecord {
        date: previous.date.clone(),
        duration_s: ((previous.duration_s + run.duration_s) * 10.0).round() / 10.0,
        engines: previous.engines.clone(),
        load: record::combined_load(&runs),
        pairs_planned: previous.pairs_planned + run.pairs_planned,
        runs,
        ..run
    }
}

/// Starts the engine once, before any game: fails early on a bad command or an unknown option, and
/// completes the spec's options with the move overhead if the engine advertises one.
fn probe_engine(spec: &mut EngineSpec, move_overhead_ms: Option<u64>) -> Result<UciEngine, String> {
    let mut engine = UciEngine::start(spec).map_err(|e| format!("engine {}: {e}", spec.name))?;
    if let Some(ms) = move_overhead_ms
        && !MOVE_OVERHEAD_OPTIONS
            .iter()
            .any(|o| spec.option_value(o).is_some())
        && let Some(name) = MOVE_OVERHEAD_OPTIONS.iter().find(|o| engine.advertises(o))
    {
        spec.options.push((name.to_string(), ms.to_string()));
    }
    // The error names the engine already.
    engine.configure(&spec.options).map_err(|e| e.to_string())?;
    Ok(engine)
}

/// A finished game as a worker reports it.
struct Finished {
    pair: usize,
    /// 0: the pair's first game; 1: its second, colours reversed.
    leg: usize,
    game: Game,
}

/// What the games gave.
struct Played {
    /// This run's games added to the earlier runs' counts.
    counts: Counts,
    /// One past the last opening pair any game of this run (or an earlier one) was played from.
    next_pair: usize,
    /// (PGN round, game), in pair order.
    games: Vec<(String, Game)>,
    stopped_by: &'static str,
}

/// Plays pairs `first_pair..` of `openings`, counting on from `earlier` (a resumed match's).
fn play_pairs(
    config: &MatchConfig,
    specs: &[EngineSpec; 2],
    openings: &[Opening],
    first_pair: usize,
    earlier: Option<&Counts>,
    settings: &GameSettings,
    interrupt: &AtomicBool,
) -> Played {
    let abort = AtomicBool::new(false);
    let next_pair = AtomicUsize::new(first_pair);
    let (sender, receiver) = channel();
    let progress = progress_bar(config);
    let mut tally = Tally {
        counts: earlier.cloned().unwrap_or_default(),
        ..Tally::default()
    };
    let mut stopped_by = "completed";
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.min(config.pairs) {
            let sender = sender.clone();
            let (abort, next_pair) = (&abort, &next_pair);
            scope.spawn(move || worker(specs, openings, settings, abort, next_pair, sender));
        }
        drop(sender);
        loop {
            if interrupt.load(Ordering::Relaxed) && !abort.load(Ordering::Relaxed) {
                stopped_by = "interrupted";
                abort.store(true, Ordering::Relaxed);
            }
            match receiver.recv_timeout(Duration::from_millis(100)) {
                Ok(finished) => {
                    let pair_done = tally.add(finished, &specs[0].name);
                    if pair_done
                        && let Some(sprt) = &config.sprt
                        && sprt.verdict(record::llr(sprt, &tally.counts)) != Verdict::Continue
                        && !abort.load(Ordering::Relaxed)
                    {
                        stopped_by = "sprt";
                        abort.store(true, Ordering::Relaxed);
                    }
                    progress.set_position(tally.counts.games);
                    progress.set_message(status_line(&tally.counts, config.sprt.as_ref()));
                    log_progress_without_a_terminal(config, &tally.counts);
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
    });
    progress.abandon();
    let mut games = tally.games;
    games.sort_by_key(|(order, _, _)| *order);
    let next_pair = games
        .last()
        .map_or(first_pair, |(order, _, _)| order / 2 + 1);
    Played {
        next_pair,
        counts: tally.counts,
        games: games
            .into_iter()
            .map(|(_, round, game)| (round, game))
            .collect(),
        stopped_by,
    }
}

/// A worker: plays pairs until there are none left or the match stops. Dropping its players at
/// the end ends their engine processes.
fn worker(
    specs: &[EngineSpec; 2],
    openings: &[Opening],
    settings: &GameSettings,
    abort: &AtomicBool,
    next_pair: &AtomicUsize,
    results: Sender<Finished>,
) {
    let mut players = [Player::new(specs[0].clone()), Player::new(specs[1].clone())];
    while !abort.load(Ordering::Relaxed) {
        let pair = next_pair.fetch_add(1, Ordering::Relaxed);
        let Some(opening) = openings.get(pair) else {
            return;
        };
        for leg in 0..2 {
            let [first, second] = &mut players;
            let seats = if first_engine_is_white(pair, leg) {
                [first, second]
            } else {
                [second, first]
            };
            let Some(game) = play_game(seats, opening, settings, abort) else {
                return;
            };
            if results.send(Finished { pair, leg, game }).is_err() {
                return;
            }
        }
    }
}

/// Whether the first engine has White in game `leg` (0 or 1) of pair `pair`: in the first game of
/// even pairs and the second of odd ones.
///
/// Both engines play White once per pair whatever the order; alternating the order keeps the
/// engine's slot from being tied to the game's place in its pair. With the first engine always
/// White first, anything that differs between a pair's first and second game (what the
/// processes did just before, which game the other worker is playing at the time) would be
/// counted as a difference between the engines, and self-play matches played that way gave the
/// second engine the better score (`snapshots/games/soak-*-self.json`: 336 games each,
/// −24.9 ± 27.0 and −29.0 ± 30.0 Elo for the first engine).
pub fn first_engine_is_white(pair: usize, leg: usize) -> bool {
    (pair + leg).is_multiple_of(2)
}

/// Running counts, and the first game of each unfinished pair.
#[derive(Default)]
struct Tally {
    counts: Counts,
    /// First engine's points in the pair's first finished game, by pair.
    half_pairs: std::collections::BTreeMap<usize, f64>,
    /// (order, PGN round, game).
    games: Vec<(usize, String, Game)>,
}

impl Tally {
    /// Counts a finished game; returns whether it completed a pair.
    fn add(&mut self, finished: Finished, first_engine: &str) -> bool {
        let Finished { pair, leg, game } = finished;
        let first_color = if game.white == first_engine {
            Color::White
        } else {
            Color::Black
        };
        let points = game.result.points_for(first_color);
        let c = &mut self.counts;
        c.games += 1;
        if points == 1.0 {
            c.wins += 1;
        } else if points == 0.0 {
            c.losses += 1;
        } else {
            c.draws += 1;
        }
        *c.terminations
            .entry(game.termination.key().to_string())
            .or_default() += 1;
        for (color, protocol) in [Color::White, Color::Black].into_iter().zip(game.protocol) {
            let faults = &mut c.faults[usize::from(color != first_color)];
            faults.protocol_errors += protocol.errors;
            faults.unanswered += protocol.unanswered;
        }
        if let Some((side, fault)) = game.termination.fault() {
            let engine = usize::from(side != first_color);
            let faults = &mut c.faults[engine];
            match fault {
                Fault::Illegal => faults.illegal += 1,
                Fault::Crash => faults.crash += 1,
                Fault::Time => faults.time += 1,
            }
        }
        self.games
            .push((2 * pair + leg, format!("{}.{}", pair + 1, leg + 1), game));
        match self.half_pairs.remove(&pair) {
            Some(other) => {
                let mut p = Pentanomial(c.pentanomial);
                p.add_pair(other, points);
                c.pentanomial = p.0;
                true
            }
            None => {
                self.half_pairs.insert(pair, points);
                false
            }
        }
    }
}

/// Games between two progress lines when standard error is not a terminal.
const GAMES_PER_LOG_LINE: u64 = 20;

/// The progress bar draws only on a terminal. A match whose output goes to a file (run in the
/// background, or by CI) instead gets a plain status line every [`GAMES_PER_LOG_LINE`] games, so
/// an hour-long run can be followed with `tail`.
fn log_progress_without_a_terminal(config: &MatchConfig, counts: &Counts) {
    use std::io::IsTerminal;
    if config.progress
        && !std::io::stderr().is_terminal()
        && counts.games.is_multiple_of(GAMES_PER_LOG_LINE)
    {
        eprintln!(
            "{}/{} games  {}",
            counts.games,
            games_planned(config),
            status_line(counts, config.sprt.as_ref())
        );
    }
}

/// The games the progress counts up to: a resumed match's earlier games and this run's.
fn games_planned(config: &MatchConfig) -> u64 {
    let earlier = config.previous.as_ref().map_or(0, |p| p.counts.games);
    earlier + 2 * config.pairs as u64
}

fn progress_bar(config: &MatchConfig) -> ProgressBar {
    if !config.progress {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(games_planned(config));
    let style =
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} games  {msg}")
            .map(|s| s.progress_chars("=> "))
            .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar.enable_steady_tick(Duration::from_millis(500));
    bar
}

/// `+12 =30 -8  score 54.0%  Elo +13.9 ± 41.2  LLR 0.31 [-2.94, 2.94]`.
pub fn status_line(counts: &Counts, sprt: Option<&SprtParams>) -> String {
    let summary = Summary::of(counts, sprt);
    let mut line = format!(
        "+{} ={} -{}  score {:.1}%",
        counts.wins, counts.draws, counts.losses, summary.score_pct
    );
    if let (Some(elo), Some(error)) = (summary.elo, summary.elo_error) {
        // Rounded first, so that a tiny negative Elo is not shown as "-0.0".
        let elo = (elo * 10.0).round() / 10.0 + 0.0;
        line += &format!("  Elo {elo:+.1} ± {error:.1}");
    }
    if let (Some(sprt), Some(llr)) = (sprt, summary.llr) {
        let (lower, upper) = sprt.bounds();
        line += &format!("  LLR {llr:.2} [{lower:.2}, {upper:.2}]");
    }
    let faults: u64 = counts.faults.iter().map(FaultCounts::total).sum();
    if faults > 0 {
        line += &format!("  faults {faults}");
    }
    line
}

/// The verdict a stopped match reports, for callers that print it.
pub fn verdict_of(report: &MatchReport) -> Verdict {
    record::verdict(report.record.sprt.as_ref(), &report.record.counts)
}

/// Elo ± error of a finished match from its counts (pentanomial if any pair finished).
pub fn elo_of(counts: &Counts) -> Option<stats::EloEstimate> {
    let summary = Summary::of(counts, None);
    summary
        .elo
        .zip(summary.elo_error)
        .map(|(elo, error)| stats::EloEstimate { elo, error })
}
