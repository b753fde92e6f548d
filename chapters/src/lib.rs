//! The chapters' figure programs: each chapter module measures the engine and returns its figures.
//!
//! A figure travels engine -> chapter program -> snapshot -> book prose -> `cargo xtask verify`
//! (ARCHITECTURE.md, "Figures"). This crate is the first two steps:
//!
//! - [`Figures`] is what a chapter measures: an ordered map from key (`ch05.startpos.d5.nodes`)
//!   to a number or a short text.
//! - [`CHAPTERS`] lists every chapter that has a program. `chapters/tests/figures.rs` pins each
//!   chapter's cheap figures with insta in `snapshots/<id>.snap`; `cargo xtask measure <id>` stores
//!   the heavy ones in `snapshots/measured/<id>.yaml`.
//! - [`run`] is the `main` of every chapter binary (`chapters/src/bin/<id>-<slug>.rs`): without
//!   arguments it prints the chapter's tables for a person, with `--figures` or `--measured` the
//!   figures as YAML for `cargo xtask figures` and `cargo xtask measure`.

use serde::ser::{Serialize, SerializeMap, Serializer};
use std::collections::BTreeMap;
use std::fmt;
use std::process::ExitCode;

pub mod ch01;
pub mod ch02;
pub mod ch03;
pub mod ch04;
pub mod ch05;
pub mod ch06;
pub mod ch07;
pub mod ch08;
pub mod ch09;
pub mod ch10;
pub mod ch11;
pub mod ch12;
pub mod ch13;
pub mod ch14;
pub mod ch15;
pub mod ch16;
pub mod ch17;
pub mod ch18;
pub mod ch19;
pub mod ch20;
pub mod m1;
pub mod m10;
pub mod m11;
pub mod m12;
pub mod m13;
pub mod m14;
pub mod m15;
pub mod m17;
pub mod m18;
pub mod m19;
pub mod m2;
pub mod m20;
pub mod m21;
pub mod m3;
pub mod m4;
pub mod m5;
pub mod m6;
pub mod m7;
pub mod m8;
pub mod m9;
pub mod plot;
pub mod records;
pub mod six;

/// Every chapter with a program, in book order. A new chapter adds one line here.
pub const CHAPTERS: &[Chapter] = &[
    ch01::CHAPTER,
    ch02::CHAPTER,
    ch03::CHAPTER,
    ch04::CHAPTER,
    ch05::CHAPTER,
    ch06::CHAPTER,
    ch07::CHAPTER,
    ch08::CHAPTER,
    ch09::CHAPTER,
    ch10::CHAPTER,
    ch11::CHAPTER,
    ch12::CHAPTER,
    ch13::CHAPTER,
    ch14::CHAPTER,
    ch15::CHAPTER,
    ch16::CHAPTER,
    ch17::CHAPTER,
    ch18::CHAPTER,
    ch19::CHAPTER,
    ch20::CHAPTER,
    m1::CHAPTER,
    m2::CHAPTER,
    m3::CHAPTER,
    m4::CHAPTER,
    m5::CHAPTER,
    m6::CHAPTER,
    m7::CHAPTER,
    m8::CHAPTER,
    m9::CHAPTER,
    m10::CHAPTER,
    m11::CHAPTER,
    m12::CHAPTER,
    m13::CHAPTER,
    m14::CHAPTER,
    m15::CHAPTER,
    m17::CHAPTER,
    m18::CHAPTER,
    m19::CHAPTER,
    m20::CHAPTER,
    m21::CHAPTER,
];

/// One chapter's program, as the tests and `cargo xtask` see it.
#[derive(Debug)]
pub struct Chapter {
    /// `ch01` ... `ch20`, `m1` ... `m5`: the prefix of every figure key of the chapter.
    pub id: &'static str,
    /// The chapter's title, as in the book's SUMMARY.md.
    pub title: &'static str,
    /// The binary that reproduces the chapter: `cargo run --release -p chapters --bin <bin>`.
    pub bin: &'static str,
    /// The cheap figures (seconds in a debug test build): pinned by `cargo test`.
    pub figures: fn() -> Figures,
    /// The heavy figures (deep perft, long searches), if any: too slow for `cargo test`, so
    /// `cargo xtask measure <id>` runs them in release and stores them with the machine and date.
    pub measured: Option<fn() -> Figures>,
    /// The heavy figures that do not depend on the machine (deep perft counts, the node counts
    /// and best moves of deep searches), if any: a subset of `measured`, or all of it. `cargo
    /// xtask recheck`, run by CI, computes them again and fails if any differs from what
    /// `cargo xtask measure` stored, so no stored figure goes unchecked because it is slow.
    pub deep: Option<fn() -> Figures>,
    /// Prints the chapter's tables for a person (the binary run without arguments).
    pub print_tables: fn(),
}

/// The repository's root: this crate sits in `chapters/`, and the chapter programs read the
/// book's files (plots, records) from there.
pub fn repository_root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("chapters/ sits in the repository")
        .to_path_buf()
}

/// The default engine as it shipped before M12 turned six switches on
/// ([`cb2026::switches::TURNED_ON_LATER`]): the engine the earlier milestones measured their
/// features in, and the one their pages quote.
pub fn engine_before_m12() -> cb2026::switches::Switches {
    cb2026::switches::Switches::shipped_after(cb2026::switches::Stage::Milestone(11))
}

/// bench's node count with `switches` (the default engine's is the version's signature).
pub fn bench_nodes(switches: cb2026::switches::Switches) -> u64 {
    cb2026::bench::run(cb2026::bench::DEFAULT_DEPTH, switches, &mut std::io::sink())
        .expect("writing to a sink cannot fail")
        .nodes
}

/// The chapter with `id`, if it has a program.
pub fn chapter(id: &str) -> Option<&'static Chapter> {
    CHAPTERS.iter().find(|chapter| chapter.id == id)
}

/// One figure: an integer, a decimal with a fixed number of places, or a short text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Figure {
    /// A count: nodes, squares, moves.
    Int(i64),
    /// A decimal kept as an integer number of `10^-places` units, so it is exact and prints
    /// with its places (`41.30`) whatever the platform's float formatting.
    Fixed { units: i64, places: u8 },
    /// A short text of one line: a square name, a move, a FEN field.
    Text(String),
}

impl Figure {
    /// `value` rounded half away from zero to `places` decimals (at most 9).
    pub fn fixed(value: f64, places: u8) -> Figure {
        assert!(places <= 9, "a fixed figure keeps at most 9 decimals");
        let units = (value * 10f64.powi(i32::from(places))).round();
        assert!(
            units.is_finite(),
            "a fixed figure must be finite, got {value}"
        );
        Figure::Fixed {
            units: units as i64,
            places,
        }
    }

    /// `100 * part / whole` to `places` decimals, in integer arithmetic (rounded half up), so a
    /// percentage is the same on every machine.
    pub fn percent(part: u64, whole: u64, places: u8) -> Figure {
        assert!(whole > 0, "a percentage of nothing");
        assert!(places <= 9, "a fixed figure keeps at most 9 decimals");
        let scale = 100 * 10u128.pow(u32::from(places));
        let units = (u128::from(part) * scale * 2 + u128::from(whole)) / (2 * u128::from(whole));
        let units = i64::try_from(units).expect("a percentage fits in i64 units");
        Figure::Fixed { units, places }
    }
}

/// The figure as the book prints it by default: `4865609`, `41.30`, `e4`.
impl fmt::Display for Figure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Figure::Int(n) => write!(f, "{n}"),
            Figure::Fixed { units, places } => {
                let scale = 10u64.pow(u32::from(*places));
                let sign = if *units < 0 { "-" } else { "" };
                let magnitude = units.unsigned_abs();
                if *places == 0 {
                    write!(f, "{sign}{magnitude}")
                } else {
                    let (whole, fraction) = (magnitude / scale, magnitude % scale);
                    let width = usize::from(*places);
                    write!(f, "{sign}{whole}.{fraction:0width$}")
                }
            }
            Figure::Text(text) => f.write_str(text),
        }
    }
}

/// Integers serialise as YAML integers, decimals as YAML floats (the shortest text that reads
/// back as the same value: `41.3` for `41.30`), texts as strings.
impl Serialize for Figure {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Figure::Int(n) => serializer.serialize_i64(*n),
            Figure::Fixed { .. } => {
                let value: f64 = self.to_string().parse().expect("a decimal we printed");
                serializer.serialize_f64(value)
            }
            Figure::Text(text) => serializer.serialize_str(text),
        }
    }
}

macro_rules! figure_from_integer {
    ($($t:ty),*) => {$(
        impl From<$t> for Figure {
            fn from(n: $t) -> Figure {
                Figure::Int(i64::try_from(n).expect("a count fits in i64"))
            }
        }
    )*};
}
figure_from_integer!(u8, u16, u32, u64, usize, i8, i16, i32, i64);

impl From<&str> for Figure {
    fn from(text: &str) -> Figure {
        Figure::Text(text.to_string())
    }
}

impl From<String> for Figure {
    fn from(text: String) -> Figure {
        Figure::Text(text)
    }
}

/// A chapter's figures: key -> [`Figure`], ordered by key.
///
/// Keys start with the chapter id and a dot, then dot-separated parts of lower-case letters,
/// digits, `_` and `-` (`ch05.startpos.d5.nodes`), the form `cargo xtask verify` looks for in
/// the prose. Adding a key twice, a key of another chapter or a malformed key is a bug in the
/// chapter's code: it panics with the key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Figures {
    chapter: &'static str,
    map: BTreeMap<String, Figure>,
}

impl Figures {
    /// An empty map for the chapter `chapter` (`ch01`).
    pub fn new(chapter: &'static str) -> Figures {
        Figures {
            chapter,
            map: BTreeMap::new(),
        }
    }

    /// Adds `key -> value`; see the type's documentation for the rules on keys.
    pub fn add(&mut self, key: &str, value: impl Into<Figure>) -> &mut Figures {
        if let Err(problem) = check_key(self.chapter, key) {
            panic!("figure key {key:?}: {problem}");
        }
        let value = value.into();
        if let Figure::Text(text) = &value {
            assert!(
                !text.contains('\n'),
                "figure {key}: a text figure is one line"
            );
        }
        let previous = self.map.insert(key.to_string(), value);
        assert!(previous.is_none(), "figure key {key:?} added twice");
        self
    }

    /// The figure with `key`.
    pub fn get(&self, key: &str) -> Option<&Figure> {
        self.map.get(key)
    }

    /// The figures, ordered by key.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Figure)> {
        self.map.iter().map(|(key, value)| (key.as_str(), value))
    }

    /// The number of figures.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// True when the chapter has no figures.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// The figures as a flat YAML map, one `key: value` line each (the form of the body of
    /// `snapshots/<id>.snap`, which `cargo xtask` reads back).
    pub fn to_yaml(&self) -> String {
        self.iter()
            .map(|(key, value)| match value {
                Figure::Text(text) => format!("{key}: {}\n", yaml_quoted(text)),
                number => format!("{key}: {number}\n"),
            })
            .collect()
    }
}

impl Serialize for Figures {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.map.len()))?;
        for (key, value) in &self.map {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

/// Why `key` is not a valid figure key of `chapter`, if it is not.
fn check_key(chapter: &str, key: &str) -> Result<(), &'static str> {
    let Some(rest) = key
        .strip_prefix(chapter)
        .and_then(|rest| rest.strip_prefix('.'))
    else {
        return Err("a key starts with its chapter id and a dot");
    };
    let part_ok = |part: &str| {
        !part.is_empty()
            && part
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
    };
    if rest.split('.').all(part_ok) {
        Ok(())
    } else {
        Err("parts are non-empty and made of a-z, 0-9, '_' and '-'")
    }
}

/// `text` as a double-quoted YAML string.
fn yaml_quoted(text: &str) -> String {
    let escaped = text.replace('\\', "\\\\").replace('"', "\\\"");
    format!("\"{escaped}\"")
}

/// The `main` of `chapters/src/bin/deep.rs`: the deep figures of every chapter that has some (or
/// of the chapters named in `ids`), as one YAML map on stdout. The keys begin with their
/// chapter's id, which says in which `snapshots/measured/<id>.yaml` each is stored.
pub fn run_deep(ids: &[String]) -> ExitCode {
    if let Some(unknown) = ids.iter().find(|id| chapter(id).is_none()) {
        eprintln!("error: no chapter {unknown} in chapters::CHAPTERS");
        return ExitCode::FAILURE;
    }
    let chosen = CHAPTERS
        .iter()
        .filter(|chapter| ids.is_empty() || ids.iter().any(|id| id == chapter.id));
    for chapter in chosen {
        if let Some(deep) = chapter.deep {
            eprintln!("{}: computing its deep figures", chapter.id);
            print!("{}", deep().to_yaml());
        }
    }
    ExitCode::SUCCESS
}

/// The `main` of a chapter binary: no argument prints the tables, `--figures` the cheap figures
/// and `--measured` the heavy ones, as YAML on stdout.
pub fn run(id: &str) -> ExitCode {
    let Some(chapter) = chapter(id) else {
        eprintln!("error: no chapter {id} in chapters::CHAPTERS");
        return ExitCode::FAILURE;
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        [] => (chapter.print_tables)(),
        ["--figures"] => print!("{}", (chapter.figures)().to_yaml()),
        ["--measured"] => match chapter.measured {
            Some(measured) => print!("{}", measured().to_yaml()),
            None => {
                eprintln!(
                    "error: {id} has no measured figures (all its figures are pinned by cargo test)"
                );
                return ExitCode::FAILURE;
            }
        },
        _ => {
            eprintln!("usage: {} [--figures | --measured]", chapter.bin);
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_figures_keep_their_places() {
        assert_eq!(Figure::fixed(41.3, 2).to_string(), "41.30");
        assert_eq!(Figure::fixed(-0.25, 1).to_string(), "-0.3");
        assert_eq!(Figure::fixed(7.0, 0).to_string(), "7");
        assert_eq!(Figure::percent(1, 3, 1).to_string(), "33.3");
        assert_eq!(Figure::percent(2, 3, 1).to_string(), "66.7");
        assert_eq!(Figure::percent(1, 8, 1).to_string(), "12.5");
        assert_eq!(Figure::percent(1, 16, 1).to_string(), "6.3");
    }

    #[test]
    fn yaml_lines_are_sorted_by_key_and_quote_text() {
        let mut figures = Figures::new("ch09");
        figures
            .add("ch09.b", 12)
            .add("ch09.a", "e4 \"x\"")
            .add("ch09.c", Figure::fixed(1.5, 2));
        assert_eq!(
            figures.to_yaml(),
            "ch09.a: \"e4 \\\"x\\\"\"\nch09.b: 12\nch09.c: 1.50\n"
        );
    }

    #[test]
    #[should_panic(expected = "starts with its chapter id")]
    fn a_key_of_another_chapter_is_refused() {
        Figures::new("ch01").add("ch02.squares", 64);
    }

    #[test]
    #[should_panic(expected = "added twice")]
    fn a_key_added_twice_is_refused() {
        Figures::new("ch01")
            .add("ch01.squares", 64)
            .add("ch01.squares", 64);
    }

    #[test]
    #[should_panic(expected = "parts are non-empty")]
    fn an_upper_case_key_is_refused() {
        Figures::new("ch01").add("ch01.Squares", 64);
    }

    #[test]
    fn every_chapter_has_a_unique_id_and_a_bin_named_after_it() {
        for (i, chapter) in CHAPTERS.iter().enumerate() {
            assert!(
                chapter.bin.starts_with(&format!("{}-", chapter.id)),
                "{}",
                chapter.bin
            );
            assert!(
                CHAPTERS[..i].iter().all(|earlier| earlier.id != chapter.id),
                "{}",
                chapter.id
            );
        }
    }
}
