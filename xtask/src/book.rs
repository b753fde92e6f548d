//! `cargo xtask book`: builds the book with mdBook's own library crates (no global install).
//!
//! The book in `book/` is loaded by `mdbook-driver`, given two preprocessors that run after
//! mdBook's `links` (includes) and `index`: ours ([`crate::preprocess`]: dedented code, board
//! diagrams, figure quotes) and
//! mdbook-mermaid's diagrams. The HTML lands in `book/build/`.
//!
//! mdBook reports problems (a missing include, unbalanced HTML) through `tracing` and exits 0.
//! We collect every warning and error it logs, print them, and `cargo xtask verify` fails on them.

use crate::preprocess::PagePreprocessor;
use crate::stored::FigureTable;
use mdbook_driver::MDBook;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Level, Metadata, Subscriber};

/// A finished build.
#[derive(Debug)]
pub struct Built {
    /// Where the HTML is: `book/build`.
    pub dir: PathBuf,
    /// What mdBook logged as a warning or an error, one message each.
    pub log: Vec<String>,
}

/// Builds the book of the repository at `root` into `book/build`.
pub fn build(root: &Path) -> Result<Built, String> {
    let book_dir = root.join("book");
    let mut problems = Vec::new();
    let table = FigureTable::load(root, &mut problems);
    if let Some(problem) = problems.first() {
        return Err(format!("cannot read the stored figures: {problem}"));
    }
    let log = LogCollector::default();
    let messages = Arc::clone(&log.messages);
    let result = tracing::subscriber::with_default(log, || -> Result<PathBuf, String> {
        let mut book = MDBook::load(&book_dir).map_err(|e| chain(&e))?;
        book.with_preprocessor(
            PagePreprocessor::new(&table).with_programs(&crate::stored::chapter_bins(root)),
        );
        book.with_preprocessor(mdbook_mermaid::Mermaid);
        book.build().map_err(|e| chain(&e))?;
        Ok(book.build_dir_for("html"))
    });
    let log = std::mem::take(&mut *messages.lock().unwrap_or_else(|poison| poison.into_inner()));
    let dir = result.map_err(|error| {
        let mut message = error;
        for line in &log {
            let _ = write!(message, "\n  mdBook: {line}");
        }
        message
    })?;
    Ok(Built { dir, log })
}

/// An error and its causes, on one line.
fn chain(error: &mdbook_driver::errors::Error) -> String {
    error
        .chain()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(": ")
}

/// `cargo xtask book`.
pub fn run(root: &Path) -> Result<(), String> {
    let built = build(root)?;
    for message in &built.log {
        eprintln!("mdBook: {message}");
    }
    let index = built.dir.join("index.html");
    println!("built the book: {}", index.display());
    Ok(())
}

/// A `tracing` subscriber that keeps the message of every warning and error.
#[derive(Debug, Default)]
struct LogCollector {
    messages: Arc<Mutex<Vec<String>>>,
}

/// Formats an event's fields: the message first, then `name=value` for the others.
#[derive(Default)]
struct MessageVisitor {
    text: String,
}

impl Visit for MessageVisitor {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            let _ = write!(self.text, "{value:?}");
        } else {
            let _ = write!(self.text, " {}={value:?}", field.name());
        }
    }
}

impl Subscriber for LogCollector {
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        *metadata.level() <= Level::WARN
    }

    fn new_span(&self, _span: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }

    fn record(&self, _span: &Id, _values: &Record<'_>) {}

    fn record_follows_from(&self, _span: &Id, _follows: &Id) {}

    fn event(&self, event: &Event<'_>) {
        let mut visitor = MessageVisitor::default();
        event.record(&mut visitor);
        let level = event.metadata().level();
        let mut messages = self
            .messages
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        messages.push(format!("{level}: {}", visitor.text));
    }

    fn enter(&self, _span: &Id) {}

    fn exit(&self, _span: &Id) {}
}
