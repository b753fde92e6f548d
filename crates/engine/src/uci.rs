//! The UCI protocol and the console commands (chapters 5 and 15).
//!
//! A [`Session`] holds what the GUI has told the engine (the position, the options) and answers
//! one line at a time: [`Session::handle`] splits the line into a command word and its
//! arguments and calls the method of that command. The protocol is the one Stefan Meyer-Kahlen
//! published with Shredder in 2000 ("Description of the universal chess interface (UCI)",
//! April 2006 revision); the console commands (`d`, `eval`, `bench`, `perft`, `set`,
//! `switches`) are not UCI, they are for people and for the book.
//!
//! `go` starts the search on a thread of its own, so that the session keeps reading: `isready`
//! is answered at once, `stop` and `ponderhit` reach the search while it thinks. The thread owns
//! the [`Searcher`] while it runs and gives it back when it ends; commands that need it (a new
//! `go`, `ucinewgame`, `setoption name Hash`, `bench`) are refused while a search runs, as UCI
//! forbids sending them then. Every `go` is answered by exactly one `bestmove`.
//!
//! Bad input never changes the state: it is answered with `info string error: <what is wrong>`
//! (UCI has no error message; GUIs show `info string`), and no input makes the session panic.

use crate::bench;
use crate::eval;
use crate::moves::Move;
use crate::perft;
use crate::position::Position;
use crate::search::{Limits, MAX_DEPTH, Score, SearchInfo, Searcher};
use crate::square::Color;
use crate::switches::{SWITCHES, Switches};
use crate::time::{self, Budget, Clock};
use std::fmt;
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// What the caller should do after a line was handled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// `quit` was received: stop.
    Quit,
}

/// Why a command failed.
#[derive(Debug)]
pub enum CommandError {
    /// The input was wrong: reported to the GUI, the state is unchanged.
    Input(String),
    /// Writing the answer failed: the session cannot go on.
    Io(io::Error),
}

impl From<io::Error> for CommandError {
    fn from(error: io::Error) -> CommandError {
        CommandError::Io(error)
    }
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Input(message) => f.write_str(message),
            CommandError::Io(error) => write!(f, "output error: {error}"),
        }
    }
}

/// A bad-input error with `message`.
fn input_error<T>(message: impl Into<String>) -> Result<T, CommandError> {
    Err(CommandError::Input(message.into()))
}

/// Where answers go. The session and its search thread share it, and each writes whole lines
/// under its lock, so an `info` line from the search never splits a `readyok`.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl fmt::Debug for Output {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Output")
    }
}

impl Output {
    /// Answers written to `writer` (standard output, or a buffer in tests).
    pub fn new(writer: impl Write + Send + 'static) -> Output {
        Output(Arc::new(Mutex::new(Box::new(writer))))
    }

    /// The writer, for a command that writes many lines at once. A thread that panicked while
    /// holding it cannot have left half a line in a `Write`, so a poisoned lock is used anyway.
    fn lock(&self) -> MutexGuard<'_, Box<dyn Write + Send>> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Writes one line and flushes it: a GUI waits for whole lines.
    fn line(&self, text: &str) -> io::Result<()> {
        let mut writer = self.lock();
        writeln!(writer, "{text}")?;
        writer.flush()
    }
}

/// A shared in-memory writer: what a test hands to [`Output::new`] to read the answers back.
#[derive(Clone, Debug, Default)]
pub struct SharedBuffer(Arc<Mutex<Vec<u8>>>);

impl SharedBuffer {
    /// Everything written so far, as text.
    pub fn text(&self) -> String {
        let bytes = self.0.lock().unwrap_or_else(|p| p.into_inner());
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// Forgets what was written.
    pub fn clear(&self) {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).clear();
    }
}

impl Write for SharedBuffer {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let mut buffer = self.0.lock().unwrap_or_else(|p| p.into_inner());
        buffer.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The default table size in MB (the same as bench's).
pub const DEFAULT_HASH_MB: usize = 16;
/// The largest `Hash`: 64 GB. A size the machine cannot give is refused when it is set.
pub const MAX_HASH_MB: usize = 65_536;

/// The type of a UCI option and its limits, as the `uci` answer lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OptionKind {
    Spin { default: u64, min: u64, max: u64 },
    Check { default: bool },
    Button,
}

/// The options besides the switches, in the order `uci` lists them. Threads is 1 until
/// chapter 17 brings Lazy SMP. Ponder tells the GUI that the engine can think on the
/// opponent's time (`go ponder`); its value changes nothing here.
const OPTIONS: [(&str, OptionKind); 5] = [
    (
        "Hash",
        OptionKind::Spin {
            default: DEFAULT_HASH_MB as u64,
            min: 1,
            max: MAX_HASH_MB as u64,
        },
    ),
    (
        "Threads",
        OptionKind::Spin {
            default: 1,
            min: 1,
            max: 1,
        },
    ),
    ("Clear Hash", OptionKind::Button),
    (
        "Move Overhead",
        OptionKind::Spin {
            default: time::DEFAULT_MOVE_OVERHEAD_MS,
            min: 0,
            max: time::MAX_MOVE_OVERHEAD_MS,
        },
    ),
    ("Ponder", OptionKind::Check { default: false }),
];

/// The `option` line of the `uci` answer for one option.
fn option_line(name: &str, kind: OptionKind) -> String {
    match kind {
        OptionKind::Spin { default, min, max } => {
            format!("option name {name} type spin default {default} min {min} max {max}")
        }
        OptionKind::Check { default } => format!("option name {name} type check default {default}"),
        OptionKind::Button => format!("option name {name} type button"),
    }
}

/// The options' values. The switches live here and are handed to the searcher when a search
/// starts, so that they can be set (for the next search) even while one runs.
#[derive(Clone, Copy, Debug)]
struct Settings {
    hash_mb: usize,
    move_overhead: Duration,
    switches: Switches,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            hash_mb: DEFAULT_HASH_MB,
            move_overhead: time::default_overhead(),
            switches: Switches::default(),
        }
    }
}

/// The parameters of `go`, as UCI names them. Times are in milliseconds on the wire; a negative
/// time (some GUIs send one when the clock has run out) counts as zero.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    pub wtime: Option<Duration>,
    pub btime: Option<Duration>,
    pub winc: Option<Duration>,
    pub binc: Option<Duration>,
    pub movestogo: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Look for a mate in this many moves: the search stops when it finds one.
    pub mate: Option<u32>,
    pub movetime: Option<Duration>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Think on the opponent's time: the position is the one after the move the engine expects
    /// the opponent to play; `ponderhit` says it was played, `stop` that it was not.
    pub ponder: bool,
    /// Only these root moves (not supported by the search: answered with a note).
    pub searchmoves: Vec<Move>,
}

/// The words `go` knows; `searchmoves` reads moves until the next of them.
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

impl Go {
    /// Reads the arguments of `go` in `position` (for `searchmoves`).
    pub fn parse(args: &[&str], position: &Position) -> Result<Go, String> {
        let mut go = Go::default();
        let mut seen: Vec<&str> = Vec::new();
        let mut words = args.iter().copied().peekable();
        while let Some(word) = words.next() {
            if !GO_KEYWORDS.contains(&word) {
                return Err(format!("go: unknown parameter '{}'", shorten(word)));
            }
            if seen.contains(&word) {
                return Err(format!("go: {word} given twice"));
            }
            seen.push(word);
            if word == "infinite" {
                go.infinite = true;
                continue;
            }
            if word == "ponder" {
                go.ponder = true;
                continue;
            }
            if word == "searchmoves" {
                while let Some(text) = words.next_if(|w| !GO_KEYWORDS.contains(w)) {
                    let m = position
                        .parse_uci_move(text)
                        .map_err(|e| format!("go: searchmoves: {e}"))?;
                    go.searchmoves.push(m);
                }
                if go.searchmoves.is_empty() {
                    return Err("go: searchmoves needs at least one move".to_string());
                }
                continue;
            }
            let Some(value) = words.next() else {
                return Err(format!("go: {word} needs a value"));
            };
            match word {
                "wtime" => go.wtime = Some(parse_millis(word, value)?),
                "btime" => go.btime = Some(parse_millis(word, value)?),
                "winc" => go.winc = Some(parse_millis(word, value)?),
                "binc" => go.binc = Some(parse_millis(word, value)?),
                "movetime" => go.movetime = Some(parse_millis(word, value)?),
                "movestogo" => go.movestogo = Some(parse_count(word, value, u32::MAX)?),
                "depth" => go.depth = Some(parse_count(word, value, MAX_DEPTH)?),
                "mate" => go.mate = Some(parse_count(word, value, MAX_DEPTH)?),
                _ => go.nodes = Some(parse_count(word, value, u64::MAX)?),
            }
        }
        Ok(go)
    }

    /// The clock of the side to move, if `go` gave one. Giving only the opponent's time is an
    /// error: the engine would otherwise think without limit while its own clock runs.
    pub fn clock(&self, side: Color) -> Result<Option<Clock>, String> {
        let (ours, theirs, increment, name) = match side {
            Color::White => (self.wtime, self.btime, self.winc, "wtime"),
            Color::Black => (self.btime, self.wtime, self.binc, "btime"),
        };
        match (ours, theirs) {
            (Some(remaining), _) => Ok(Some(Clock {
                remaining,
                increment: increment.unwrap_or_default(),
                moves_to_go: self.movestogo,
            })),
            (None, Some(_)) => Err(format!("go: {name} is missing for the side to move")),
            (None, None) => Ok(None),
        }
    }

    /// The time limits of this `go`: the tighter of the clock's and `movetime`'s, or none.
    pub fn budget(&self, side: Color, overhead: Duration) -> Result<Option<Budget>, String> {
        let from_clock = self.clock(side)?.map(|c| time::clock_budget(&c, overhead));
        let from_movetime = self.movetime.map(|t| time::movetime_budget(t, overhead));
        Ok(match (from_clock, from_movetime) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        })
    }
}

/// A time in milliseconds; negative times count as zero.
fn parse_millis(name: &str, text: &str) -> Result<Duration, String> {
    match text.parse::<i64>() {
        Ok(ms) => Ok(Duration::from_millis(ms.max(0) as u64)),
        Err(_) => Err(format!(
            "go: {name} '{}' is not a whole number of milliseconds",
            shorten(text)
        )),
    }
}

/// A count from 1 to `max`.
fn parse_count<T>(name: &str, text: &str, max: T) -> Result<T, String>
where
    T: std::str::FromStr + PartialOrd + From<u8> + fmt::Display + Copy,
{
    match text.parse::<T>() {
        Ok(n) if n >= T::from(1) && n <= max => Ok(n),
        _ => Err(format!(
            "go: {name} '{}' is not a whole number from 1 to {max}",
            shorten(text)
        )),
    }
}

/// What the session and a running search share.
#[derive(Debug, Default)]
struct SearchControl {
    /// Tells the search to end (`stop`, `quit`, `ponderhit`, a `mate` found).
    stop: AtomicBool,
    /// Set under the output lock just before `bestmove` is written: from then on the search
    /// thread only returns the searcher, so a command that needs it may wait for it.
    answered: AtomicBool,
    /// Set by `ponderhit`: the ponder search ends without a `bestmove`, the real one replaces it.
    silent: AtomicBool,
}

/// A search running on its thread.
#[derive(Debug)]
struct RunningSearch {
    thread: JoinHandle<Searcher>,
    control: Arc<SearchControl>,
    /// Whether it waits for `stop` (`go infinite`, `go ponder`).
    infinite: bool,
    /// For `go ponder`: the position and the `go` to search for real when `ponderhit` comes.
    ponder: Option<(Position, Go)>,
}

/// The engine's state between commands.
#[derive(Debug)]
pub struct Session {
    position: Position,
    out: Output,
    settings: Settings,
    /// The searcher while no search runs; a running search holds it.
    searcher: Option<Searcher>,
    search: Option<RunningSearch>,
}

impl Session {
    /// A session at the start position, answering on `out`.
    pub fn new(out: Output) -> Session {
        let settings = Settings::default();
        Session {
            position: Position::startpos(),
            out,
            searcher: Some(Searcher::new(settings.hash_mb)),
            settings,
            search: None,
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Whether a search is running: it has not answered `bestmove`, and its thread has not
    /// ended (it would only end without answering by panicking, a bug the session survives).
    pub fn searching(&self) -> bool {
        self.search
            .as_ref()
            .is_some_and(|s| !s.control.answered.load(Ordering::Acquire) && !s.thread.is_finished())
    }

    /// Handles one line of input. Errors in the input are answered on the output; only a
    /// failure to write is returned as an error.
    pub fn handle(&mut self, line: &str) -> io::Result<Flow> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            return Ok(Flow::Continue);
        };
        let result = match command {
            "uci" => self.uci(),
            "debug" => self.debug(args),
            "isready" => self.out.line("readyok").map_err(CommandError::from),
            "register" => Ok(()),
            "setoption" => self.set_option(args),
            "ucinewgame" => self.new_game(),
            "position" => self.set_position(args),
            "go" => self.go(args),
            "stop" => self.stop(),
            "ponderhit" => self.ponder_hit(),
            "quit" => {
                self.end_search(true);
                return Ok(Flow::Quit);
            }
            "d" => self.display(),
            "eval" => self.eval(),
            "bench" => self.bench(args),
            "perft" => self.perft(args),
            "set" => self.set_switch(args),
            "switches" => self.list_switches(),
            _ => input_error(format!("unknown command '{}'", shorten(command))),
        };
        match result {
            Ok(()) => Ok(Flow::Continue),
            Err(CommandError::Input(message)) => {
                self.out.line(&format!("info string error: {message}"))?;
                Ok(Flow::Continue)
            }
            Err(CommandError::Io(error)) => Err(error),
        }
    }

    /// Ends the session when the input ends: a search that ends by itself is waited for (so
    /// `echo "go depth 8" | cb2026` prints its move), one that waits for `stop` is stopped.
    pub fn finish(&mut self) {
        let infinite = self.search.as_ref().is_some_and(|s| s.infinite);
        self.end_search(infinite);
    }

    /// `uci`: identify, list the options, then `uciok`.
    fn uci(&mut self) -> Result<(), CommandError> {
        let mut lines = vec![
            format!("id name cb2026 {}", env!("CARGO_PKG_VERSION")),
            "id author the cb2026 authors".to_string(),
        ];
        lines.extend(OPTIONS.iter().map(|&(name, kind)| option_line(name, kind)));
        lines.extend(SWITCHES.iter().map(|info| {
            option_line(
                info.name,
                OptionKind::Check {
                    default: info.default,
                },
            )
        }));
        lines.push("uciok".to_string());
        self.out.line(&lines.join("\n"))?;
        Ok(())
    }

    /// `debug on|off`: accepted, and changes nothing: the engine has no more to say in debug
    /// mode than its `info` lines already do.
    fn debug(&mut self, args: &[&str]) -> Result<(), CommandError> {
        match args {
            ["on" | "off"] => Ok(()),
            _ => input_error("debug: expected 'debug on' or 'debug off'"),
        }
    }

    /// `setoption name <name> [value <value>]`. Names are case-insensitive and may have spaces
    /// (`Move Overhead`); the value is checked against the option's type and range before
    /// anything changes.
    fn set_option(&mut self, args: &[&str]) -> Result<(), CommandError> {
        let Some((&"name", rest)) = args.split_first() else {
            return input_error("setoption: expected 'setoption name <name> [value <value>]'");
        };
        let value_at = rest.iter().position(|w| w.eq_ignore_ascii_case("value"));
        let (name_words, value) = match value_at {
            Some(i) => (&rest[..i], Some(rest[i + 1..].join(" "))),
            None => (rest, None),
        };
        let name = name_words.join(" ");
        if name.is_empty() {
            return input_error("setoption: missing option name");
        }
        if let Some(&(canonical, kind)) =
            OPTIONS.iter().find(|(n, _)| n.eq_ignore_ascii_case(&name))
        {
            return self.set_engine_option(canonical, kind, value.as_deref());
        }
        if let Ok(info) = Switches::info(&name) {
            let on = check_value(info.name, value.as_deref())?;
            self.settings
                .switches
                .set(info.name, on)
                .map_err(|e| CommandError::Input(e.to_string()))?;
            return Ok(());
        }
        input_error(format!("setoption: unknown option '{}'", shorten(&name)))
    }

    /// Sets one of [`OPTIONS`] after checking its value.
    fn set_engine_option(
        &mut self,
        name: &str,
        kind: OptionKind,
        value: Option<&str>,
    ) -> Result<(), CommandError> {
        match kind {
            OptionKind::Spin { min, max, .. } => {
                let n = spin_value(name, value, min, max)?;
                match name {
                    "Hash" => self.resize_hash(n as usize),
                    "Move Overhead" => {
                        self.settings.move_overhead = Duration::from_millis(n);
                        Ok(())
                    }
                    _ => Ok(()), // Threads: 1 is the only value in range.
                }
            }
            // Ponder: the GUI says whether it will send `go ponder`; the engine ponders only
            // when told to, so the value is checked and needs no keeping.
            OptionKind::Check { .. } => check_value(name, value).map(drop),
            OptionKind::Button => {
                self.idle_searcher("setoption name Clear Hash")?.clear();
                Ok(())
            }
        }
    }

    /// `Hash`: a new, empty table of `mb` megabytes. If the memory cannot be had, the table
    /// goes back to its old size and the error says so.
    fn resize_hash(&mut self, mb: usize) -> Result<(), CommandError> {
        let old = self.settings.hash_mb;
        let searcher = self.idle_searcher("setoption name Hash")?;
        if let Err(error) = searcher.set_hash(mb) {
            let _ = searcher.set_hash(old);
            return input_error(format!("setoption: Hash: {error}; kept {old} MB"));
        }
        self.settings.hash_mb = mb;
        Ok(())
    }

    /// `ucinewgame`: forget the previous game (table and histories), so a game does not depend
    /// on the ones before it.
    fn new_game(&mut self) -> Result<(), CommandError> {
        self.idle_searcher("ucinewgame")?.clear();
        Ok(())
    }

    /// `position startpos|fen <FEN> [moves <move>...]`. The new position is built aside and
    /// replaces the current one only if every part is valid.
    fn set_position(&mut self, args: &[&str]) -> Result<(), CommandError> {
        let moves_at = args.iter().position(|&word| word == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let mut position = match setup.split_first() {
            Some((&"startpos", [])) => Position::startpos(),
            Some((&"startpos", extra)) => {
                return input_error(format!(
                    "position: unexpected '{}' after startpos",
                    shorten(extra[0])
                ));
            }
            Some((&"fen", fields)) => match Position::from_fen(&fields.join(" ")) {
                Ok(position) => position,
                Err(error) => return input_error(format!("position: bad FEN: {error}")),
            },
            _ => return input_error("position: expected 'startpos' or 'fen <FEN>'"),
        };
        for text in moves {
            match position.parse_uci_move(text) {
                Ok(m) => position.make_move(m),
                Err(error) => return input_error(format!("position: {error}; position unchanged")),
            }
        }
        self.position = position;
        Ok(())
    }

    /// `go ...`: checks every parameter, then starts the search on its own thread.
    fn go(&mut self, args: &[&str]) -> Result<(), CommandError> {
        let go = Go::parse(args, &self.position).map_err(CommandError::Input)?;
        go.budget(self.position.side_to_move(), self.settings.move_overhead)
            .map_err(CommandError::Input)?;
        self.idle_searcher("go")?;
        if !go.searchmoves.is_empty() {
            self.out.line(
                "info string error: go: searchmoves is not supported; searching every move",
            )?;
        }
        self.start_search(self.position.clone(), go, Instant::now());
        Ok(())
    }

    /// Starts searching `position` as `go` says, the clock having started at `start`.
    fn start_search(&mut self, position: Position, go: Go, start: Instant) {
        let Some(mut searcher) = self.searcher.take() else {
            return; // Callers make sure the searcher is here.
        };
        if searcher.switches() != self.settings.switches {
            searcher.set_switches(self.settings.switches);
        }
        let budget = go
            .budget(position.side_to_move(), self.settings.move_overhead)
            .unwrap_or(None);
        let limits = search_limits(&go, budget, start);
        let mate = (!limits.infinite).then_some(go.mate).flatten();
        let control = Arc::new(SearchControl::default());
        let ponder = go.ponder.then(|| {
            let go = Go {
                ponder: false,
                ..go.clone()
            };
            (position.clone(), go)
        });
        let infinite = limits.infinite;
        let fallback = position.legal_moves().first().copied();
        let (out, shared) = (self.out.clone(), Arc::clone(&control));
        let spawned = thread::Builder::new()
            .name("search".to_string())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || search_thread(searcher, &position, &limits, mate, &shared, &out));
        match spawned {
            Ok(thread) => {
                self.search = Some(RunningSearch {
                    thread,
                    control,
                    infinite,
                    ponder,
                })
            }
            Err(error) => {
                self.searcher = Some(self.fresh_searcher());
                let _ = self.out.line(&format!(
                    "info string error: cannot start the search thread: {error}"
                ));
                let _ = self.out.line(&bestmove_line(fallback, None));
            }
        }
    }

    /// `stop`: the search ends and answers `bestmove` (a ponder search too: its move was not
    /// played). Without a search, nothing to do.
    fn stop(&mut self) -> Result<(), CommandError> {
        if let Some(search) = &mut self.search {
            search.ponder = None;
            search.control.stop.store(true, Ordering::Release);
        }
        Ok(())
    }

    /// `ponderhit`: the opponent played the expected move, so the position being pondered is
    /// the real one and the engine's clock now runs. The ponder search is stopped without a
    /// `bestmove` and a search with the real time limits starts on the same position. What the
    /// ponder search found is not lost: it is in the transposition table, where the new search
    /// finds it, so its first iterations end almost at once on table cutoffs.
    fn ponder_hit(&mut self) -> Result<(), CommandError> {
        let Some((position, go)) = self.search.as_mut().and_then(|s| s.ponder.take()) else {
            return Ok(()); // Not pondering: nothing to do.
        };
        let start = Instant::now();
        if let Some(search) = &self.search {
            search.control.silent.store(true, Ordering::Release);
            search.control.stop.store(true, Ordering::Release);
        }
        self.join_search();
        self.start_search(position, go, start);
        Ok(())
    }

    /// The searcher, once no search runs. A search that has answered is waited for (it is
    /// only returning the searcher); one still thinking makes `command` an error.
    fn idle_searcher(&mut self, command: &str) -> Result<&mut Searcher, CommandError> {
        if self.searching() {
            return input_error(format!("{command}: not while searching (send stop first)"));
        }
        self.join_search();
        if self.searcher.is_none() {
            self.searcher = Some(self.fresh_searcher());
        }
        match self.searcher.as_mut() {
            Some(searcher) => Ok(searcher),
            None => input_error(format!("{command}: no searcher")),
        }
    }

    /// Stops the running search if `stop`, and waits for it.
    fn end_search(&mut self, stop: bool) {
        if stop && let Some(search) = &self.search {
            search.control.stop.store(true, Ordering::Release);
        }
        self.join_search();
    }

    /// Waits for the search thread and takes the searcher back. If the search panicked (a
    /// bug), the session goes on with a new searcher and says so.
    fn join_search(&mut self) {
        let Some(search) = self.search.take() else {
            return;
        };
        match search.thread.join() {
            Ok(searcher) => self.searcher = Some(searcher),
            Err(_) => {
                self.searcher = Some(self.fresh_searcher());
                let _ = self
                    .out
                    .line("info string error: the search failed; the tables were cleared");
            }
        }
    }

    /// A new searcher with the current options.
    fn fresh_searcher(&self) -> Searcher {
        let mut searcher = Searcher::new(1);
        if searcher.set_hash(self.settings.hash_mb).is_err() {
            let _ = searcher.set_hash(DEFAULT_HASH_MB);
        }
        searcher.set_switches(self.settings.switches);
        searcher
    }

    /// `d`: the board, its FEN and key.
    fn display(&mut self) -> Result<(), CommandError> {
        self.out.line(self.position.to_string().trim_end())?;
        Ok(())
    }

    /// `eval`: the static evaluation term by term.
    fn eval(&mut self) -> Result<(), CommandError> {
        self.out.line(eval::trace(&self.position).trim_end())?;
        Ok(())
    }

    /// `bench [depth]`: the engine's signature (see [`crate::bench`]) with the current switches.
    fn bench(&mut self, args: &[&str]) -> Result<(), CommandError> {
        let depth = parse_bench_depth(args).map_err(CommandError::Input)?;
        self.idle_searcher("bench")?;
        let mut out = self.out.lock();
        bench::run(depth, self.settings.switches, &mut *out)?;
        out.flush()?;
        Ok(())
    }

    /// `perft N`: divide at depth N from the current position, printed as Stockfish does.
    fn perft(&mut self, args: &[&str]) -> Result<(), CommandError> {
        let depth = parse_depth(args).map_err(CommandError::Input)?;
        let mut out = self.out.lock();
        perft::print_divide(&mut self.position, depth, &mut *out)?;
        out.flush()?;
        Ok(())
    }

    /// `set NAME on|off`: the console's way to set a switch (for the next search).
    fn set_switch(&mut self, args: &[&str]) -> Result<(), CommandError> {
        let [name, value] = args else {
            return input_error("set: expected 'set NAME on|off' (see 'switches')");
        };
        let on =
            Switches::parse_value(value).map_err(|e| CommandError::Input(format!("set: {e}")))?;
        self.settings
            .switches
            .set(name, on)
            .map_err(|e| CommandError::Input(format!("set: {e}")))
    }

    /// `switches`: every switch with its value, default, chapter and help.
    fn list_switches(&mut self) -> Result<(), CommandError> {
        self.out
            .line(self.settings.switches.describe().trim_end())?;
        Ok(())
    }
}

/// The search thread's stack: generous, as each ply of the recursion keeps a move list.
const SEARCH_STACK_BYTES: usize = 32 << 20;

// ANCHOR: search_limits
/// The search's limits for `go` with the time `budget`, the clock having started at `start`.
/// `ponder` and `infinite` searches wait for `stop`; a ponder search gets its time limits only
/// when `ponderhit` restarts it.
fn search_limits(go: &Go, budget: Option<Budget>, start: Instant) -> Limits {
    let infinite = go.infinite || go.ponder;
    let budget = budget.filter(|_| !infinite);
    Limits {
        depth: go.depth,
        nodes: go.nodes,
        soft_deadline: budget.and_then(|b| start.checked_add(b.soft)),
        hard_deadline: budget.and_then(|b| start.checked_add(b.hard)),
        infinite,
    }
}
// ANCHOR_END: search_limits

/// The search thread: searches, reports each iteration, waits for `stop` if the search is
/// infinite, then answers `bestmove` (unless `ponderhit` silenced it) and returns the searcher.
fn search_thread(
    mut searcher: Searcher,
    position: &Position,
    limits: &Limits,
    mate: Option<u32>,
    control: &SearchControl,
    out: &Output,
) -> Searcher {
    let outcome = searcher.search(position, limits, &control.stop, &mut |info| {
        let _ = out.line(&info_line(info));
        if let (Some(moves), Score::Mate(found)) = (mate, info.score)
            && found > 0
            && found.unsigned_abs() <= moves
        {
            control.stop.store(true, Ordering::Release);
        }
    });
    // The search returns at once when there is no legal move; UCI still wants `stop` first.
    while limits.infinite && !control.stop.load(Ordering::Acquire) {
        thread::sleep(Duration::from_millis(1));
    }
    if outcome.best_move.is_none() {
        // Mated or stalemated: no iteration ran, so say why there is no move, as Stockfish does.
        let _ = out.line(&format!("info depth 0 score {}", outcome.score));
    }
    let mut writer = out.lock();
    control.answered.store(true, Ordering::Release);
    if !control.silent.load(Ordering::Acquire) {
        let _ = writeln!(
            writer,
            "{}",
            bestmove_line(outcome.best_move, outcome.ponder)
        );
        let _ = writer.flush();
    }
    drop(writer);
    searcher
}

/// The `info` line of a completed iteration.
pub fn info_line(info: &SearchInfo) -> String {
    let millis = info.elapsed.as_millis();
    let nps = u128::from(info.nodes) * 1000 / millis.max(1);
    let mut line = format!(
        "info depth {} seldepth {} score {} nodes {} nps {nps} hashfull {} time {millis}",
        info.depth, info.seldepth, info.score, info.nodes, info.hashfull
    );
    if !info.pv.is_empty() {
        line.push_str(" pv");
        for m in &info.pv {
            line.push_str(&format!(" {m}"));
        }
    }
    line
}

/// `bestmove X [ponder Y]`, or `bestmove 0000` when there is no legal move (UCI's null move).
pub fn bestmove_line(best: Option<Move>, ponder: Option<Move>) -> String {
    match (best, ponder) {
        (Some(best), Some(ponder)) => format!("bestmove {best} ponder {ponder}"),
        (Some(best), None) => format!("bestmove {best}"),
        (None, _) => "bestmove 0000".to_string(),
    }
}

/// A `Check` option's value: `true` or `false` (and the console's `on`/`off`).
fn check_value(name: &str, value: Option<&str>) -> Result<bool, CommandError> {
    let Some(text) = value.filter(|v| !v.is_empty()) else {
        return input_error(format!("setoption: {name} needs a value (true or false)"));
    };
    Switches::parse_value(text).map_err(|_| {
        CommandError::Input(format!(
            "setoption: {name} value '{}' is not true or false",
            shorten(text)
        ))
    })
}

/// A `Spin` option's value: a whole number from `min` to `max`.
fn spin_value(name: &str, value: Option<&str>, min: u64, max: u64) -> Result<u64, CommandError> {
    let Some(text) = value.filter(|v| !v.is_empty()) else {
        return input_error(format!(
            "setoption: {name} needs a value from {min} to {max}"
        ));
    };
    match text.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => input_error(format!(
            "setoption: {name} value '{}' is not a whole number from {min} to {max}",
            shorten(text)
        )),
    }
}

/// The depth of `perft N`: exactly one argument, a whole number from 0 to 64.
pub fn parse_depth(args: &[&str]) -> Result<u32, String> {
    match args {
        [text] => match text.parse::<u32>() {
            Ok(depth) if depth <= 64 => Ok(depth),
            _ => Err(format!(
                "perft: depth '{}' is not a number from 0 to 64",
                shorten(text)
            )),
        },
        [] => Err("perft: missing depth (perft N)".to_string()),
        _ => Err("perft: expected one depth (perft N)".to_string()),
    }
}

/// The depth of `bench [depth]`: [`bench::DEFAULT_DEPTH`] when absent, else 1 to [`MAX_DEPTH`].
pub fn parse_bench_depth(args: &[&str]) -> Result<u32, String> {
    match args {
        [] => Ok(bench::DEFAULT_DEPTH),
        [text] => match text.parse::<u32>() {
            Ok(depth) if (1..=MAX_DEPTH).contains(&depth) => Ok(depth),
            _ => Err(format!(
                "bench: depth '{}' is not a number from 1 to {MAX_DEPTH}",
                shorten(text)
            )),
        },
        _ => Err("bench: expected at most one depth (bench [depth])".to_string()),
    }
}

/// At most 30 characters of `text`, for an error message.
fn shorten(text: &str) -> String {
    text.chars().take(30).collect()
}

/// Reads lines from `input` until `quit` or the end of input, answering on `out`. Lines are
/// read as bytes and converted with the bad bytes replaced, so input that is not UTF-8 is
/// answered like any other bad input instead of ending the session.
pub fn run(mut input: impl BufRead, out: Output) -> io::Result<()> {
    let mut session = Session::new(out);
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        if input.read_until(b'\n', &mut bytes)? == 0 {
            session.finish();
            return Ok(());
        }
        let line = String::from_utf8_lossy(&bytes);
        match session.handle(&line) {
            Ok(Flow::Continue) => {}
            Ok(Flow::Quit) => return Ok(()),
            Err(error) => {
                session.end_search(true);
                return Err(error);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session() -> (Session, SharedBuffer) {
        let buffer = SharedBuffer::default();
        (Session::new(Output::new(buffer.clone())), buffer)
    }

    /// What `line` answers (waiting for a search it starts to end by itself).
    fn answer(session: &mut Session, buffer: &SharedBuffer, line: &str) -> String {
        buffer.clear();
        session.handle(line).expect("writing to memory");
        session.finish();
        buffer.text()
    }

    #[test]
    fn uci_handshake_lists_options_and_switches() {
        let (mut session, buffer) = session();
        let text = answer(&mut session, &buffer, "uci");
        assert!(text.starts_with("id name cb2026"));
        assert!(text.ends_with("uciok\n"));
        assert!(text.contains("option name Hash type spin default 16 min 1 max 65536\n"));
        assert!(text.contains("option name Threads type spin default 1 min 1 max 1\n"));
        assert!(text.contains("option name Clear Hash type button\n"));
        assert!(text.contains("option name Move Overhead type spin default 50 min 0 max 5000\n"));
        assert!(text.contains("option name ttbuckets type check default false\n"));
        assert!(text.contains("option name lmr type check default true\n"));
        assert_eq!(answer(&mut session, &buffer, "isready"), "readyok\n");
        assert_eq!(session.handle("quit").ok(), Some(Flow::Quit));
    }

    #[test]
    fn an_illegal_move_leaves_the_position_as_it_was() {
        let (mut session, buffer) = session();
        answer(&mut session, &buffer, "position startpos moves e2e4");
        let before = session.position().to_fen();
        let text = answer(
            &mut session,
            &buffer,
            "position startpos moves e2e4 e7e5 e1e3",
        );
        assert!(text.starts_with("info string error: position: e1e3 is not a legal move"));
        assert_eq!(session.position().to_fen(), before);
    }

    #[test]
    fn bad_input_is_answered_not_obeyed() {
        let (mut session, buffer) = session();
        let mut said = |line: &str| answer(&mut session, &buffer, line);
        assert_eq!(
            said("go fish"),
            "info string error: go: unknown parameter 'fish'\n"
        );
        assert_eq!(said("fly"), "info string error: unknown command 'fly'\n");
        assert!(said("position fen 8/8/8 w - -").contains("bad FEN: piece placement"));
        assert!(said("perft x").contains("perft: depth 'x'"));
        assert!(said("position").contains("expected 'startpos'"));
        assert!(said("go depth 0").contains("go: depth '0' is not a whole number from 1 to 100"));
        assert!(said("go depth 3 depth 4").contains("go: depth given twice"));
        assert!(said("go wtime").contains("go: wtime needs a value"));
        assert!(said("go btime 1000").contains("go: wtime is missing"));
        assert!(said("go searchmoves e2e5").contains("e2e5 is not a legal move"));
        assert!(said("setoption name Hash value abc").contains("Hash value 'abc' is not a whole"));
        assert!(said("setoption name Threads value 2").contains("from 1 to 1"));
        assert!(said("setoption name Nonsense value 1").contains("unknown option 'Nonsense'"));
        assert!(said("setoption name lmr value maybe").contains("lmr value 'maybe'"));
        assert!(said("set nullmvoe off").contains("unknown switch 'nullmvoe'"));
        assert!(said("bench 0").contains("bench: depth '0'"));
        assert_eq!(said(""), "");
        assert_eq!(session.position(), &Position::startpos());
        assert_eq!(session.settings.switches, Switches::default());
    }

    #[test]
    fn option_names_are_case_insensitive_and_may_have_spaces() {
        let (mut session, buffer) = session();
        assert_eq!(
            answer(
                &mut session,
                &buffer,
                "setoption name move overhead value 120"
            ),
            ""
        );
        assert_eq!(session.settings.move_overhead, Duration::from_millis(120));
        assert_eq!(
            answer(&mut session, &buffer, "setoption name HASH value 2"),
            ""
        );
        assert_eq!(session.settings.hash_mb, 2);
        assert_eq!(
            answer(&mut session, &buffer, "setoption name NullMove value false"),
            ""
        );
        assert!(!session.settings.switches.nullmove);
        assert_eq!(
            answer(&mut session, &buffer, "setoption name Clear Hash"),
            ""
        );
    }

    #[test]
    fn go_depth_reports_each_iteration_and_one_legal_bestmove() {
        let (mut session, buffer) = session();
        let text = answer(&mut session, &buffer, "go depth 4");
        let infos = text.lines().filter(|l| l.starts_with("info depth")).count();
        assert_eq!(infos, 4, "{text}");
        let best: Vec<&str> = text.lines().filter(|l| l.starts_with("bestmove")).collect();
        assert_eq!(best.len(), 1, "{text}");
        let m = best[0].split_whitespace().nth(1).expect("a move");
        assert!(Position::startpos().parse_uci_move(m).is_ok(), "{m}");
    }

    #[test]
    fn no_legal_move_answers_0000_with_the_reason() {
        let (mut session, buffer) = session();
        answer(
            &mut session,
            &buffer,
            "position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",
        );
        let text = answer(&mut session, &buffer, "go depth 3");
        assert_eq!(text, "info depth 0 score mate 0\nbestmove 0000\n");
        answer(
            &mut session,
            &buffer,
            "position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        );
        assert_eq!(
            answer(&mut session, &buffer, "go movetime 10"),
            "info depth 0 score cp 0\nbestmove 0000\n"
        );
    }

    #[test]
    fn mate_stops_the_search_once_the_mate_is_found() {
        let (mut session, buffer) = session();
        // A back-rank mate in one: Re8#.
        answer(
            &mut session,
            &buffer,
            "position fen 6k1/5ppp/8/8/8/8/8/4R1K1 w - - 0 1",
        );
        let text = answer(&mut session, &buffer, "go mate 1");
        assert!(text.contains("score mate 1"), "{text}");
        assert!(text.ends_with("bestmove e1e8\n"), "{text}");
    }

    #[test]
    fn commands_that_need_the_searcher_wait_for_stop() {
        let (mut session, buffer) = session();
        session.handle("go infinite").expect("memory");
        session.handle("ucinewgame").expect("memory");
        session.handle("go depth 1").expect("memory");
        assert!(session.searching());
        session.handle("stop").expect("memory");
        session.finish();
        let text = buffer.text();
        assert!(
            text.contains("info string error: ucinewgame: not while searching"),
            "{text}"
        );
        assert!(
            text.contains("info string error: go: not while searching"),
            "{text}"
        );
        assert_eq!(text.matches("bestmove").count(), 1, "{text}");
        assert_eq!(answer(&mut session, &buffer, "ucinewgame"), "");
    }

    #[test]
    fn ponderhit_turns_the_ponder_search_into_the_real_one() {
        let (mut session, buffer) = session();
        session
            .handle("go ponder wtime 100 btime 100")
            .expect("memory");
        thread::sleep(Duration::from_millis(20));
        assert!(
            !buffer.text().contains("bestmove"),
            "pondering must not answer"
        );
        session.handle("ponderhit").expect("memory");
        session.finish();
        assert_eq!(
            buffer.text().matches("bestmove").count(),
            1,
            "{}",
            buffer.text()
        );
    }

    #[test]
    fn position_fen_with_moves_then_perft() {
        let (mut session, buffer) = session();
        answer(
            &mut session,
            &buffer,
            "position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1 moves e1g1",
        );
        let text = answer(&mut session, &buffer, "perft 1");
        assert!(text.ends_with("\nNodes searched: 3\n\n"), "{text}");
        assert!(answer(&mut session, &buffer, "d").contains("Fen: 4k3/8/8/8/8/8/8/5RK1 b - - 1 1"));
    }

    #[test]
    fn go_parses_every_parameter() {
        let pos = Position::startpos();
        let words = "wtime 1000 btime -5 winc 10 binc 20 movestogo 7 depth 9 nodes 500 mate 3 \
                     movetime 250 infinite ponder searchmoves e2e4 d2d4";
        let args: Vec<&str> = words.split_whitespace().collect();
        let go = Go::parse(&args, &pos).expect("valid");
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
        assert_eq!(go.searchmoves.len(), 2);
        let clock = go.clock(Color::Black).expect("valid").expect("a clock");
        assert_eq!(
            (clock.remaining, clock.increment, clock.moves_to_go),
            (Duration::ZERO, Duration::from_millis(20), Some(7))
        );
    }

    #[test]
    fn info_lines_have_every_field() {
        let info = SearchInfo {
            depth: 3,
            seldepth: 7,
            score: Score::Mate(-2),
            nodes: 5000,
            elapsed: Duration::from_millis(20),
            pv: Position::startpos().legal_moves()[..2].to_vec(),
            hashfull: 12,
        };
        let line = info_line(&info);
        assert!(line.starts_with("info depth 3 seldepth 7 score mate -2 nodes 5000 nps 250000 hashfull 12 time 20 pv "), "{line}");
        assert_eq!(
            line.split(" pv ").nth(1).map(|pv| pv.split(' ').count()),
            Some(2)
        );
    }
}
