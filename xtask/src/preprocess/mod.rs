//! Our mdBook preprocessor, `figures`: it runs after mdBook's own (includes are expanded) and
//! before mdbook-mermaid, and does three things to every page:
//!
//! - code blocks lose the indentation all their lines share, so an excerpt from inside an `impl`
//!   starts at the left margin ([`dedent`]);
//! - board directives `{{#board FEN ...}}` become inline SVG diagrams ([`board`]);
//! - figure quotes become the bare number, labelled with where it comes from ([`prose`]).
//!
//! `[4,865,609]{ch05.startpos.d5.nodes}` in prose renders as
//! `<span class="figure" title="ch05.startpos.d5.nodes — cargo run --release -p chapters --bin
//! ch05-perft">4,865,609</span>` (styled by `book/figures.css`), and `[65,536]{plain}` as
//! `65,536`. The literal stays what the markdown says; `cargo xtask verify` checks it against the
//! snapshot. Quotes in code are left alone (see [`prose`]).

pub mod board;
pub mod dedent;
pub mod directive;
pub mod prose;

use crate::stored::FigureTable;
use board::Board;
use directive::directives;
use mdbook_preprocessor::book::{Book, BookItem};
use mdbook_preprocessor::errors::Result;
use mdbook_preprocessor::{Preprocessor, PreprocessorContext};
use std::collections::BTreeMap;
use std::path::Path;

/// Our preprocessor (named `figures` in mdBook), knowing the command behind every stored key.
#[derive(Debug, Default)]
pub struct PagePreprocessor {
    commands: BTreeMap<String, String>,
}

impl PagePreprocessor {
    pub fn new(table: &FigureTable) -> PagePreprocessor {
        let commands = table
            .figures
            .iter()
            .map(|(key, stored)| (key.clone(), stored.command.clone()))
            .collect();
        PagePreprocessor { commands }
    }

    /// `markdown` with its code dedented, its boards drawn and its quotes rendered, and the
    /// problems with its boards (`cargo xtask verify` reports them with their lines).
    pub fn render(&self, markdown: &str) -> (String, Vec<String>) {
        let dedented = dedent::dedent_code_blocks(markdown);
        let (drawn, problems) = render_boards(&dedented);
        (self.render_quotes(&drawn), problems)
    }

    /// `markdown` with every quote in prose rendered.
    pub fn render_quotes(&self, markdown: &str) -> String {
        let mut rendered = String::with_capacity(markdown.len());
        let mut copied = 0;
        for quote in prose::figure_quotes(markdown) {
            rendered.push_str(&markdown[copied..quote.range.start]);
            let literal = escape_html(&quote.literal);
            if quote.is_plain() {
                rendered.push_str(&literal);
            } else {
                let origin = self
                    .commands
                    .get(&quote.key)
                    .map_or("in no snapshot: cargo xtask verify fails", String::as_str);
                let title = escape_html(&format!("{} — {origin}", quote.key));
                rendered.push_str(&format!(
                    "<span class=\"figure\" title=\"{title}\">{literal}</span>"
                ));
            }
            copied = quote.range.end;
        }
        rendered.push_str(&markdown[copied..]);
        rendered
    }
}

/// `markdown` with every `{{#board ...}}` replaced by its SVG figure; a board that does not
/// parse is replaced by a visible error, and its problem returned.
pub fn render_boards(markdown: &str) -> (String, Vec<String>) {
    let mut rendered = String::with_capacity(markdown.len());
    let mut problems = Vec::new();
    let mut copied = 0;
    let (found, _malformed) = directives(markdown);
    for directive in found.iter().filter(|d| d.kind == board::KIND) {
        rendered.push_str(&markdown[copied..directive.range.start]);
        match Board::parse(&directive.argument) {
            Ok(board) => rendered.push_str(&board::render(&board)),
            Err(problem) => {
                rendered.push_str(&format!(
                    "<p class=\"board-error\">board diagram: {}</p>\n",
                    escape_html(&problem)
                ));
                problems.push(problem);
            }
        }
        copied = directive.range.end;
    }
    rendered.push_str(&markdown[copied..]);
    (rendered, problems)
}

fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

impl Preprocessor for PagePreprocessor {
    fn name(&self) -> &str {
        "figures"
    }

    fn run(&self, _ctx: &PreprocessorContext, mut book: Book) -> Result<Book> {
        book.for_each_mut(|item| {
            if let BookItem::Chapter(chapter) = item {
                let (rendered, problems) = self.render(&chapter.content);
                chapter.content = rendered;
                for problem in problems {
                    let page = chapter.source_path.as_deref().unwrap_or(Path::new("?"));
                    tracing::warn!("{}: board diagram: {problem}", page.display());
                }
            }
        });
        Ok(book)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_render_as_labelled_numbers_and_code_is_untouched() {
        let mut preprocessor = PagePreprocessor::default();
        preprocessor
            .commands
            .insert("ch05.d5".into(), "cargo run --bin ch05-perft".into());
        let md = "It is [4,865,609]{ch05.d5}, [65,536]{plain} and `[1]{ch05.d5}`.";
        assert_eq!(
            preprocessor.render_quotes(md),
            "It is <span class=\"figure\" title=\"ch05.d5 — cargo run --bin ch05-perft\">4,865,609</span>, \
             65,536 and `[1]{ch05.d5}`."
        );
    }
}
