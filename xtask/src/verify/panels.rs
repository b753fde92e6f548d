//! **Run it here** panels: every `{{#runit ...}}` parses (its positions by the engine, its
//! switch and stage by the engine's tables, every pinned figure it names stored) and stands on
//! a line of its own, so that it becomes one HTML block (the syntax is in
//! [`crate::preprocess::runit`]).

use super::boards::alone_on_its_line;
use super::{Finding, Page};
use crate::preprocess::directive::directives;
use crate::preprocess::runit::{self, Panel};
use crate::stored::FigureTable;

pub fn check(pages: &[Page], table: &FigureTable, findings: &mut Vec<Finding>) {
    let stored = |key: &str| table.get(key).map(|figure| figure.value.clone());
    for page in pages {
        let (found, _malformed) = directives(&page.text); // malformed ones: includes.rs
        for directive in found.iter().filter(|d| d.kind == runit::KIND) {
            let at = |message: String| Finding::error(&page.file, directive.line, message);
            if let Err(problem) = Panel::parse(&directive.argument, &stored) {
                findings.push(at(format!("Run it here panel: {problem}")));
            }
            if !alone_on_its_line(&page.text, directive) {
                findings.push(at(
                    "Run it here panel: put {{#runit ...}} on a line of its own".to_string(),
                ));
            }
        }
    }
}
