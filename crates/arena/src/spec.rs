//! How an engine and a time control are written on the command line.
//!
//! An engine is a comma-separated list of `key=value` fields, in the style of cutechess-cli's
//! `-engine name=... cmd=... option.Hash=16`:
//!
//! ```text
//! name=cb2026-buckets,cmd=target/release/cb2026,option.Hash=16,option.ttbuckets=true
//! name=gnuchess,cmd=/usr/games/gnuchess,arg=--uci,option.OwnBook=false
//! ```
//!
//! Fields: `cmd` (required), `name` (default: the command's file name), `arg` (repeatable, passed in
//! order), `option.NAME=VALUE` (a UCI option, sent with `setoption`; names may contain spaces, as in
//! `option.Move Overhead=50`), `bench=off` (skip the bench signature). Values cannot contain commas.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::time::Duration;

/// One engine of a match: how to start it and what to set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineSpec {
    pub name: String,
    pub cmd: String,
    #[serde(default)]
    pub args: Vec<String>,
    /// UCI options in the order given (the order some engines care about, e.g. Threads before Hash).
    #[serde(default)]
    pub options: Vec<(String, String)>,
    /// Whether to run `<cmd> <args> bench` for the engine's signature.
    #[serde(default = "yes")]
    pub bench: bool,
    /// The command as a record names it, when `cmd` is a path of this machine only: xtask plays
    /// a copy of the release build (`target/match/cb2026-<pid>`) and records it as `cb2026`.
    /// `None`: see [`EngineSpec::recorded_cmd`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shown_cmd: Option<String>,
}

fn yes() -> bool {
    true
}

impl EngineSpec {
    /// An engine with no arguments and no options.
    pub fn new(name: impl Into<String>, cmd: impl Into<String>) -> Self {
        EngineSpec {
            name: name.into(),
            cmd: cmd.into(),
            args: Vec::new(),
            options: Vec::new(),
            bench: true,
            shown_cmd: None,
        }
    }

    /// Records the engine under `cmd` instead of the path it is started from (builder style).
    pub fn shown_as(mut self, cmd: &str) -> Self {
        self.shown_cmd = Some(cmd.to_string());
        self
    }

    /// The command a match record names: [`EngineSpec::shown_cmd`] if set; else, for an
    /// absolute path (a system engine, `/usr/games/stockfish`), the engine's own name, its file
    /// name (`stockfish`); else the command as given, relative to where the match ran. So a
    /// record never holds a path of the machine that played it.
    pub fn recorded_cmd(&self) -> String {
        if let Some(shown) = &self.shown_cmd {
            return shown.clone();
        }
        let path = std::path::Path::new(&self.cmd);
        match path.file_name() {
            Some(file) if path.is_absolute() => file.to_string_lossy().into_owned(),
            _ => self.cmd.clone(),
        }
    }

    /// Adds a UCI option (builder style, for tests and the xtask's presets).
    pub fn option(mut self, name: &str, value: impl fmt::Display) -> Self {
        self.options.push((name.to_string(), value.to_string()));
        self
    }

    /// Adds a command-line argument.
    pub fn arg(mut self, arg: &str) -> Self {
        self.args.push(arg.to_string());
        self
    }

    /// The value of an option given in the spec, matched case-insensitively as UCI names are.
    pub fn option_value(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Parses `key=value,key=value,...` (see the module documentation).
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut name = None;
        let mut cmd = None;
        let mut spec = EngineSpec::new("", "");
        for field in text.split(',').map(str::trim).filter(|f| !f.is_empty()) {
            let (key, value) = field.split_once('=').ok_or_else(|| {
                format!("engine spec field `{field}` is not key=value (in `{text}`)")
            })?;
            match key.trim() {
                "name" => name = Some(value.to_string()),
                "cmd" => cmd = Some(value.to_string()),
                "arg" => spec.args.push(value.to_string()),
                "bench" => spec.bench = parse_switch(value)?,
                option if option.starts_with("option.") && option.len() > "option.".len() => {
                    spec.options
                        .push((option["option.".len()..].to_string(), value.to_string()));
                }
                other => {
                    return Err(format!(
                        "unknown engine spec key `{other}` (expected name, cmd, arg, bench, option.NAME)"
                    ));
                }
            }
        }
        spec.cmd = cmd
            .filter(|c| !c.is_empty())
            .ok_or_else(|| format!("engine spec `{text}` has no cmd="))?;
        spec.name = name.unwrap_or_else(|| default_name(&spec.cmd));
        Ok(spec)
    }
}

/// The command's file name: `target/release/cb2026` is called `cb2026`.
fn default_name(cmd: &str) -> String {
    std::path::Path::new(cmd)
        .file_name()
        .map_or_else(|| cmd.to_string(), |f| f.to_string_lossy().into_owned())
}

fn parse_switch(value: &str) -> Result<bool, String> {
    match value.to_ascii_lowercase().as_str() {
        "on" | "true" | "yes" | "1" => Ok(true),
        "off" | "false" | "no" | "0" => Ok(false),
        _ => Err(format!("expected on or off, got `{value}`")),
    }
}

/// How long an engine may think: a clock (`base+inc` in seconds, as fishtest and OpenBench write it),
/// a fixed node count, or a fixed depth.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TimeControl {
    /// Each side's clock starts at `base_ms` and gains `inc_ms` after each of its moves.
    Clock { base_ms: u64, inc_ms: u64 },
    /// `go nodes N` for every move.
    Nodes(u64),
    /// `go depth N` for every move.
    Depth(u32),
}

impl TimeControl {
    /// Parses `8+0.08`, `40+0.4`, `10` (no increment), `nodes=5000` or `depth=8`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let text = text.trim();
        let bad = |why: &str| {
            format!("bad time control `{text}`: {why} (try 8+0.08, nodes=5000, depth=8)")
        };
        if let Some(n) = text.strip_prefix("nodes=") {
            let n: u64 = n.parse().map_err(|_| bad("nodes must be a whole number"))?;
            return if n > 0 {
                Ok(TimeControl::Nodes(n))
            } else {
                Err(bad("nodes must be positive"))
            };
        }
        if let Some(d) = text.strip_prefix("depth=") {
            let d: u32 = d.parse().map_err(|_| bad("depth must be a whole number"))?;
            return if d > 0 {
                Ok(TimeControl::Depth(d))
            } else {
                Err(bad("depth must be positive"))
            };
        }
        let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
        let base_ms = seconds_to_ms(base).ok_or_else(|| bad("base must be seconds"))?;
        let inc_ms = seconds_to_ms(inc).ok_or_else(|| bad("increment must be seconds"))?;
        if base_ms == 0 {
            return Err(bad("base time must be positive"));
        }
        Ok(TimeControl::Clock { base_ms, inc_ms })
    }

    /// Whether the arena keeps clocks (as opposed to a fixed node count or depth per move).
    pub fn is_clock(&self) -> bool {
        matches!(self, TimeControl::Clock { .. })
    }
}

fn seconds_to_ms(text: &str) -> Option<u64> {
    let seconds: f64 = text.trim().parse().ok()?;
    (seconds.is_finite() && seconds >= 0.0).then(|| (seconds * 1000.0).round() as u64)
}

/// Written as parsed: `8+0.08`, `nodes=5000`, `depth=8`. For a clock this is also the PGN
/// `TimeControl` tag's form (seconds, `+` increment).
impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::Clock { base_ms, inc_ms } => {
                let secs = |ms: u64| Duration::from_millis(ms).as_secs_f64();
                write!(f, "{}+{}", secs(base_ms), secs(inc_ms))
            }
            TimeControl::Nodes(n) => write!(f, "nodes={n}"),
            TimeControl::Depth(d) => write!(f, "depth={d}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_names_no_path_of_the_machine() {
        let system = EngineSpec::new("sf", "/usr/games/stockfish");
        assert_eq!(system.recorded_cmd(), "stockfish");
        let copy =
            EngineSpec::new("new", "/work/repo/target/match/cb2026-10652").shown_as("cb2026");
        assert_eq!(copy.recorded_cmd(), "cb2026");
        let relative = EngineSpec::new("old", "target/release/cb2026");
        assert_eq!(relative.recorded_cmd(), "target/release/cb2026");
    }

    #[test]
    fn a_full_spec_parses() {
        let spec = EngineSpec::parse(
            "name=cb2026,cmd=target/release/cb2026,option.Hash=16,option.TTBuckets=true",
        )
        .unwrap();
        assert_eq!(spec.name, "cb2026");
        assert_eq!(spec.cmd, "target/release/cb2026");
        assert_eq!(
            spec.options,
            vec![
                ("Hash".into(), "16".into()),
                ("TTBuckets".into(), "true".into())
            ]
        );
        assert!(spec.bench);
        assert_eq!(spec.option_value("ttbuckets"), Some("true"));
    }

    #[test]
    fn name_defaults_to_the_file_name_and_args_keep_their_order() {
        let spec = EngineSpec::parse(
            "cmd=/usr/games/gnuchess,arg=--uci,arg=-q,bench=off,option.Move Overhead=50",
        )
        .unwrap();
        assert_eq!(spec.name, "gnuchess");
        assert_eq!(spec.args, vec!["--uci", "-q"]);
        assert!(!spec.bench);
        assert_eq!(spec.option_value("move overhead"), Some("50"));
    }

    #[test]
    fn bad_specs_say_why() {
        assert!(EngineSpec::parse("name=x").unwrap_err().contains("no cmd"));
        assert!(
            EngineSpec::parse("cmd=x,colour=red")
                .unwrap_err()
                .contains("unknown engine spec key")
        );
        assert!(
            EngineSpec::parse("cmd=x,Hash")
                .unwrap_err()
                .contains("not key=value")
        );
    }

    #[test]
    fn time_controls_parse_and_print_back() {
        assert_eq!(
            TimeControl::parse("8+0.08").unwrap(),
            TimeControl::Clock {
                base_ms: 8000,
                inc_ms: 80
            }
        );
        assert_eq!(TimeControl::parse("40+0.4").unwrap().to_string(), "40+0.4");
        assert_eq!(
            TimeControl::parse("10").unwrap(),
            TimeControl::Clock {
                base_ms: 10_000,
                inc_ms: 0
            }
        );
        assert_eq!(
            TimeControl::parse("nodes=5000").unwrap(),
            TimeControl::Nodes(5000)
        );
        assert_eq!(
            TimeControl::parse("depth=8").unwrap().to_string(),
            "depth=8"
        );
        assert!(TimeControl::parse("fast").is_err());
        assert!(TimeControl::parse("0+1").is_err());
        assert!(TimeControl::parse("nodes=-3").is_err());
    }
}
