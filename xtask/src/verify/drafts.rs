//! References to chapters not written yet.
//!
//! A chapter still to be written is a draft line in `book/src/SUMMARY.md`, `- [17. Threads and
//! lock-free entries]()`: mdBook shows its title, greyed, and no page. Prose that says "chapter
//! 17" (or "Chapter 17's", "chapters 17 and 18", "chapters 16 to 18") or names a milestone "M2"
//! whose line is a draft points the reader at nothing: verify fails there, and the reference waits
//! until the chapter exists.
//!
//! Milestone names are short enough to mean other things. "M1" after "an" or "Apple" is a
//! processor ("on an M1"), not a milestone, so those two words before it exempt it; only
//! prose is read (inline code and figure keys like `{ch12.table.d3.m2}` are not milestone names:
//! the first is not prose, the second is lower case).

use super::{BOOK_SRC, Finding, Page};
use crate::preprocess::prose::{Lines, prose_ranges};
use regex::Regex;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

/// Where the drafts are listed, relative to the root.
pub fn summary_path() -> PathBuf {
    Path::new(BOOK_SRC).join("SUMMARY.md")
}

/// One draft line of SUMMARY.md.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Draft {
    /// `17`, `17.1` or `M2`: the label its title starts with.
    pub label: String,
    /// The whole title: `17. Threads and lock-free entries`.
    pub title: String,
    /// 1-based line in SUMMARY.md.
    pub line: usize,
}

static DRAFT_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*[-*]\s+\[(([0-9]+(?:\.[0-9]+)?|M[0-9]+)\.?\s[^\]]*)\]\(\s*\)")
        .expect("a valid regex")
});

/// The draft chapters of a SUMMARY.md, by label.
pub fn drafts(summary: &str) -> BTreeMap<String, Draft> {
    summary
        .lines()
        .enumerate()
        .filter_map(|(index, line)| {
            let caps = DRAFT_LINE.captures(line)?;
            let draft = Draft {
                label: caps[2].to_string(),
                title: caps[1].trim().to_string(),
                line: index + 1,
            };
            Some((draft.label.clone(), draft))
        })
        .collect()
}

/// A chapter number as prose writes it: `17`, `10.1`.
const NUMBER: &str = r"[0-9]+(?:\.[0-9]+)?";

static CHAPTER_REFERENCE: LazyLock<Regex> = LazyLock::new(|| {
    let separator = r"\s*(?:,|\band\b|\bor\b|\bto\b|–|-|&)\s*";
    Regex::new(&format!(
        r"\b[Cc]hapters?\s+({NUMBER}(?:{separator}{NUMBER})*)\b"
    ))
    .expect("a valid regex")
});
static LIST_ITEM: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!(r"({NUMBER})|(\bto\b|–|-)")).expect("a valid regex"));
static MILESTONE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(\b[A-Za-z]+\s+)?\b(M[0-9]+)\b").expect("a valid regex"));

/// The chapter labels a list like `8 and 11 to 13` names: `8 11 12 13`. A range runs over whole
/// chapter numbers.
fn labels_in_list(list: &str) -> Vec<String> {
    let mut labels: Vec<String> = Vec::new();
    let mut range_open = false;
    for caps in LIST_ITEM.captures_iter(list) {
        if caps.get(2).is_some() {
            range_open = !labels.is_empty();
            continue;
        }
        let label = caps[1].to_string();
        if range_open {
            let from = labels.last().and_then(|l| l.parse::<u32>().ok());
            if let (Some(from), Ok(to)) = (from, label.parse::<u32>()) {
                labels.extend((from + 1..to).map(|n| n.to_string()));
            }
            range_open = false;
        }
        labels.push(label);
    }
    labels
}

/// A reference in prose: `(byte offset, what the prose says, the label it names)`.
type Reference = (usize, String, String);

/// Every chapter and milestone the prose of `markdown` names, with where.
pub fn references(markdown: &str) -> Vec<Reference> {
    let prose = prose_ranges(markdown);
    let in_prose = |offset: usize| {
        let i = prose.partition_point(|range| range.end <= offset);
        prose.get(i).is_some_and(|range| range.start <= offset)
    };
    let mut found = Vec::new();
    for caps in CHAPTER_REFERENCE.captures_iter(markdown) {
        let whole = caps.get(0).expect("the whole match");
        if !in_prose(whole.start()) || !in_prose(whole.end() - 1) {
            continue;
        }
        let text = whole
            .as_str()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        for label in labels_in_list(&caps[1]) {
            found.push((whole.start(), text.clone(), label));
        }
    }
    for caps in MILESTONE.captures_iter(markdown) {
        let name = caps.get(2).expect("the name");
        let before = caps.get(1).map_or("", |m| m.as_str().trim());
        if in_prose(name.start()) && !matches!(before, "an" | "An" | "Apple") {
            found.push((
                name.start(),
                name.as_str().to_string(),
                name.as_str().to_string(),
            ));
        }
    }
    found.sort_by_key(|reference| reference.0); // stable: a list keeps its order
    found
}

/// The draft a label names: itself, or for `17.1` its chapter `17`.
fn draft_named<'a>(drafts: &'a BTreeMap<String, Draft>, label: &str) -> Option<&'a Draft> {
    drafts.get(label).or_else(|| {
        let chapter = label.split('.').next()?;
        drafts.get(chapter)
    })
}

pub fn check(root: &Path, pages: &[Page], findings: &mut Vec<Finding>) {
    let Ok(summary) = std::fs::read_to_string(root.join(summary_path())) else {
        return; // the build reports a missing SUMMARY.md
    };
    let drafts = drafts(&summary);
    if drafts.is_empty() {
        return;
    }
    for page in pages {
        let lines = Lines::new(&page.text);
        for (offset, text, label) in references(&page.text) {
            if let Some(draft) = draft_named(&drafts, &label) {
                findings.push(Finding::error(
                    &page.file,
                    lines.line_of(offset),
                    format!(
                        "\"{text}\" names a chapter not written yet ({}:{} lists \"{}\" as a \
                         draft): refer to it once its page exists",
                        summary_path().display(),
                        draft.line,
                        draft.title
                    ),
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SUMMARY: &str = "# Summary\n\n- [16. Testing](ch16.md)\n- [17. Threads and lock-free entries]()\n\
                           - [18. Evaluation II]( )\n    - [18.1 Later]()\n- [M1. Strength work]()\n\
                           - [M5. Buckets](m5.md)\n";

    fn named(markdown: &str) -> Vec<(String, String)> {
        references(markdown)
            .into_iter()
            .map(|(_, text, label)| (text, label))
            .collect()
    }

    #[test]
    fn draft_lines_are_read_with_their_labels() {
        let found = drafts(SUMMARY);
        assert_eq!(found.keys().collect::<Vec<_>>(), ["17", "18", "18.1", "M1"]);
        assert_eq!(found["17"].line, 4);
        assert_eq!(found["17"].title, "17. Threads and lock-free entries");
    }

    #[test]
    fn chapter_references_are_found_in_their_forms() {
        let pairs = |text: &str, labels: &[&str]| -> Vec<(String, String)> {
            labels
                .iter()
                .map(|l| (text.to_string(), l.to_string()))
                .collect()
        };
        assert_eq!(named("As chapter 17 shows."), pairs("chapter 17", &["17"]));
        assert_eq!(named("Chapter 18's table."), pairs("Chapter 18", &["18"]));
        assert_eq!(
            named("In chapters 8 and 11 to 13."),
            pairs("chapters 8 and 11 to 13", &["8", "11", "12", "13"])
        );
        assert_eq!(
            named("see chapter\n10.1, later"),
            pairs("chapter 10.1", &["10.1"])
        );
        assert_eq!(named("Milestone M1 adds it."), pairs("M1", &["M1"]));
    }

    #[test]
    fn code_keys_and_processors_are_not_references() {
        let md = "`chapter 17` and [1]{ch12.table.d3.m2}; measured on an M1 and on Apple M2.\n\n\
                  ```text\nchapter 18\n```\n";
        assert!(named(md).is_empty(), "{:?}", named(md));
    }

    #[test]
    fn a_reference_to_a_draft_fails_at_its_line() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path();
        std::fs::create_dir_all(dir.join(BOOK_SRC)).unwrap();
        std::fs::write(dir.join(summary_path()), SUMMARY).unwrap();
        let pages = [Page {
            file: PathBuf::from("book/src/ch16.md"),
            text: "Chapter 16 is here.\n\nChapter 17's entries\nand chapter 18.1 and M5 and M1.\n"
                .to_string(),
        }];
        let mut findings = Vec::new();
        check(dir, &pages, &mut findings);
        let lines: Vec<(usize, &str)> = findings
            .iter()
            .map(|f| (f.line, f.message.split(" names").next().unwrap()))
            .collect();
        assert_eq!(
            lines,
            [
                (3, "\"Chapter 17\""),
                (4, "\"chapter 18.1\""),
                (4, "\"M1\"")
            ]
        );
        assert!(
            findings[0]
                .message
                .contains("book/src/SUMMARY.md:4 lists \"17. Threads")
        );
    }
}
