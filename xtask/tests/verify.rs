//! `cargo xtask verify` on a fixture book: clean, it passes; with one thing broken, it fails
//! and names the file and line. Each test copies `tests/fixtures/clean` into a temporary folder
//! and breaks one thing there.

mod common;

use common::Fixture;
use std::path::{Path, PathBuf};
use xtask::verify::{Finding, Report, verify};

fn shown(findings: &[&Finding]) -> String {
    findings.iter().map(|f| format!("\n  {f}")).collect()
}

/// Asserts the report has exactly the errors `expected`, each `(file, line, words in the message)`;
/// line 0 matches any line (for built HTML, whose lines are mdBook's business).
#[track_caller]
fn assert_errors(report: &Report, expected: &[(&str, usize, &str)]) {
    let errors: Vec<&Finding> = report.errors().collect();
    let matches = |f: &Finding, (file, line, words): &(&str, usize, &str)| {
        f.file == PathBuf::from(file)
            && (*line == 0 || f.line == *line)
            && f.message.contains(words)
    };
    for want in expected {
        assert!(
            errors.iter().any(|f| matches(f, want)),
            "expected {want:?} among the errors:{}",
            shown(&errors)
        );
    }
    for error in &errors {
        assert!(
            expected.iter().any(|want| matches(error, want)),
            "unexpected error:{}",
            shown(&[error])
        );
    }
}

const CH01: &str = "book/src/ch01-demo.md";
const DEMO: &str = "crates/demo/src/lib.rs";

#[test]
fn the_clean_fixture_passes_without_a_warning() {
    let report = verify(Fixture::new().root());
    let all: Vec<&Finding> = report.findings.iter().collect();
    assert!(
        all.is_empty(),
        "findings on the clean fixture:{}",
        shown(&all)
    );
}

#[test]
fn a_board_is_drawn_as_svg_with_its_squares_and_pieces() {
    let fixture = Fixture::new();
    let report = verify(fixture.root());
    assert!(
        report.is_clean(),
        "{}",
        shown(&report.errors().collect::<Vec<_>>())
    );
    let html = std::fs::read_to_string(fixture.root().join("book/build/ch01-demo.html")).unwrap();
    let board = &html[html.find("<svg class=\"board\"").expect("a board")..];
    let board = &board[..board.find("</svg>").unwrap()];
    assert_eq!(board.matches("<rect class=\"square\"").count(), 64);
    assert_eq!(board.matches("<text class=\"piece\"").count(), 7);
    assert_eq!(board.matches("<polygon class=\"arrow\"").count(), 2);
    assert!(
        board.contains("aria-label=\"Chess board, FEN r3k2r/8/8/8/4P3/8/8/R3K2R b KQkq e3 0 1\"")
    );
    assert!(
        html.contains(
            "<figcaption>Black castles long, and the e-pawn just passed e3.</figcaption>"
        )
    );
}

#[test]
fn a_board_whose_fen_the_engine_refuses_fails_at_its_line() {
    let fixture = Fixture::new();
    // No pawn stands on e4 for the en-passant square e3.
    fixture.edit(
        CH01,
        "r3k2r/8/8/8/4P3/8/8/R3K2R b",
        "r3k2r/8/8/8/8/4P3/8/R3K2R b",
    );
    assert_errors(
        &verify(fixture.root()),
        &[
            (CH01, 26, "board diagram: the engine refuses the FEN"),
            // the preprocessor also tells mdBook, which `cargo xtask book` prints
            ("book", 0, "mdBook: WARN"),
        ],
    );
}

#[test]
fn a_board_with_a_bad_arrow_or_square_fails_at_its_line() {
    let fixture = Fixture::new();
    fixture.edit(
        CH01,
        "arrows=e8c8,a8d8 highlight=e3",
        "arrows=e8c8,a8d9 highlight=e3,i1",
    );
    assert_errors(
        &verify(fixture.root()),
        &[
            (CH01, 26, "arrow end \"d9\" is not a square"),
            ("book", 0, "mdBook: WARN"),
        ],
    );
    fixture.edit(CH01, "a8d9", "a8d8");
    assert_errors(
        &verify(fixture.root()),
        &[
            (CH01, 26, "highlight \"i1\" is not a square"),
            ("book", 0, "mdBook: WARN"),
        ],
    );
}

#[test]
fn a_reference_to_a_draft_chapter_fails_at_its_line() {
    let fixture = Fixture::new();
    // SUMMARY.md lists `- [3. Not written yet]()`: a draft.
    fixture.edit(
        "book/src/ch02-more.md",
        "Back to [the demo](ch01-demo.md).",
        "Back to [the demo](ch01-demo.md), as chapter 1 says;\nchapter 3's tables come later.",
    );
    assert_errors(
        &verify(fixture.root()),
        &[(
            "book/src/ch02-more.md",
            6,
            "\"chapter 3\" names a chapter not written yet (book/src/SUMMARY.md:9 lists \"3. Not written yet\"",
        )],
    );
}

#[test]
fn an_excerpt_from_inside_an_impl_starts_at_the_left_margin() {
    let fixture = Fixture::new();
    let report = verify(fixture.root());
    assert!(
        report.is_clean(),
        "{}",
        shown(&report.errors().collect::<Vec<_>>())
    );
    let html = std::fs::read_to_string(fixture.root().join("book/build/ch01-demo.html")).unwrap();
    assert!(
        html.contains(
            "/// Doubles: a method, indented in its `impl`, shown at the left margin.\n\
             pub fn double(x: u32) -&gt; u32 {\n    x * 2\n}"
        ),
        "{html}"
    );
}

#[test]
fn a_figure_edited_by_one_digit_fails() {
    let fixture = Fixture::new();
    fixture.edit(CH01, "[4,865,609]", "[4,865,619]");
    assert_errors(
        &verify(fixture.root()),
        &[(
            CH01,
            9,
            "differs from snapshots/ch01.snap:6, which holds 4865609",
        )],
    );
}

#[test]
fn a_stored_measurement_is_checked_like_a_snapshot() {
    let fixture = Fixture::new();
    fixture.edit(CH01, "[3,195,901,860]", "[3,195,901,861]");
    assert_errors(
        &verify(fixture.root()),
        &[(CH01, 11, "differs from snapshots/measured/ch01.yaml:8")],
    );
}

#[test]
fn a_key_no_snapshot_holds_fails() {
    let fixture = Fixture::new();
    fixture.edit(CH01, "{ch01.name}", "{ch01.square_name}");
    let report = verify(fixture.root());
    assert_errors(
        &report,
        &[(CH01, 10, "figure key ch01.square_name is in no snapshot")],
    );
    // and the stored figure nobody quotes any more is a warning, at its line in the snapshot
    assert!(
        report
            .warnings()
            .any(|w| w.file == Path::new("snapshots/ch01.snap") && w.line == 5)
    );
}

#[test]
fn a_renamed_anchor_fails_at_the_include_and_at_the_unused_anchor() {
    let fixture = Fixture::new();
    fixture.edit(DEMO, "// ANCHOR: demo_fn", "// ANCHOR: demo_function");
    fixture.edit(
        DEMO,
        "// ANCHOR_END: demo_fn",
        "// ANCHOR_END: demo_function",
    );
    assert_errors(
        &verify(fixture.root()),
        &[
            (
                CH01,
                6,
                "anchor demo_fn not found in crates/demo/src/lib.rs",
            ),
            (DEMO, 3, "anchor demo_function is used by no page"),
        ],
    );
}

#[test]
fn a_missing_include_file_fails() {
    let fixture = Fixture::new();
    fixture.edit(
        CH01,
        "crates/demo/src/lib.rs:demo_fn",
        "crates/demo/src/gone.rs:demo_fn",
    );
    assert_errors(
        &verify(fixture.root()),
        &[
            (
                CH01,
                6,
                "included file not found: ../../crates/demo/src/gone.rs",
            ),
            (DEMO, 3, "anchor demo_fn is used by no page"),
            // mdBook leaves the directive in the page, and logs an error: both fail too
            ("book/build/ch01-demo.html", 0, "left in the built page"),
            ("book/build/print.html", 0, "left in the built page"),
            ("book", 0, "mdBook: "),
        ],
    );
}

#[test]
fn an_anchor_without_its_end_fails() {
    let fixture = Fixture::new();
    fixture.edit(DEMO, "// ANCHOR_END: demo_fn\n", "");
    assert_errors(
        &verify(fixture.root()),
        &[
            (DEMO, 3, "ANCHOR: demo_fn has no ANCHOR_END: demo_fn"),
            (
                CH01,
                6,
                "anchor demo_fn in crates/demo/src/lib.rs has no ANCHOR_END",
            ),
        ],
    );
}

#[test]
fn an_end_without_its_anchor_fails() {
    let fixture = Fixture::new();
    fixture.edit(
        DEMO,
        "pub fn not_shown() {}\n",
        "pub fn not_shown() {}\n// ANCHOR_END: stray\n",
    );
    assert_errors(
        &verify(fixture.root()),
        &[(DEMO, 11, "ANCHOR_END: stray without ANCHOR: stray")],
    );
}

#[test]
fn an_anchor_no_page_uses_fails() {
    let fixture = Fixture::new();
    fixture.edit(
        DEMO,
        "pub fn not_shown() {}\n",
        "// ANCHOR: not_shown\npub fn not_shown() {}\n// ANCHOR_END: not_shown\n",
    );
    assert_errors(
        &verify(fixture.root()),
        &[(DEMO, 10, "anchor not_shown is used by no page")],
    );
}

#[test]
fn a_number_typed_without_a_key_fails_and_plain_marks_pass() {
    let fixture = Fixture::new();
    fixture.edit(
        "book/src/ch02-more.md",
        "## The details\n",
        "## The details\n\nIt searched 1,234,567 nodes at 850k nps for +35 Elo, 12.5% of the time.\n\
         A table of [1,048,576]{plain} entries is not measured.\n",
    );
    let ch02 = "book/src/ch02-more.md";
    assert_errors(
        &verify(fixture.root()),
        &[
            (ch02, 5, "1,234,567 has thousands separators"),
            (ch02, 5, "850 is a speed in nodes per second"),
            (ch02, 5, "35 is an Elo difference"),
            (ch02, 5, "12.5 is a percentage"),
        ],
    );
}

#[test]
fn a_broken_link_fails() {
    let fixture = Fixture::new();
    fixture.edit(
        CH01,
        "(ch02-more.md#the-details)",
        "(ch02-more.md#the-detail)",
    );
    fixture.edit(CH01, "(#a-diagram)", "(ch09-missing.md)");
    assert_errors(
        &verify(fixture.root()),
        &[
            (
                CH01,
                13,
                "ch02-more.md has no heading or element with id \"the-detail\"",
            ),
            (CH01, 13, "no page book/src/ch09-missing.md"),
        ],
    );
}

#[test]
fn an_unknown_mermaid_type_fails() {
    let fixture = Fixture::new();
    fixture.edit(CH01, "flowchart LR\n", "flowchat LR\n");
    assert_errors(
        &verify(fixture.root()),
        &[(CH01, 18, "unknown mermaid diagram type \"flowchat\"")],
    );
}

#[test]
fn a_leftover_directive_fails_in_the_source_and_in_the_output() {
    let fixture = Fixture::new();
    fixture.edit(
        "book/src/ch02-more.md",
        "## The details\n",
        "## The details\n\n{{#inclde ../../crates/demo/src/lib.rs}}\n",
    );
    assert_errors(
        &verify(fixture.root()),
        &[
            ("book/src/ch02-more.md", 5, "unknown directive {{#inclde}}"),
            ("book/build/ch02-more.html", 0, "left in the built page"),
            ("book/build/print.html", 0, "left in the built page"),
        ],
    );
}

#[test]
fn a_warning_from_mdbook_fails() {
    let fixture = Fixture::new();
    fixture.edit(
        "book/src/ch02-more.md",
        "## The details\n",
        "## The details\n\n<div>\n\nunclosed\n",
    );
    let report = verify(fixture.root());
    assert!(
        report
            .errors()
            .any(|f| f.file == Path::new("book") && f.message.contains("unclosed HTML tag")),
        "{}",
        shown(&report.errors().collect::<Vec<_>>())
    );
}

#[test]
fn a_malformed_snapshot_fails_at_its_line() {
    let fixture = Fixture::new();
    fixture.write(
        "snapshots/ch02.snap",
        "---\nsource: x\n---\nch02.a:\n  nested: 1\n",
    );
    let report = verify(fixture.root());
    assert!(
        report
            .errors()
            .any(|f| f.file == Path::new("snapshots/ch02.snap") && f.line == 4),
        "{}",
        shown(&report.errors().collect::<Vec<_>>())
    );
}

#[test]
fn match_records_are_read_through_the_arena() {
    let fixture = Fixture::new();
    fixture.write("snapshots/games/broken.json", "{ \"not\": \"a record\" }\n");
    let report = verify(fixture.root());
    assert!(
        report
            .errors()
            .any(|f| f.file == Path::new("snapshots/games/broken.json")
                && f.message.contains("not a match record")),
        "{}",
        shown(&report.errors().collect::<Vec<_>>())
    );
}
