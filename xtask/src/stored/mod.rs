//! The book's stored figures: every value a page may quote, by key, with where it is stored and
//! the command that reproduces it. The figure preprocessor labels quotes with it, `cargo xtask
//! verify` checks quotes against it, and `cargo xtask figures` compares and rewrites with it; it
//! depends on none of them.
//!
//! A figure reaches the prose from one of the [`FIGURE_SOURCES`]:
//!
//! - **chapter snapshots**, `snapshots/<id>.snap`: insta's YAML snapshot of a chapter's cheap
//!   figures, pinned by `cargo test -p chapters --test figures` (a header between `---` lines, then
//!   one `key: value` line per figure);
//! - **stored measurements**, `snapshots/measured/<id>.yaml`: a chapter's heavy figures (deep
//!   perft, long searches), too slow for `cargo test`, written by `cargo xtask measure <id>` in
//!   the same format, the header recording the command, the machine, the date and the commit;
//! - **match records**, `snapshots/games/<record>.json`, written by `cargo xtask match`: the
//!   figures `games.<record>.*` are recomputed from the record's counts by
//!   `arena::record_figures`.
//!
//! [`document`] reads the first two formats; [`literal`] compares what a page writes with what is
//! stored, and restyles a stored value the way a page wrote the old one.

pub mod document;
pub mod literal;

use crate::finding::Finding;
use document::{Document, parse_document};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One figure as stored, with where it is stored and how to reproduce it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredFigure {
    /// The value as stored: `4865609`, `41.3`, `e4`.
    pub value: String,
    /// The file holding it, relative to the repository root.
    pub file: PathBuf,
    /// Its 1-based line in that file.
    pub line: usize,
    /// The command that reproduces it.
    pub command: String,
}

/// Reads one kind of stored figure under the repository `root`, reporting unreadable files.
pub type FigureSource = fn(root: &Path, problems: &mut Vec<Finding>) -> Vec<(String, StoredFigure)>;

/// Every place figures come from. Adding a source is one line here.
pub const FIGURE_SOURCES: &[(&str, FigureSource)] = &[
    ("chapter snapshots", chapter_snapshots),
    ("stored measurements", stored_measurements),
    ("match records", match_records),
];

/// Every stored figure, by key.
#[derive(Debug, Default)]
pub struct FigureTable {
    pub figures: BTreeMap<String, StoredFigure>,
}

impl FigureTable {
    /// Reads every source; a key stored twice is a problem.
    pub fn load(root: &Path, problems: &mut Vec<Finding>) -> FigureTable {
        let mut table = FigureTable::default();
        for (_name, source) in FIGURE_SOURCES {
            for (key, figure) in source(root, problems) {
                if let Some(earlier) = table.figures.get(&key) {
                    problems.push(Finding::error(
                        &figure.file,
                        figure.line,
                        format!(
                            "figure {key} is also stored in {}:{}",
                            earlier.file.display(),
                            earlier.line
                        ),
                    ));
                } else {
                    table.figures.insert(key, figure);
                }
            }
        }
        table
    }

    /// The figure with `key`.
    pub fn get(&self, key: &str) -> Option<&StoredFigure> {
        self.figures.get(key)
    }
}

/// Chapter id -> binary name, from the files `chapters/src/bin/<id>-<slug>.rs`.
pub fn chapter_bins(root: &Path) -> BTreeMap<String, String> {
    let Ok(entries) = std::fs::read_dir(root.join("chapters/src/bin")) else {
        return BTreeMap::new();
    };
    entries
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            let bin = path.file_stem()?.to_str()?.to_string();
            let (id, _slug) = bin.split_once('-')?;
            (path.extension()? == "rs").then(|| (id.to_string(), bin.clone()))
        })
        .collect()
}

/// How to rerun a chapter's program.
pub fn chapter_command(bin: &str) -> String {
    format!("cargo run --release -p chapters --bin {bin}")
}

/// The files `dir/*.ext`, sorted, relative to `root`.
fn files_with_extension(root: &Path, dir: &str, ext: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.is_file() && path.extension().is_some_and(|e| e == ext))
        .filter_map(|path| path.strip_prefix(root).ok().map(Path::to_path_buf))
        .collect();
    files.sort();
    files
}

/// Reads `file` as a [`Document`], or reports why it cannot.
pub fn read_document(root: &Path, file: &Path, problems: &mut Vec<Finding>) -> Option<Document> {
    let text = match std::fs::read_to_string(root.join(file)) {
        Ok(text) => text,
        Err(error) => {
            problems.push(Finding::error(file, 0, format!("cannot read: {error}")));
            return None;
        }
    };
    match parse_document(&text) {
        Ok(document) => Some(document),
        Err((line, message)) => {
            problems.push(Finding::error(file, line, message));
            None
        }
    }
}

/// The source `snapshots/<id>.snap`.
fn chapter_snapshots(root: &Path, problems: &mut Vec<Finding>) -> Vec<(String, StoredFigure)> {
    let bins = chapter_bins(root);
    let mut figures = Vec::new();
    for file in files_with_extension(root, "snapshots", "snap") {
        let Some(document) = read_document(root, &file, problems) else {
            continue;
        };
        let id = file
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_string();
        let command = match bins.get(&id) {
            Some(bin) => chapter_command(bin),
            None => "cargo test -p chapters --test figures".to_string(),
        };
        for (key, value, line) in document.body {
            figures.push((
                key,
                StoredFigure {
                    value,
                    file: file.clone(),
                    line,
                    command: command.clone(),
                },
            ));
        }
    }
    figures
}

/// The source `snapshots/measured/<id>.yaml`.
fn stored_measurements(root: &Path, problems: &mut Vec<Finding>) -> Vec<(String, StoredFigure)> {
    let mut figures = Vec::new();
    for file in files_with_extension(root, "snapshots/measured", "yaml") {
        let Some(document) = read_document(root, &file, problems) else {
            continue;
        };
        let header = |field: &str| {
            document
                .header
                .get(field)
                .cloned()
                .unwrap_or_else(|| "?".to_string())
        };
        for field in ["command", "machine", "date"] {
            if !document.header.contains_key(field) {
                problems.push(Finding::error(
                    &file,
                    1,
                    format!("the header records no {field}"),
                ));
            }
        }
        let command = format!(
            "{} (measured {} on {})",
            header("command"),
            header("date"),
            header("machine")
        );
        for (key, value, line) in document.body {
            figures.push((
                key,
                StoredFigure {
                    value,
                    file: file.clone(),
                    line,
                    command: command.clone(),
                },
            ));
        }
    }
    figures
}

/// The source `snapshots/games/*.json`: the arena recomputes each record's figures (Elo ± error,
/// W/D/L, pentanomial counts, ...; keys `games.<record>.<figure>`) from the stored counts, so
/// a game figure in the prose is checked against games that were played.
fn match_records(root: &Path, problems: &mut Vec<Finding>) -> Vec<(String, StoredFigure)> {
    let mut figures = Vec::new();
    for file in files_with_extension(root, "snapshots/games", "json") {
        match arena::record_figures(&root.join(&file)) {
            Ok(map) => {
                let command = format!(
                    "recomputed by arena::record_figures from {}",
                    file.display()
                );
                for (key, value) in map {
                    let stored = StoredFigure {
                        value,
                        file: file.clone(),
                        line: 0,
                        command: command.clone(),
                    };
                    figures.push((key, stored));
                }
            }
            Err(error) => problems.push(Finding::error(
                &file,
                0,
                format!("not a match record: {}", error.message),
            )),
        }
    }
    figures
}
