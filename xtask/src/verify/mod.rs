//! `cargo xtask verify`: the book is built strictly and every claim in it is checked.
//!
//! mdBook exits 0 when an include is missing, an anchor has no end, or a link points nowhere.
//! This pass does not. [`verify`] takes a repository root (the real one, or a fixture book in
//! `xtask/tests/fixtures/`) and reports, each with its file and line:
//!
//! - includes ([`includes`]): a `{{#include}}` whose file or anchor is missing, an anchor without
//!   its end (or an end without its start), an anchor in the source that no chapter uses, an
//!   unknown `{{#...}}` directive;
//! - figures ([`quotes`]): a quoted figure that differs from its snapshot, a key no snapshot
//!   holds, a number in prose that looks measured and carries no key; a stored figure no page
//!   quotes is a warning;
//! - diagrams ([`mermaid`]): a mermaid block whose diagram type mermaid does not know;
//! - boards ([`boards`]): a `{{#board}}` whose FEN the engine refuses, or whose arrow or
//!   highlighted square is no square;
//! - panels ([`panels`]): a `{{#runit}}` that does not parse, or names a figure no snapshot
//!   holds;
//! - references ([`drafts`]): prose naming a chapter ("chapter 17", "M2") that SUMMARY.md still
//!   lists as a draft;
//! - the build ([`crate::book`]): anything mdBook logs as a warning or an error;
//! - links ([`links`]): an internal link to a missing page or a missing `#anchor`;
//! - the output ([`output`]): any `{{#` left in the HTML.

pub mod boards;
pub mod drafts;
pub mod includes;
pub mod links;
pub mod mermaid;
pub mod output;
pub mod panels;
pub mod quotes;

pub use crate::finding::{Finding, Severity};

use crate::stored::FigureTable;
use std::path::{Path, PathBuf};

/// Everything verify found.
#[derive(Debug, Default)]
pub struct Report {
    pub findings: Vec<Finding>,
}

impl Report {
    pub fn errors(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| f.is_error())
    }

    pub fn warnings(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| !f.is_error())
    }

    pub fn is_clean(&self) -> bool {
        self.errors().next().is_none()
    }
}

/// One markdown page of the book: its path relative to the root and its text.
#[derive(Debug)]
pub struct Page {
    pub file: PathBuf,
    pub text: String,
}

impl Page {
    /// The page's path inside `book/src` (`ch01-squares-and-bitboards.md`).
    pub fn in_src(&self) -> PathBuf {
        self.file
            .strip_prefix(BOOK_SRC)
            .map(Path::to_path_buf)
            .unwrap_or_else(|_| self.file.clone())
    }
}

/// Where the book's markdown lives, relative to the root.
pub const BOOK_SRC: &str = "book/src";

/// Every `.md` under `book/src` but SUMMARY.md, sorted.
pub fn read_pages(root: &Path, findings: &mut Vec<Finding>) -> Vec<Page> {
    let mut pages = Vec::new();
    for file in walk(&root.join(BOOK_SRC), &|path| {
        path.extension().is_some_and(|e| e == "md")
    }) {
        let relative = file.strip_prefix(root).unwrap_or(&file).to_path_buf();
        if relative == Path::new(BOOK_SRC).join("SUMMARY.md") {
            continue;
        }
        match std::fs::read_to_string(&file) {
            Ok(text) => pages.push(Page {
                file: relative,
                text,
            }),
            Err(error) => findings.push(Finding::error(
                &relative,
                0,
                format!("cannot read: {error}"),
            )),
        }
    }
    pages
}

/// Files under `dir` (recursively, sorted) that `keep` accepts, skipping build output
/// (`target`, `build`), test fixtures and hidden folders.
pub fn walk(dir: &Path, keep: &dyn Fn(&Path) -> bool) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return found;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if path.is_dir() {
            if !(name.starts_with('.') || matches!(name, "target" | "build" | "fixtures")) {
                found.extend(walk(&path, keep));
            }
        } else if keep(&path) {
            found.push(path);
        }
    }
    found
}

/// Runs every check on the repository at `root`, building the book into `book/build`.
pub fn verify(root: &Path) -> Report {
    let mut findings = Vec::new();
    let table = FigureTable::load(root, &mut findings);
    let pages = read_pages(root, &mut findings);

    includes::check(root, &pages, &mut findings);
    quotes::check(&pages, &table, &mut findings);
    mermaid::check(&pages, &mut findings);
    boards::check(&pages, &mut findings);
    panels::check(&pages, &table, &mut findings);
    drafts::check(root, &pages, &mut findings);

    match crate::book::build(root) {
        Ok(built) => {
            for message in built.log {
                findings.push(Finding::error(
                    Path::new("book"),
                    0,
                    format!("mdBook: {message}"),
                ));
            }
            links::check(root, &pages, Some(&built.dir), &mut findings);
            output::check(root, &built.dir, &mut findings);
        }
        Err(error) => {
            findings.push(Finding::error(
                Path::new("book"),
                0,
                format!("the book does not build: {error}"),
            ));
            links::check(root, &pages, None, &mut findings);
        }
    }
    findings.sort_by(|a, b| (a.severity, &a.file, a.line).cmp(&(b.severity, &b.file, b.line)));
    Report { findings }
}

/// `cargo xtask verify`: prints the findings and fails on any error.
pub fn run(root: &Path) -> Result<(), String> {
    let report = verify(root);
    for finding in &report.findings {
        eprintln!("{finding}");
    }
    let errors = report.errors().count();
    let warnings = report.warnings().count();
    if errors == 0 {
        println!("verify: the book is consistent ({warnings} warning(s))");
        Ok(())
    } else {
        Err(format!("verify: {errors} error(s), {warnings} warning(s)"))
    }
}
