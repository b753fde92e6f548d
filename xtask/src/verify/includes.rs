//! Includes and anchors: every excerpt the book shows comes from the real source, by anchor.
//!
//! An anchor is a comment line `// ANCHOR: name` ... `// ANCHOR_END: name` (mdBook's syntax; `#`,
//! `--`, `;`, `/*` and `<!--` comments work too). Only comment lines count, so a string that
//! merely contains the words is not an anchor. Names are unique per file.

use super::{Finding, Page, walk};
use crate::preprocess::dedent::shared_indent;
use crate::preprocess::directive::directives;
use regex::Regex;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};
use std::sync::LazyLock;

/// The folders whose `.rs` files may hold anchors; each anchor there must be used by a page.
pub const SOURCE_DIRS: &[&str] = &["crates", "chapters", "xtask"];

/// One anchored region of a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Anchor {
    pub name: String,
    /// 1-based line of `ANCHOR: name`.
    pub start: usize,
    /// 1-based line of `ANCHOR_END: name`, if there is one.
    pub end: Option<usize>,
}

static ANCHOR_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(?://[/!]?|#|--|;|<!--|/\*)\s*ANCHOR(_END)?:\s*([A-Za-z0-9_-]+)")
        .expect("a valid regex")
});

/// The anchors of a file, and the problems with them as `(line, message)`.
pub fn parse_anchors(text: &str) -> (Vec<Anchor>, Vec<(usize, String)>) {
    let mut anchors: Vec<Anchor> = Vec::new();
    let mut problems = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let Some(caps) = ANCHOR_LINE.captures(line) else {
            continue;
        };
        let name = caps[2].to_string();
        let is_end = caps.get(1).is_some();
        let existing = anchors.iter_mut().find(|a| a.name == name);
        match (is_end, existing) {
            (false, None) => anchors.push(Anchor {
                name,
                start: number,
                end: None,
            }),
            (false, Some(earlier)) => problems.push((
                number,
                format!(
                    "anchor {name} is already opened on line {}: names are unique per file",
                    earlier.start
                ),
            )),
            (true, Some(open)) if open.end.is_none() => open.end = Some(number),
            (true, Some(closed)) => problems.push((
                number,
                format!(
                    "ANCHOR_END: {name} again (anchor {name} already ended on line {})",
                    closed.end.unwrap_or(0)
                ),
            )),
            (true, None) => problems.push((
                number,
                format!("ANCHOR_END: {name} without ANCHOR: {name} before it"),
            )),
        }
    }
    for anchor in anchors.iter().filter(|a| a.end.is_none()) {
        problems.push((
            anchor.start,
            format!(
                "ANCHOR: {} has no ANCHOR_END: {} (mdBook would include the rest of the file)",
                anchor.name, anchor.name
            ),
        ));
    }
    (anchors, problems)
}

/// What an include asks for after the path, as mdBook reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selection {
    Whole,
    Lines,
    Anchor(String),
}

/// Splits `path[:anchor | :start[:end]]` as mdBook does.
pub fn split_include(argument: &str) -> (String, Selection) {
    let file_arg = argument.split_whitespace().next().unwrap_or_default();
    let (path, rest) = file_arg.split_once(':').unwrap_or((file_arg, ""));
    let first = rest.split(':').next().unwrap_or_default();
    let selection = if first.is_empty() {
        if rest.is_empty() {
            Selection::Whole
        } else {
            Selection::Lines
        }
    } else if first.parse::<usize>().is_ok() {
        Selection::Lines
    } else {
        Selection::Anchor(first.to_string())
    };
    (path.to_string(), selection)
}

/// `path` with `.` and `..` resolved lexically.
fn normalize(path: &Path) -> PathBuf {
    let mut normal = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                normal.pop();
            }
            Component::CurDir => {}
            other => normal.push(other),
        }
    }
    normal
}

/// The widest excerpt line the book's code box shows without scrolling sideways (rustfmt's
/// `max_width`; the browser check measures about 108 characters at the book's font).
pub const EXCERPT_WIDTH: usize = 100;

/// The lines of `anchor` wider than [`EXCERPT_WIDTH`] once the excerpt's common indentation is
/// removed (as mdBook and our dedent step show it), as `(1-based line, width)`. rustfmt keeps
/// code within 100 columns but leaves comments alone, so a long doc comment is what this finds.
pub fn wide_lines(text: &str, anchor: &Anchor) -> Vec<(usize, usize)> {
    let Some(end) = anchor.end else {
        return Vec::new();
    };
    let body: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(index, line)| (index + 1, line))
        .filter(|(number, line)| {
            *number > anchor.start && *number < end && !ANCHOR_LINE.is_match(line)
        })
        .collect();
    let indent = shared_indent(body.iter().map(|(_, line)| *line));
    body.iter()
        .map(|(number, line)| (*number, line.chars().count().saturating_sub(indent)))
        .filter(|(_, width)| *width > EXCERPT_WIDTH)
        .collect()
}

/// Checks every directive of every page and every anchor of the source folders.
pub fn check(root: &Path, pages: &[Page], findings: &mut Vec<Finding>) {
    let root = normalize(root);
    let mut anchor_cache: BTreeMap<PathBuf, Vec<Anchor>> = BTreeMap::new();
    let mut reported: BTreeSet<PathBuf> = BTreeSet::new();
    let mut used: BTreeSet<(PathBuf, String)> = BTreeSet::new();

    let mut anchors_of = |relative: &Path, findings: &mut Vec<Finding>| -> Vec<Anchor> {
        if let Some(anchors) = anchor_cache.get(relative) {
            return anchors.clone();
        }
        let text = std::fs::read_to_string(root.join(relative)).unwrap_or_default();
        let (anchors, problems) = parse_anchors(&text);
        if reported.insert(relative.to_path_buf()) {
            for (line, message) in problems {
                findings.push(Finding::error(relative, line, message));
            }
            for anchor in &anchors {
                for (line, width) in wide_lines(&text, anchor) {
                    findings.push(Finding::error(
                        relative,
                        line,
                        format!(
                            "line of anchor {} is {width} characters wide once dedented: the page's \
                             code box holds {EXCERPT_WIDTH} (rewrap the comment)",
                            anchor.name
                        ),
                    ));
                }
            }
        }
        anchor_cache.insert(relative.to_path_buf(), anchors.clone());
        anchors
    };

    for page in pages {
        let (found, problems) = directives(&page.text);
        for (line, message) in problems {
            findings.push(Finding::error(&page.file, line, message));
        }
        let page_dir = root
            .join(&page.file)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| root.clone());
        for directive in found {
            let at = |message: String| Finding::error(&page.file, directive.line, message);
            match directive.kind.as_str() {
                "include" | "rustdoc_include" | "playground" => {}
                "title" => continue,
                // Drawn by our preprocessor, checked by `super::boards`.
                crate::preprocess::board::KIND => continue,
                // Drawn by our preprocessor, checked by `super::panels`.
                crate::preprocess::runit::KIND => continue,
                other => {
                    findings.push(at(format!(
                        "unknown directive {{{{#{other}}}}}: mdBook would leave it in the page"
                    )));
                    continue;
                }
            }
            let (path, selection) = split_include(&directive.argument);
            let target = normalize(&page_dir.join(&path));
            let Ok(relative) = target.strip_prefix(&root).map(Path::to_path_buf) else {
                findings.push(at(format!(
                    "{} reaches outside the repository: {path}",
                    directive.text
                )));
                continue;
            };
            if !target.is_file() {
                findings.push(at(format!(
                    "included file not found: {path} (that is {})",
                    relative.display()
                )));
                continue;
            }
            let anchors = anchors_of(&relative, findings);
            match selection {
                Selection::Anchor(name) => {
                    match anchors.iter().find(|a| a.name == name) {
                        None => findings.push(at(format!("anchor {name} not found in {}", relative.display()))),
                        Some(anchor) if anchor.end.is_none() => {
                            findings.push(at(format!("anchor {name} in {} has no ANCHOR_END", relative.display())))
                        }
                        Some(_) => {}
                    }
                    used.insert((relative, name));
                }
                Selection::Lines if path.ends_with(".rs") => findings.push(Finding::warning(
                    &page.file,
                    directive.line,
                    format!("{} includes lines by number, which drift when the file changes: use an anchor", directive.text),
                )),
                Selection::Lines | Selection::Whole => {}
            }
        }
    }

    for dir in SOURCE_DIRS {
        for file in walk(&root.join(dir), &|path| {
            path.extension().is_some_and(|e| e == "rs")
        }) {
            let relative = file.strip_prefix(&root).unwrap_or(&file).to_path_buf();
            for anchor in anchors_of(&relative, findings) {
                if !used.contains(&(relative.clone(), anchor.name.clone())) {
                    findings.push(Finding::error(
                        &relative,
                        anchor.start,
                        format!(
                            "anchor {} is used by no page: include it in a chapter or remove it",
                            anchor.name
                        ),
                    ));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_comment_line_in_an_excerpt_is_found_after_dedenting() {
        let long = format!("    /// {}", "x".repeat(EXCERPT_WIDTH - 3));
        let fits = format!("    /// {}", "x".repeat(EXCERPT_WIDTH - 4));
        let text = format!("// ANCHOR: a\n{fits}\n{long}\n// ANCHOR_END: a\n{long}\n");
        let (anchors, _) = parse_anchors(&text);
        // Four columns of common indentation come off: `fits` is 100 wide, `long` 101; the
        // long line after the anchor's end is not in the excerpt.
        assert_eq!(wide_lines(&text, &anchors[0]), vec![(3, EXCERPT_WIDTH + 1)]);
    }

    #[test]
    fn anchors_pair_up_and_strings_are_not_anchors() {
        let text = "// ANCHOR: a\nfn a() {}\n// ANCHOR_END: a\nlet s = \"// ANCHOR: b\";\n    # ANCHOR: c\n";
        let (anchors, problems) = parse_anchors(text);
        assert_eq!(
            anchors,
            [
                Anchor {
                    name: "a".into(),
                    start: 1,
                    end: Some(3)
                },
                Anchor {
                    name: "c".into(),
                    start: 5,
                    end: None
                }
            ]
        );
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].0, 5);
    }

    #[test]
    fn an_end_without_start_is_a_problem() {
        let (_, problems) = parse_anchors("x\n// ANCHOR_END: lonely\n");
        assert_eq!(
            problems,
            [(
                2,
                "ANCHOR_END: lonely without ANCHOR: lonely before it".to_string()
            )]
        );
    }

    #[test]
    fn include_arguments_split_as_mdbook_reads_them() {
        assert_eq!(
            split_include("../a.rs:slots_for"),
            ("../a.rs".into(), Selection::Anchor("slots_for".into()))
        );
        assert_eq!(
            split_include("../a.rs:3:9"),
            ("../a.rs".into(), Selection::Lines)
        );
        assert_eq!(
            split_include("../a.rs::9"),
            ("../a.rs".into(), Selection::Lines)
        );
        assert_eq!(
            split_include("../a.rs"),
            ("../a.rs".into(), Selection::Whole)
        );
    }
}
