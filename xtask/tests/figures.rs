//! `cargo xtask figures --rewrite ID` on the fixture book: the chapter's differing figures, in its
//! page and its sub-page, take the stored values in their old style; other chapters are left
//! alone; verify then finds the chapter consistent.

mod common;

use common::Fixture;
use xtask::figures::rewrite::rewrite_chapter;

#[test]
fn a_chapters_stale_figures_are_rewritten_and_each_sentence_shown() {
    let fixture = Fixture::new();
    fixture.edit("book/src/ch01-demo.md", "[4,865,609]", "[4,865,000]");
    fixture.edit("book/src/ch01-demo.md", "[41.30]", "[41.20]");
    // a sub-page of chapter 1 quoting a figure measured elsewhere, with the book's minus sign
    fixture.write(
        "snapshots/measured/ch01-extra.yaml",
        "---\ncommand: \"cargo xtask measure ch01\"\nmachine: \"m\"\ndate: \"2026-01-01\"\n---\n\
         ch01.delta: -1234.5\n",
    );
    fixture.write(
        "book/src/ch01-1-sub.md",
        "# 1.1 Sub\n\nIt moved by [−999.0]{ch01.delta} points. Nothing else did.\n",
    );
    // another chapter quoting chapter 1 wrongly is not chapter 1's to rewrite
    fixture.edit(
        "book/src/ch02-more.md",
        "Back to [the demo](ch01-demo.md).",
        "Back to [the demo](ch01-demo.md), where e4 is [e5]{ch01.name}.",
    );

    let touched = rewrite_chapter(fixture.root(), "ch01").expect("the rewrite runs");
    let shown: Vec<(String, usize, &str)> = touched
        .iter()
        .map(|t| (t.file.display().to_string(), t.line, t.sentence.as_str()))
        .collect();
    assert_eq!(
        shown,
        [
            (
                "book/src/ch01-1-sub.md".to_string(),
                3,
                "It moved by −999.0 → −1,234.5 points."
            ),
            (
                "book/src/ch01-demo.md".to_string(),
                9,
                "Perft to depth 5 finds 4,865,000 → 4,865,609 nodes, a hit rate of 41.20 → 41.3 %, \
                 and e4 is e4."
            ),
        ]
    );

    let read = |file: &str| std::fs::read_to_string(fixture.root().join(file)).unwrap();
    assert!(read("book/src/ch01-demo.md").contains(
        "[4,865,609]{ch01.startpos.d5.nodes} nodes, a hit rate of\n[41.3]{ch01.hit_pct} %"
    ));
    assert!(read("book/src/ch01-1-sub.md").contains("[−1,234.5]{ch01.delta}"));
    assert!(read("book/src/ch02-more.md").contains("[e5]{ch01.name}"));

    let report = xtask::verify::verify(fixture.root());
    let differing: Vec<String> = report
        .errors()
        .filter(|f| f.message.contains("differs from"))
        .map(ToString::to_string)
        .collect();
    assert_eq!(differing.len(), 1, "{differing:?}");
    assert!(
        differing[0].starts_with("book/src/ch02-more.md:5"),
        "{differing:?}"
    );
    assert!(rewrite_chapter(fixture.root(), "ch01").unwrap().is_empty());
}

#[test]
fn a_chapter_without_pages_is_an_error() {
    let fixture = Fixture::new();
    assert_eq!(
        rewrite_chapter(fixture.root(), "ch09").unwrap_err(),
        "no page book/src/ch09-*.md"
    );
}
