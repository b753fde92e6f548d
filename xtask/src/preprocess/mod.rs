//! Our mdBook preprocessor, `figures`: it runs after mdBook's own (includes are expanded) and
//! before mdbook-mermaid, and does three things to every page:
//!
//! - code blocks lose the indentation all their lines share, so an excerpt from inside an `impl`
//!   starts at the left margin ([`dedent`]);
//! - board directives `{{#board FEN ...}}` become inline SVG diagrams ([`board`]);
//! - **Run it here** panels `{{#runit ...}}` become the panel's HTML, with the pinned figures
//!   they compare with read from the stored figures ([`runit`]);
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
pub mod runit;

use crate::stored::FigureTable;
use board::Board;
use directive::directives;
use mdbook_preprocessor::book::{Book, BookItem};
use mdbook_preprocessor::errors::Result;
use mdbook_preprocessor::{Preprocessor, PreprocessorContext};
use runit::Panel;
use std::collections::BTreeMap;
use std::path::Path;

/// Our preprocessor (named `figures` in mdBook), knowing the command behind every stored key
/// and its value (for the panels).
#[derive(Debug, Default)]
pub struct PagePreprocessor {
    commands: BTreeMap<String, String>,
    values: BTreeMap<String, String>,
    /// Chapter id -> the command that runs its program (`cargo run --release -p chapters
    /// --bin ch11-null-move`).
    programs: BTreeMap<String, String>,
}

impl PagePreprocessor {
    pub fn new(table: &FigureTable) -> PagePreprocessor {
        let commands = table
            .figures
            .iter()
            .map(|(key, stored)| (key.clone(), stored.command.clone()))
            .collect();
        let values = table
            .figures
            .iter()
            .map(|(key, stored)| (key.clone(), stored.value.clone()))
            .collect();
        PagePreprocessor {
            commands,
            values,
            programs: BTreeMap::new(),
        }
    }

    /// The same, knowing each chapter's program (`stored::chapter_bins`), which a panel names.
    pub fn with_programs(mut self, bins: &BTreeMap<String, String>) -> PagePreprocessor {
        self.programs = bins
            .iter()
            .map(|(id, bin)| (id.clone(), crate::stored::chapter_command(bin)))
            .collect();
        self
    }

    /// `markdown` with its code dedented, its boards and panels drawn and its quotes rendered,
    /// and the problems with its boards and panels (`cargo xtask verify` reports them with
    /// their lines).
    pub fn render(&self, markdown: &str) -> (String, Vec<String>) {
        let dedented = dedent::dedent_code_blocks(markdown);
        let (drawn, mut problems) = render_boards(&dedented);
        let (panels, panel_problems) = self.render_panels(&drawn);
        problems.extend(panel_problems);
        (self.render_quotes(&panels), problems)
    }

    /// `markdown` with every `{{#runit ...}}` replaced by its panel; a panel that does not
    /// parse is replaced by a visible error, and its problem returned.
    pub fn render_panels(&self, markdown: &str) -> (String, Vec<String>) {
        let stored = |key: &str| self.values.get(key).cloned();
        let program = |id: &str| self.programs.get(id).cloned();
        let mut rendered = String::with_capacity(markdown.len());
        let mut problems = Vec::new();
        let mut copied = 0;
        let (found, _malformed) = directives(markdown);
        for directive in found.iter().filter(|d| d.kind == runit::KIND) {
            rendered.push_str(&markdown[copied..directive.range.start]);
            match Panel::parse(&directive.argument, &stored) {
                Ok(panel) => rendered.push_str(&runit::render(&panel, &program)),
                Err(problem) => {
                    rendered.push_str(&format!(
                        "<p class=\"board-error\">Run it here panel: {}</p>\n",
                        escape_html(&problem)
                    ));
                    problems.push(format!("Run it here panel: {problem}"));
                }
            }
            copied = directive.range.end;
        }
        rendered.push_str(&markdown[copied..]);
        (rendered, problems)
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
                problems.push(format!("board diagram: {problem}"));
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
                    tracing::warn!("{}: {problem}", page.display());
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
