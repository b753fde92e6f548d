//! The UCI options: the table the `uci` answer lists, their values, and `setoption`.
//!
//! Besides the options of [`OPTIONS`], every switch of [`SWITCHES`] is an option of type
//! `check`, so a GUI (or `cargo xtask match`) can play the engine without a feature.

use super::session::Session;
use super::{CommandError, input_error, shorten};
use crate::search::{MAX_THREADS, Searcher};
use crate::switches::{SWITCHES, Switches};
use crate::time;
use std::time::Duration;

/// The default table size in MB (the same as bench's).
pub const DEFAULT_HASH_MB: usize = 16;
/// The largest `Hash` the option advertises: Stockfish's 32 TB on 64-bit machines, so that the
/// limit is the machine's memory, checked when the option is set, and not a constant of ours.
pub const MAX_HASH_MB: usize = 1 << 25;

/// Bytes in a megabyte as UCI's `Hash` option counts them.
const MB: u64 = 1 << 20;

/// Bytes in a slot of the table: two `u64` (see `tt.rs`).
const SLOT_BYTES: u64 = 16;

/// The type of a UCI option and its limits, as the `uci` answer lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OptionKind {
    Spin { default: u64, min: u64, max: u64 },
    Check { default: bool },
    Button,
}

/// The options besides the switches, in the order `uci` lists them. `Threads` is chapter
/// 17's Lazy SMP. Ponder tells the GUI that the engine can think on the opponent's time
/// (`go ponder`); its value changes nothing here.
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
            max: MAX_THREADS as u64,
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

/// Every `option` line of the `uci` answer: [`OPTIONS`], then the switches.
pub(super) fn option_lines() -> Vec<String> {
    let options = OPTIONS.iter().map(|&(name, kind)| option_line(name, kind));
    let switches = SWITCHES.iter().map(|info| {
        let kind = OptionKind::Check {
            default: info.default,
        };
        option_line(info.name, kind)
    });
    options.chain(switches).collect()
}

/// The options' values. The switches live here and are handed to the searcher when a search
/// starts, so that they can be set (for the next search) even while one runs.
#[derive(Clone, Copy, Debug)]
pub(super) struct Settings {
    pub(super) hash_mb: usize,
    /// `Threads`, handed to the searcher when a search starts, like the switches.
    pub(super) threads: usize,
    pub(super) move_overhead: Duration,
    pub(super) switches: Switches,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            move_overhead: time::default_overhead(),
            switches: Switches::default(),
        }
    }
}

impl Settings {
    /// A new searcher with these settings. Its table is allocated here, so a session that
    /// never searches never allocates one, and a GUI that sets `Hash` before its first `go`
    /// allocates only the size it asked for.
    pub(super) fn searcher(&self) -> Searcher {
        let mut searcher = Searcher::new(1);
        if searcher.set_hash(self.hash_mb).is_err() {
            let _ = searcher.set_hash(DEFAULT_HASH_MB);
        }
        searcher.set_switches(self.switches);
        searcher
            .set_threads(self.threads)
            .expect("Threads is checked when it is set");
        searcher
    }
}

impl Session {
    /// `setoption name <name> [value <value>]`. Names are case-insensitive and may have spaces
    /// (`Move Overhead`); the value is checked against the option's type and range before
    /// anything changes.
    pub(super) fn set_option(&mut self, args: &[&str]) -> Result<(), CommandError> {
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
                    // Like a switch, kept here and handed to the searcher at the next `go`,
                    // so that it may be set while a search runs.
                    _ => {
                        self.settings.threads = n as usize;
                        Ok(())
                    }
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

    // ANCHOR: resize_hash
    /// `Hash`: a new, empty table of `mb` megabytes, if the machine can give it.
    ///
    /// Asking the allocator is not enough on Linux: it overcommits, so a table larger than the
    /// free memory is usually granted and the process is killed later, when the table is
    /// written. So the size is first compared with what the kernel says it can give without
    /// swapping (MemAvailable in `/proc/meminfo`, Linux 3.14 and later), plus the old table,
    /// which is freed first. A size past that is refused and the old table kept as it is.
    /// The allocation itself is fallible too ([`crate::tt::TranspositionTable::resize`]): where
    /// it fails, the table gets its old size back, empty.
    fn resize_hash(&mut self, mb: usize) -> Result<(), CommandError> {
        let old = self.settings.hash_mb;
        self.ensure_idle("setoption name Hash")?;
        // Not `idle_searcher`: a session that has not searched yet needs no table of the old
        // size first.
        let searcher = self.searcher.get_or_insert_with(|| Searcher::new(1));
        let held = searcher.tt().slot_count() as u64 * SLOT_BYTES;
        if let Some(available) = available_memory() {
            let can_give = (available + held) / MB;
            if mb as u64 > can_give {
                return input_error(format!(
                    "setoption: Hash: {mb} MB is more than the {can_give} MB this machine can \
                     give now; kept {old} MB"
                ));
            }
        }
        if let Err(error) = searcher.set_hash(mb) {
            return input_error(format!("setoption: Hash: {error}; kept {old} MB"));
        }
        self.settings.hash_mb = mb;
        Ok(())
    }
    // ANCHOR_END: resize_hash
}

/// The memory the machine can give without swapping, in bytes, or `None` where the system
/// does not say (not Linux, or `/proc` not mounted): then only the allocation can refuse.
fn available_memory() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    mem_available(&meminfo)
}

/// The `MemAvailable:` line of `/proc/meminfo` in bytes (the file counts in kB, which
/// proc(5) says are kibibytes).
fn mem_available(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let mut words = line.split_whitespace().skip(1);
    let kib: u64 = words.next()?.parse().ok()?;
    (words.next() == Some("kB")).then_some(kib.saturating_mul(1024))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mem_available_reads_the_kernels_line() {
        let meminfo = "MemTotal:       24684096 kB\nMemFree:  100 kB\nMemAvailable:   2048 kB\n";
        assert_eq!(mem_available(meminfo), Some(2048 * 1024));
        assert_eq!(mem_available("MemTotal: 5 kB\n"), None);
        assert_eq!(mem_available("MemAvailable: many kB\n"), None);
        assert_eq!(mem_available("MemAvailable: 5 MB\n"), None);
    }

    #[test]
    fn the_uci_answer_lists_the_options_then_every_switch() {
        let lines = option_lines();
        assert_eq!(lines.len(), OPTIONS.len() + SWITCHES.len());
        assert_eq!(
            lines[0],
            "option name Hash type spin default 16 min 1 max 33554432"
        );
        assert_eq!(lines[2], "option name Clear Hash type button");
        assert_eq!(
            lines[OPTIONS.len()],
            "option name evalterms type check default true"
        );
    }
}
