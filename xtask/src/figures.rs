//! Where the book's figures are stored, and the commands that show and store them.
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
//! `cargo xtask figures [ID]` runs chapter programs and shows each figure against its snapshot.

use crate::verify::Finding;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

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

/// A snapshot-like document: an optional header between `---` lines, then a flat YAML map.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Document {
    pub header: BTreeMap<String, String>,
    /// `(key, value, 1-based line)`, in file order.
    pub body: Vec<(String, String, usize)>,
}

/// Parses insta's snapshot format (and ours for stored measurements): `---`, header lines,
/// `---`, then one `key: value` per line. Values may be plain, 'single' or "double" quoted.
/// Anything nested is refused: a chapter's figures are a flat map. Errors carry a line.
pub fn parse_document(text: &str) -> Result<Document, (usize, String)> {
    let mut document = Document::default();
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line))
        .peekable();
    if lines
        .peek()
        .is_some_and(|(_, line)| line.trim_end() == "---")
    {
        lines.next();
        loop {
            let Some((number, line)) = lines.next() else {
                return Err((
                    number_of_lines(text),
                    "the header has no closing ---".to_string(),
                ));
            };
            if line.trim_end() == "---" {
                break;
            }
            // Nested header fields (insta's `info:`) are not ours to read.
            if !line.starts_with([' ', '\t'])
                && let Some((key, value)) = line.split_once(':')
            {
                let value = scalar(value.trim()).map_err(|message| (number, message))?;
                document.header.insert(key.trim().to_string(), value);
            }
        }
    }
    for (number, line) in lines {
        let content = line.trim_end();
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        if content.starts_with([' ', '\t', '-']) {
            return Err((
                number,
                "figures are a flat map: one `key: value` per line".to_string(),
            ));
        }
        let Some((key, value)) = content
            .split_once(": ")
            .or_else(|| content.strip_suffix(':').map(|k| (k, "")))
        else {
            return Err((number, format!("expected `key: value`, found {content:?}")));
        };
        if value.trim().is_empty() {
            return Err((
                number,
                format!("{key} has no value (nested maps are not figures)"),
            ));
        }
        let value = scalar(value.trim()).map_err(|message| (number, message))?;
        document.body.push((key.trim().to_string(), value, number));
    }
    Ok(document)
}

fn number_of_lines(text: &str) -> usize {
    text.lines().count().max(1)
}

/// The value of a YAML scalar as written on one line.
fn scalar(raw: &str) -> Result<String, String> {
    if let Some(inner) = raw.strip_prefix('\'') {
        let inner = inner.strip_suffix('\'').ok_or("unclosed 'string'")?;
        return Ok(inner.replace("''", "'"));
    }
    if let Some(inner) = raw.strip_prefix('"') {
        let inner = inner.strip_suffix('"').ok_or("unclosed \"string\"")?;
        let mut value = String::new();
        let mut chars = inner.chars();
        while let Some(c) = chars.next() {
            if c != '\\' {
                value.push(c);
                continue;
            }
            match chars.next() {
                Some('n') => value.push('\n'),
                Some('t') => value.push('\t'),
                Some(c @ ('\\' | '"' | '/')) => value.push(c),
                other => return Err(format!("unsupported escape \\{}", other.unwrap_or(' '))),
            }
        }
        return Ok(value);
    }
    Ok(raw.to_string())
}

/// True when the `literal` a page quotes is the `stored` value: numbers compare as exact
/// decimals after dropping thousands separators (`,`, thin and no-break spaces), a leading `+`
/// and trailing zeros of a fraction, with `−` read as `-`; anything else compares as text.
pub fn same_value(literal: &str, stored: &str) -> bool {
    match (exact_decimal(literal), exact_decimal(stored)) {
        (Some(a), Some(b)) => a == b,
        _ => literal.trim() == stored.trim(),
    }
}

/// A number in canonical form (`-41.3` for `−41.30`), or `None` if `text` is not a number.
pub fn exact_decimal(text: &str) -> Option<String> {
    let cleaned: String = text
        .trim()
        .chars()
        .filter(|c| !matches!(c, ',' | '\u{00A0}' | '\u{2009}' | '\u{202F}'))
        .map(|c| if c == '−' { '-' } else { c })
        .collect();
    let (negative, digits) = match cleaned.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, cleaned.strip_prefix('+').unwrap_or(&cleaned)),
    };
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let all_digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
    if whole.is_empty() || !all_digits(whole) || !all_digits(fraction) {
        return None;
    }
    let whole = whole.trim_start_matches('0');
    let fraction = fraction.trim_end_matches('0');
    let magnitude = match (whole.is_empty(), fraction.is_empty()) {
        (true, true) => return Some("0".to_string()),
        (_, true) => whole.to_string(),
        (true, false) => format!("0.{fraction}"),
        (false, false) => format!("{whole}.{fraction}"),
    };
    Some(if negative {
        format!("-{magnitude}")
    } else {
        magnitude
    })
}

/// A literal whose digit groups are not groups of three (`48,65,609`), if it is one.
pub fn misgrouped(literal: &str) -> bool {
    let whole = literal.split('.').next().unwrap_or(literal);
    let groups: Vec<&str> = whole
        .split([',', '\u{00A0}', '\u{2009}', '\u{202F}'])
        .collect();
    groups.len() > 1 && groups[1..].iter().any(|group| group.len() != 3)
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
fn read_document(root: &Path, file: &Path, problems: &mut Vec<Finding>) -> Option<Document> {
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

/// The `cargo` that runs us, so a pinned toolchain stays pinned.
fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// Runs a chapter program with `flag` (`--figures`, `--measured`) and reads the YAML it prints.
fn run_program(root: &Path, bin: &str, flag: &str) -> Result<Vec<(String, String, usize)>, String> {
    run_program_with(root, bin, &[flag])
}

/// Runs a program of the `chapters` package in release with `args` and reads the YAML map it
/// prints.
fn run_program_with(
    root: &Path,
    bin: &str,
    args: &[&str],
) -> Result<Vec<(String, String, usize)>, String> {
    let shown = format!("{} -- {}", chapter_command(bin), args.join(" "));
    eprintln!("running {shown}");
    let output = cargo()
        .current_dir(root)
        .args([
            "run",
            "--quiet",
            "--release",
            "-p",
            "chapters",
            "--bin",
            bin,
            "--",
        ])
        .args(args)
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "{shown} failed:\n{}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    parse_document(&stdout)
        .map(|document| document.body)
        .map_err(|(line, message)| format!("{shown} printed bad YAML, line {line}: {message}"))
}

/// `cargo xtask recheck [ID]`: computes every chapter's deep figures again (or those of `only`)
/// with `chapters/src/bin/deep.rs` and compares each with the value `cargo xtask measure` stored
/// in `snapshots/measured/<id>.yaml`. Deep figures are slow but the same on every machine, so CI
/// runs this: a stored figure is believed because it is recomputed, not because it was once.
/// Fails when a figure differs or was never stored.
pub fn recheck(root: &Path, only: Option<&str>) -> Result<(), String> {
    let computed = run_program_with(root, "deep", only.as_slice())?;
    let mut problems = Vec::new();
    let mut stored_by_chapter: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for (key, _, _) in &computed {
        let id = chapter_of(key);
        stored_by_chapter.entry(id.to_string()).or_insert_with(|| {
            read_document(root, &measured_path(id), &mut problems)
                .map(|d| d.body.into_iter().map(|(k, v, _)| (k, v)).collect())
                .unwrap_or_default()
        });
    }
    let mut differences = deep_differences(&computed, &stored_by_chapter);
    differences.extend(problems.iter().map(ToString::to_string));
    if differences.is_empty() {
        println!(
            "recheck: {} deep figure(s) of {} chapter(s) computed again, all as stored",
            computed.len(),
            stored_by_chapter.len()
        );
        Ok(())
    } else {
        Err(format!(
            "{} deep figure(s) differ from what is stored (rerun `cargo xtask measure <id>` and \
             re-read the prose that quotes them):\n  {}",
            differences.len(),
            differences.join("\n  ")
        ))
    }
}

/// The chapter a figure key belongs to: its first part (`m5` of `m5.measured.d12...`).
fn chapter_of(key: &str) -> &str {
    key.split('.').next().unwrap_or_default()
}

/// Where `cargo xtask measure` stores a chapter's heavy figures.
fn measured_path(id: &str) -> PathBuf {
    PathBuf::from(format!("snapshots/measured/{id}.yaml"))
}

/// Each computed deep figure whose stored value, looked up in its chapter's stored figures,
/// differs or is missing, as a line for the report.
fn deep_differences(
    computed: &[(String, String, usize)],
    stored_by_chapter: &BTreeMap<String, BTreeMap<String, String>>,
) -> Vec<String> {
    computed
        .iter()
        .filter_map(|(key, value, _)| {
            let file = measured_path(chapter_of(key));
            match stored_by_chapter
                .get(chapter_of(key))
                .and_then(|stored| stored.get(key))
            {
                Some(old) if same_value(value, old) => None,
                Some(old) => Some(format!(
                    "{key}: {value}, but {} stores {old}",
                    file.display()
                )),
                None => Some(format!("{key}: {value}, not stored in {}", file.display())),
            }
        })
        .collect()
}

/// `cargo xtask figures [ID]`: runs each chapter program (or the one of `only`) and shows each
/// figure against its snapshot. Fails when any differs.
pub fn show(root: &Path, only: Option<&str>) -> Result<(), String> {
    let bins = chapter_bins(root);
    let chosen: Vec<(&String, &String)> = bins
        .iter()
        .filter(|(id, _)| only.is_none_or(|o| o == id.as_str()))
        .collect();
    if chosen.is_empty() {
        return Err(match only {
            Some(id) => format!("no program chapters/src/bin/{id}-*.rs"),
            None => "no chapter programs in chapters/src/bin".to_string(),
        });
    }
    let mut differences = 0;
    for (id, bin) in chosen {
        let computed = run_program(root, bin, "--figures")?;
        let snapshot_file = PathBuf::from(format!("snapshots/{id}.snap"));
        let mut problems = Vec::new();
        let stored: BTreeMap<String, String> = read_document(root, &snapshot_file, &mut problems)
            .map(|d| d.body.into_iter().map(|(k, v, _)| (k, v)).collect())
            .unwrap_or_default();
        println!(
            "\n{id} ({}) against {}",
            chapter_command(bin),
            snapshot_file.display()
        );
        let mut report = String::new();
        for (key, value, _) in &computed {
            let verdict = match stored.get(key) {
                Some(old) if same_value(value, old) => "same".to_string(),
                Some(old) => format!("DIFFERS (snapshot: {old})"),
                None => "NEW (not in the snapshot)".to_string(),
            };
            differences += usize::from(verdict != "same");
            let _ = writeln!(report, "  {key:<40} {value:>14}  {verdict}");
        }
        for key in stored
            .keys()
            .filter(|k| computed.iter().all(|(c, _, _)| c != *k))
        {
            differences += 1;
            let _ = writeln!(
                report,
                "  {key:<40} {:>14}  GONE (only in the snapshot)",
                "-"
            );
        }
        print!("{report}");
    }
    if differences == 0 {
        println!("\nevery figure is the same as its snapshot");
        Ok(())
    } else {
        Err(format!(
            "{differences} figure(s) differ from their snapshots: review with `cargo insta review` \
             after `cargo test -p chapters --test figures`, then re-read the prose that quotes them"
        ))
    }
}

/// `cargo xtask measure ID`: runs the chapter's heavy figures in release and stores them in
/// `snapshots/measured/<id>.yaml` with the command, machine, date and commit.
pub fn measure(root: &Path, id: &str) -> Result<(), String> {
    let bins = chapter_bins(root);
    let bin = bins
        .get(id)
        .ok_or_else(|| format!("no program chapters/src/bin/{id}-*.rs"))?;
    let figures = run_program(root, bin, "--measured")?;
    let body: String = figures
        .iter()
        .map(|(key, value, _)| format!("{key}: {}\n", yaml_value(value)))
        .collect();
    let text = measured_file(
        &format!("cargo xtask measure {id}"),
        &format!("{} -- --measured", chapter_command(bin)),
        &machine(),
        &today(),
        &commit(root),
        &body,
    );
    let file = root.join(format!("snapshots/measured/{id}.yaml"));
    std::fs::create_dir_all(file.parent().expect("a folder")).map_err(|e| e.to_string())?;
    std::fs::write(&file, text).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    println!("wrote {} ({} figures)", file.display(), figures.len());
    Ok(())
}

/// A value as it goes in a YAML file: numbers bare, text double-quoted.
fn yaml_value(value: &str) -> String {
    if exact_decimal(value).is_some() {
        value.to_string()
    } else {
        format!("\"{}\"", value.replace('\\', "\\\\").replace('"', "\\\""))
    }
}

/// The text of a stored-measurements file.
pub fn measured_file(
    command: &str,
    program: &str,
    machine: &str,
    date: &str,
    commit: &str,
    body: &str,
) -> String {
    let one_line = |s: &str| yaml_value(&s.replace('\n', " "));
    format!(
        "---\ncommand: {}\nprogram: {}\nmachine: {}\ndate: {}\ncommit: {}\n---\n{body}",
        one_line(command),
        one_line(program),
        one_line(machine),
        one_line(date),
        one_line(commit),
    )
}

/// The machine, for the record: CPU model, threads, OS (the arena's [`arena::bench::Machine`],
/// which match records store, plus the platform).
pub fn machine() -> String {
    let arena::bench::Machine { cores, cpu } = arena::bench::Machine::this();
    format!(
        "{cpu}, {cores} threads, {} {}",
        std::env::consts::OS,
        std::env::consts::ARCH
    )
}

/// Today's date (UTC) as `YYYY-MM-DD`.
pub fn today() -> String {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (year, month, day) = civil_from_days((seconds / 86_400) as i64);
    format!("{year:04}-{month:02}-{day:02}")
}

/// The Gregorian date of a day count since 1970-01-01 (Howard Hinnant, "chrono-Compatible
/// Low-Level Date Algorithms", `civil_from_days`).
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// The commit the figures were measured at, marked when the tree had changes.
pub fn commit(root: &Path) -> String {
    let git = |args: &[&str]| {
        Command::new("git")
            .current_dir(root)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    match (
        git(&["rev-parse", "--short", "HEAD"]),
        git(&["status", "--porcelain"]),
    ) {
        (Some(hash), Some(changes)) if !changes.is_empty() => format!("{hash} with local changes"),
        (Some(hash), _) => hash,
        _ => "unknown".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deep_figure_that_moved_or_was_never_stored_is_reported() {
        let computed = vec![
            ("m5.a.nodes".to_string(), "1200".to_string(), 1),
            ("m5.b.pct".to_string(), "41.30".to_string(), 2),
            ("m5.c.nodes".to_string(), "7".to_string(), 3),
            ("ch05.d.nodes".to_string(), "9".to_string(), 4),
        ];
        let stored: BTreeMap<String, BTreeMap<String, String>> = [(
            "m5".to_string(),
            [
                ("m5.a.nodes", "1,200"),
                ("m5.b.pct", "41.3"),
                ("m5.c.nodes", "8"),
            ]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        )]
        .into_iter()
        .collect();
        assert_eq!(
            deep_differences(&computed, &stored),
            vec![
                "m5.c.nodes: 7, but snapshots/measured/m5.yaml stores 8".to_string(),
                "ch05.d.nodes: 9, not stored in snapshots/measured/ch05.yaml".to_string(),
            ]
        );
    }

    #[test]
    fn an_insta_snapshot_parses_to_its_figures() {
        let text = "---\nsource: chapters/tests/figures.rs\nexpression: figures\n---\n\
                    ch01.e2.flipped: e7\nch01.e4.index: 28\nch01.quoted: \"a \\\"b\\\"\"\nch01.single: 'it''s'\n";
        let document = parse_document(text).unwrap();
        assert_eq!(document.header["source"], "chapters/tests/figures.rs");
        let body: Vec<(&str, &str, usize)> = document
            .body
            .iter()
            .map(|(k, v, l)| (k.as_str(), v.as_str(), *l))
            .collect();
        assert_eq!(
            body,
            [
                ("ch01.e2.flipped", "e7", 5),
                ("ch01.e4.index", "28", 6),
                ("ch01.quoted", "a \"b\"", 7),
                ("ch01.single", "it's", 8)
            ]
        );
    }

    #[test]
    fn nested_maps_and_open_headers_are_refused() {
        assert_eq!(parse_document("a:\n  b: 1\n").unwrap_err().0, 1);
        assert_eq!(
            parse_document("---\nsource: x\n").unwrap_err().1,
            "the header has no closing ---"
        );
    }

    #[test]
    fn a_measured_file_reads_back() {
        let text = measured_file(
            "cargo xtask measure ch05",
            "cargo run",
            "cpu, 2 threads",
            "2026-01-02",
            "abc",
            "ch05.d7: 3195901860\n",
        );
        let document = parse_document(&text).unwrap();
        assert_eq!(document.header["date"], "2026-01-02");
        assert_eq!(
            document.body,
            [("ch05.d7".to_string(), "3195901860".to_string(), 8)]
        );
    }

    #[test]
    fn literals_compare_as_exact_numbers() {
        assert!(same_value("4,865,609", "4865609"));
        assert!(same_value("4\u{2009}865\u{2009}609", "4865609"));
        assert!(same_value("41.30", "41.3"));
        assert!(same_value("−12", "-12"));
        assert!(same_value("+35", "35"));
        assert!(!same_value("4,865,610", "4865609"));
        assert!(!same_value("41", "41.3"));
        assert!(same_value("e4", "e4"));
        assert!(!same_value("e5", "e4"));
        assert!(misgrouped("48,65,609"));
        assert!(!misgrouped("4,865,609.25"));
    }

    #[test]
    fn days_become_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(20_513), (2026, 3, 1));
    }
}
