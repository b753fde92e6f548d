//! Figures in prose: every quoted figure equals its stored value, every key exists, and no
//! number that looks measured is typed without a key (the rules are in
//! [`crate::preprocess::prose`]).

use super::{Finding, Page};
use crate::preprocess::prose::{bare_numbers, figure_quotes};
use crate::stored::FigureTable;
use crate::stored::literal::{misgrouped, same_value};
use std::collections::BTreeSet;

pub fn check(pages: &[Page], table: &FigureTable, findings: &mut Vec<Finding>) {
    let mut quoted: BTreeSet<String> = BTreeSet::new();
    for page in pages {
        for quote in figure_quotes(&page.text) {
            let at = |message: String| Finding::error(&page.file, quote.line, message);
            if misgrouped(&quote.literal) {
                findings.push(at(format!(
                    "{} groups its digits wrongly: thousands go in threes",
                    quote.literal
                )));
            }
            if quote.is_plain() {
                continue;
            }
            quoted.insert(quote.key.clone());
            match table.get(&quote.key) {
                None => findings.push(at(format!(
                    "figure key {} is in no snapshot (snapshots/<id>.snap, snapshots/measured/<id>.yaml)",
                    quote.key
                ))),
                Some(stored) if !same_value(&quote.literal, &stored.value) => findings.push(at(format!(
                    "[{}]{{{}}} differs from {}:{}, which holds {} (rerun: {})",
                    quote.literal,
                    quote.key,
                    stored.file.display(),
                    stored.line,
                    stored.value,
                    stored.command
                ))),
                Some(_) => {}
            }
        }
        for number in bare_numbers(&page.text) {
            findings.push(Finding::error(
                &page.file,
                number.line,
                format!(
                    "{n} {why} but carries no key: quote it as [{n}]{{<key>}}, or write [{n}]{{plain}} if it is not measured",
                    n = number.text,
                    why = number.why
                ),
            ));
        }
    }
    for (key, stored) in &table.figures {
        if !quoted.contains(key) {
            findings.push(Finding::warning(
                &stored.file,
                stored.line,
                format!("figure {key} is quoted by no page"),
            ));
        }
    }
}
