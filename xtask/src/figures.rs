//! The commands that compute, show, store and recheck the book's figures (`cargo xtask figures`,
//! `measure`, `recheck`), and the helpers the measuring commands share (machine, date, commit,
//! the stored-measurements file). Where figures are stored and how they are read is
//! [`crate::stored`].
//!
//! `cargo xtask figures [ID]` runs chapter programs and shows each figure against its snapshot;
//! `cargo xtask figures --rewrite ID` rewrites the chapter's quotes to the stored values
//! ([`rewrite`]).

pub mod rewrite;

/// The measuring commands (`perf`, `suite`) read back what they store with it.
pub use crate::stored::document::parse_document;

use crate::stored::literal::{exact_decimal, same_value};
use crate::stored::{chapter_bins, chapter_command, read_document};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The `cargo` that runs us (`cargo` sets `CARGO`), so a pinned toolchain stays pinned: every
/// cargo command xtask runs starts here.
pub fn cargo() -> Command {
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

/// Today's date (UTC) as `YYYY-MM-DD` (the arena's clock, [`arena::bench::utc_today`]).
pub fn today() -> String {
    arena::bench::utc_today()
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
}
