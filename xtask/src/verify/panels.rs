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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stored::StoredFigure;
    use std::path::PathBuf;

    fn errors(text: &str) -> Vec<(usize, String)> {
        let pages = [Page {
            file: PathBuf::from("book/src/p.md"),
            text: text.to_string(),
        }];
        let mut table = FigureTable::default();
        for key in ["ch11.z.on.nodes", "ch11.z.off.nodes"] {
            let figure = StoredFigure {
                value: "100".to_string(),
                file: PathBuf::from("snapshots/ch11.snap"),
                line: 1,
                command: "cargo run".to_string(),
            };
            table.figures.insert(key.to_string(), figure);
        }
        let mut findings = Vec::new();
        check(&pages, &table, &mut findings);
        findings.into_iter().map(|f| (f.line, f.message)).collect()
    }

    const FEN: &str = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";

    #[test]
    fn a_panel_with_stored_figures_alone_on_its_line_passes() {
        let md = format!(
            "Text.\n\n{{{{#runit {FEN} id=z stage=11 switch=nullmove depth=8 figures=ch11.z}}}}\n"
        );
        assert!(errors(&md).is_empty(), "{:?}", errors(&md));
    }

    #[test]
    fn a_missing_figure_or_a_panel_inside_a_sentence_is_reported_at_its_line() {
        let md = format!(
            "One.\n\n{{{{#runit {FEN} id=z stage=11 switch=nullmove depth=8 figures=ch11.y}}}}\n\n\
             See {{{{#runit {FEN} id=z stage=11 switch=nullmove depth=8}}}} here.\n"
        );
        let found = errors(&md);
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(found[0].0, 3);
        assert!(
            found[0].1.contains("no stored figure ch11.y.on.nodes"),
            "{found:?}"
        );
        assert_eq!(found[1].0, 5);
        assert!(found[1].1.contains("a line of its own"), "{found:?}");
    }
}
