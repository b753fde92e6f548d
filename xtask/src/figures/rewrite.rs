//! `cargo xtask figures --rewrite ID`: after a chapter's figures were measured again, every quote
//! `[literal]{key}` in the chapter's pages (`book/src/<id>-*.md`, sub-pages like
//! `ch10-1-*.md` included) whose literal differs from the stored value gets the stored value,
//! written in the old literal's style ([`restyle`]). The same comparison as verify's
//! ([`same_value`]) decides what differs, and the same reading of the markdown
//! ([`figure_quotes`]) finds the quotes, so after a rewrite verify finds no differing figure in
//! the chapter.
//!
//! A number is only part of a claim: "grew by [12]{...} %" may need other words once it says 3.
//! So each sentence touched is printed, the old and the new figure side by side, for a person to
//! re-read.

use crate::preprocess::prose::{Lines, Quote, figure_quotes};
use crate::stored::FigureTable;
use crate::stored::literal::{restyle, same_value};
use std::ops::Range;
use std::path::{Path, PathBuf};

/// One quote whose literal changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rewrite {
    /// The quote as it stands in the page.
    pub quote: Quote,
    /// The literal it gets: the stored value in the old literal's style.
    pub new_literal: String,
}

/// What a rewrite did to one page: the sentences it touched, for a person to re-read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Touched {
    /// The page, relative to the root.
    pub file: PathBuf,
    /// 1-based line where the sentence's first changed figure is.
    pub line: usize,
    /// The sentence as a reader sees it, each changed figure shown as `old → new`.
    pub sentence: String,
}

/// The quotes of `markdown` whose literal differs from the value `table` stores, with their new
/// literals. Plain marks and keys nothing stores are left alone (verify reports the latter).
pub fn plan(markdown: &str, table: &FigureTable) -> Vec<Rewrite> {
    figure_quotes(markdown)
        .into_iter()
        .filter(|quote| !quote.is_plain())
        .filter_map(|quote| {
            let stored = &table.get(&quote.key)?.value;
            (!same_value(&quote.literal, stored)).then(|| Rewrite {
                new_literal: restyle(&quote.literal, stored),
                quote,
            })
        })
        .collect()
}

/// `markdown` with every rewrite applied (they come in page order, as [`plan`] gives them).
pub fn apply(markdown: &str, rewrites: &[Rewrite]) -> String {
    let mut out = String::with_capacity(markdown.len());
    let mut copied = 0;
    for rewrite in rewrites {
        let quote = &rewrite.quote;
        out.push_str(&markdown[copied..quote.range.start]);
        out.push_str(&format!("[{}]{{{}}}", rewrite.new_literal, quote.key));
        copied = quote.range.end;
    }
    out.push_str(&markdown[copied..]);
    out
}

/// The byte range of the sentence around `at`: back to the end of the previous sentence (`.`,
/// `?`, `!` or `:` before whitespace) or paragraph, on to the end of this one. A table row is its
/// own line.
pub fn sentence_around(markdown: &str, at: Range<usize>) -> Range<usize> {
    let line_start = markdown[..at.start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = markdown[at.end..]
        .find('\n')
        .map_or(markdown.len(), |i| at.end + i);
    if markdown[line_start..].trim_start().starts_with('|') {
        return line_start..line_end;
    }
    let before = &markdown[..at.start];
    let start = [
        before.rfind("\n\n").map(|i| i + 2),
        sentence_ends(before).last().copied(),
    ]
    .into_iter()
    .flatten()
    .max()
    .unwrap_or(0);
    let start = at.start - markdown[start..at.start].trim_start().len();
    let after = &markdown[at.end..];
    let paragraph_end = after.find("\n\n").unwrap_or(after.len());
    let end = sentence_ends(after)
        .first()
        .copied()
        .filter(|&end| end <= paragraph_end)
        .unwrap_or(paragraph_end);
    start..at.end + end
}

/// The offsets just after each sentence end in `text`: `.`, `?`, `!` or `:` followed by
/// whitespace (so `41.3` and `e.g.x` are not ends).
fn sentence_ends(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    (0..bytes.len().saturating_sub(1))
        .filter(|&i| {
            matches!(bytes[i], b'.' | b'?' | b'!' | b':') && bytes[i + 1].is_ascii_whitespace()
        })
        .map(|i| i + 1)
        .collect()
}

/// The sentence `range` of `markdown` as a reader sees it: quotes as their literals, the
/// rewritten ones as `old → new`, whitespace collapsed.
pub fn shown(markdown: &str, range: Range<usize>, rewrites: &[Rewrite]) -> String {
    let mut out = String::new();
    let mut copied = range.start;
    for quote in figure_quotes(markdown)
        .into_iter()
        .filter(|q| q.range.start >= range.start && q.range.end <= range.end)
    {
        out.push_str(&markdown[copied..quote.range.start]);
        match rewrites.iter().find(|r| r.quote.range == quote.range) {
            Some(rewrite) => out.push_str(&format!("{} → {}", quote.literal, rewrite.new_literal)),
            None => out.push_str(&quote.literal),
        }
        copied = quote.range.end;
    }
    out.push_str(&markdown[copied..range.end]);
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The sentences `rewrites` touch in `markdown`, each once, in page order.
pub fn touched(file: &Path, markdown: &str, rewrites: &[Rewrite]) -> Vec<Touched> {
    let lines = Lines::new(markdown);
    let mut sentences: Vec<(Range<usize>, usize)> = Vec::new();
    for rewrite in rewrites {
        let sentence = sentence_around(markdown, rewrite.quote.range.clone());
        if sentences.last().is_none_or(|(last, _)| *last != sentence) {
            sentences.push((sentence, lines.line_of(rewrite.quote.range.start)));
        }
    }
    sentences
        .into_iter()
        .map(|(range, line)| Touched {
            file: file.to_path_buf(),
            line,
            sentence: shown(markdown, range, rewrites),
        })
        .collect()
}

/// The pages of chapter `id`: `book/src/<id>-*.md`, sorted, relative to `root`.
pub fn chapter_pages(root: &Path, id: &str) -> Vec<PathBuf> {
    let src = Path::new(crate::verify::BOOK_SRC);
    let Ok(entries) = std::fs::read_dir(root.join(src)) else {
        return Vec::new();
    };
    let prefix = format!("{id}-");
    let mut pages: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.starts_with(&prefix) && name.ends_with(".md"))
        .map(|name| src.join(name))
        .collect();
    pages.sort();
    pages
}

/// Rewrites the differing figures of chapter `id` in place; returns the sentences touched.
pub fn rewrite_chapter(root: &Path, id: &str) -> Result<Vec<Touched>, String> {
    let mut problems = Vec::new();
    let table = FigureTable::load(root, &mut problems);
    if let Some(problem) = problems.first() {
        return Err(format!("cannot read the stored figures: {problem}"));
    }
    let pages = chapter_pages(root, id);
    if pages.is_empty() {
        return Err(format!("no page book/src/{id}-*.md"));
    }
    let mut all = Vec::new();
    for page in pages {
        let path = root.join(&page);
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", page.display()))?;
        let rewrites = plan(&text, &table);
        if rewrites.is_empty() {
            continue;
        }
        all.extend(touched(&page, &text, &rewrites));
        std::fs::write(&path, apply(&text, &rewrites))
            .map_err(|e| format!("cannot write {}: {e}", page.display()))?;
    }
    Ok(all)
}

/// `cargo xtask figures --rewrite ID`: rewrites, then prints each sentence touched.
pub fn run(root: &Path, id: &str) -> Result<(), String> {
    let touched = rewrite_chapter(root, id)?;
    if touched.is_empty() {
        println!("{id}: every figure already reads as stored");
        return Ok(());
    }
    for sentence in &touched {
        println!(
            "{}:{}:\n    {}\n",
            sentence.file.display(),
            sentence.line,
            sentence.sentence
        );
    }
    println!(
        "rewrote figures in {} sentence(s) of {id}: re-read each one above, the words around a \
         number may need to change with it",
        touched.len()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stored::StoredFigure;

    fn table(figures: &[(&str, &str)]) -> FigureTable {
        let mut table = FigureTable::default();
        for (key, value) in figures {
            table.figures.insert(
                key.to_string(),
                StoredFigure {
                    value: value.to_string(),
                    file: PathBuf::from("snapshots/ch11.snap"),
                    line: 1,
                    command: "cargo run".to_string(),
                },
            );
        }
        table
    }

    const PAGE: &str = "# 11. Null move\n\nThe tree shrank to [1,234,567]{ch11.nodes} nodes, a change of\n\
                        [−12.5]{ch11.change_pct} %. It found [e4]{ch11.best} and [64]{plain} squares.\n\n\
                        | depth | nodes |\n|---|---|\n| 8 | [980]{ch11.d8} |\n";

    #[test]
    fn only_differing_figures_are_rewritten_in_their_style() {
        let stored = table(&[
            ("ch11.nodes", "1234999"),
            ("ch11.change_pct", "-13.25"),
            ("ch11.best", "e4"),
            ("ch11.d8", "1020"),
        ]);
        let rewrites = plan(PAGE, &stored);
        let news: Vec<&str> = rewrites.iter().map(|r| r.new_literal.as_str()).collect();
        assert_eq!(news, ["1,234,999", "−13.25", "1,020"]);
        let after = apply(PAGE, &rewrites);
        assert!(
            after.contains(
                "[1,234,999]{ch11.nodes} nodes, a change of\n[−13.25]{ch11.change_pct} %"
            )
        );
        assert!(after.contains("| 8 | [1,020]{ch11.d8} |"));
        assert!(
            plan(&after, &stored).is_empty(),
            "a second rewrite changes nothing"
        );
    }

    #[test]
    fn each_sentence_touched_is_shown_once_with_old_and_new() {
        let stored = table(&[
            ("ch11.nodes", "1234999"),
            ("ch11.change_pct", "-13.25"),
            ("ch11.best", "e4"),
            ("ch11.d8", "1020"),
        ]);
        let rewrites = plan(PAGE, &stored);
        let shown: Vec<(usize, String)> = touched(Path::new("p.md"), PAGE, &rewrites)
            .into_iter()
            .map(|t| (t.line, t.sentence))
            .collect();
        assert_eq!(
            shown,
            [
                (
                    3,
                    "The tree shrank to 1,234,567 → 1,234,999 nodes, a change of −12.5 → −13.25 %."
                        .to_string()
                ),
                (8, "| 8 | 980 → 1,020 |".to_string())
            ]
        );
    }

    #[test]
    fn sentences_end_at_stops_not_at_decimal_points() {
        let text = "First one. Then 41.3 is it: the rest.";
        let at = text.find("41.3").unwrap();
        assert_eq!(&text[sentence_around(text, at..at + 4)], "Then 41.3 is it:");
    }
}
