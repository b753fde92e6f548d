//! Code blocks start at the left margin: each block's lines lose the indentation they all share.
//!
//! An excerpt is included by anchor from wherever it sits in the source, so a method taken from
//! inside an `impl` arrives indented by four spaces, a helper inside a function by eight. In the
//! book that indentation only pushes the long lines further right (issue 18: excerpts that need
//! sideways scrolling). mdBook does not dedent includes, so our preprocessor does, after mdBook
//! has expanded them and before it renders the page: every line of a code block loses as many
//! leading spaces as its least-indented non-blank line has. Relative indentation is kept.
//!
//! Code blocks are found with pulldown-cmark ([`super::prose`]'s reading of markdown), so a
//! block inside a list item keeps the item's indentation: only the code's own is removed.

use pulldown_cmark::{Event, Parser, Tag, TagEnd};
use std::ops::Range;

/// `markdown` with every code block's shared indentation removed.
pub fn dedent_code_blocks(markdown: &str) -> String {
    let mut cut: Vec<Range<usize>> = Vec::new();
    for block in code_blocks(markdown) {
        cut.extend(indentation_to_cut(markdown, &block));
    }
    let mut out = String::with_capacity(markdown.len());
    let mut copied = 0;
    for range in cut {
        out.push_str(&markdown[copied..range.start]);
        copied = range.end;
    }
    out.push_str(&markdown[copied..]);
    out
}

/// The lines of each code block: for each block, the byte ranges of its lines in `markdown`
/// (without their newline). A block whose text is not the markdown's own bytes (pulldown-cmark
/// rewrote a tab of a container's indentation) is left out.
fn code_blocks(markdown: &str) -> Vec<Vec<Range<usize>>> {
    let mut blocks = Vec::new();
    let mut current: Option<(Vec<Range<usize>>, bool)> = None;
    let parser = Parser::new_ext(markdown, super::prose::mdbook_options());
    for (event, range) in parser.into_offset_iter() {
        match (event, current.as_mut()) {
            (Event::Start(Tag::CodeBlock(_)), _) => current = Some((Vec::new(), true)),
            (Event::End(TagEnd::CodeBlock), Some(_)) => {
                if let Some((lines, true)) = current.take() {
                    blocks.push(lines);
                }
            }
            (Event::Text(text), Some((lines, verbatim))) => {
                if markdown.get(range.clone()) != Some(text.as_ref()) {
                    *verbatim = false;
                    continue;
                }
                lines.extend(split_lines(markdown, range));
            }
            _ => {}
        }
    }
    blocks
}

/// The lines of `markdown[range]`, as byte ranges without their newline.
fn split_lines(markdown: &str, range: Range<usize>) -> Vec<Range<usize>> {
    let mut lines = Vec::new();
    let mut start = range.start;
    for (i, _) in markdown[range.clone()].match_indices('\n') {
        lines.push(start..range.start + i);
        start = range.start + i + 1;
    }
    if start < range.end {
        lines.push(start..range.end);
    }
    lines
}

/// Leading spaces of `line`.
fn indent(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// The leading spaces every non-blank line of a block shares: what [`dedent_code_blocks`] cuts
/// (0 for a block of blank lines).
pub fn shared_indent<'a>(lines: impl Iterator<Item = &'a str>) -> usize {
    lines
        .filter(|text| !text.trim().is_empty())
        .map(indent)
        .min()
        .unwrap_or(0)
}

/// The byte ranges to remove from a block: the first `n` spaces of each line, `n` being the
/// least indentation of its non-blank lines (a blank line loses what spaces it has, up to `n`).
fn indentation_to_cut(markdown: &str, lines: &[Range<usize>]) -> Vec<Range<usize>> {
    let shared = shared_indent(lines.iter().map(|line| &markdown[line.clone()]));
    if shared == 0 {
        return Vec::new();
    }
    lines
        .iter()
        .map(|line| {
            let n = indent(&markdown[line.clone()]).min(shared);
            line.start..line.start + n
        })
        .filter(|cut| !cut.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_method_from_inside_an_impl_starts_at_the_margin() {
        let md = "Text.\n\n```rust\n    /// Doc.\n    pub fn f() {\n        g();\n\n    }\n```\n";
        assert_eq!(
            dedent_code_blocks(md),
            "Text.\n\n```rust\n/// Doc.\npub fn f() {\n    g();\n\n}\n```\n"
        );
    }

    #[test]
    fn blocks_at_the_margin_prose_and_list_indentation_are_kept() {
        let md = "    Not code? It is: an indented block.\n\n\
                  Prose stays\n    as it is.\n\n\
                  - item\n\n  ```text\n    a\n      b\n  ```\n\n```\nfn x() {\n    y\n}\n```\n";
        assert_eq!(
            dedent_code_blocks(md),
            "    Not code? It is: an indented block.\n\n\
             Prose stays\n    as it is.\n\n\
             - item\n\n  ```text\n  a\n    b\n  ```\n\n```\nfn x() {\n    y\n}\n```\n"
        );
    }
}
