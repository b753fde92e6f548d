//! `cargo xtask browser` on the fixture book, in the real headless Chromium: a clean page
//! passes (its board diagram drawn with real chess glyphs); a mermaid syntax error, a script
//! error, a board drawn wrong and a code block wider than the page are caught.
//!
//! Needs Debian's `chromium` (.ci/run installs it). Where it is missing the test says so and
//! passes, except under `CI=true`, where a missing browser fails.

mod common;

use common::Fixture;
use std::path::Path;

fn chromium_or_skip() -> bool {
    match xtask::browser::chromium() {
        Ok(_) => true,
        Err(error) if std::env::var("CI").is_ok_and(|v| v == "true") => panic!("{error}"),
        Err(error) => {
            eprintln!("skipping the browser test: {error}");
            false
        }
    }
}

#[test]
fn the_browser_sees_broken_diagrams_and_script_errors() {
    if !chromium_or_skip() {
        return;
    }
    let fixture = Fixture::new();
    fixture.edit(
        "book/src/ch01-demo.md",
        "    a --> b\n",
        "    a --> b -->\n",
    );
    fixture.edit(
        "book/src/ch02-more.md",
        "## The details\n",
        "## The details\n\n<script>undefinedFunction();</script>\n\n\
         <svg class=\"board\" data-fen=\"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"><rect class=\"square\"></rect></svg>\n",
    );
    let results = xtask::browser::check_pages(fixture.root()).expect("the fixture builds");
    let problems_of = |page: &str| -> Vec<String> {
        results
            .iter()
            .find(|(path, _)| path.file_name() == Some(Path::new(page).as_os_str()))
            .map(|(_, problems)| problems.clone())
            .unwrap_or_else(|| panic!("no page {page}"))
    };
    assert_eq!(problems_of("intro.html"), Vec::<String>::new());
    assert_eq!(
        problems_of("ch01-demo.html"),
        ["mermaid diagram 1 is mermaid's error diagram (a syntax error)"]
    );
    let ch02 = problems_of("ch02-more.html");
    assert_eq!(ch02.len(), 3, "{ch02:?}");
    assert!(
        ch02[0].contains("Uncaught ReferenceError: undefinedFunction is not defined"),
        "{ch02:?}"
    );
    assert_eq!(
        ch02[1..],
        [
            "board: board 1 at #the-details has 1 squares, not 64",
            "board: board 1 at #the-details draws 0 pieces, its FEN has 2"
        ]
    );
}

#[test]
fn a_code_block_wider_than_the_page_is_caught_and_100_columns_fit() {
    if !chromium_or_skip() {
        return;
    }
    let fixture = Fixture::new();
    let columns = |n: usize| format!("let x = \"{}\";", "x".repeat(n - 12));
    fixture.edit(
        "book/src/ch02-more.md",
        "## The details\n",
        &format!(
            "## The details\n\n```rust\n{}\n```\n\n```rust\n{}\n```\n",
            columns(100),
            columns(150)
        ),
    );
    let results = xtask::browser::check_pages(fixture.root()).expect("the fixture builds");
    let problems_of = |page: &str| -> Vec<String> {
        results
            .iter()
            .find(|(path, _)| path.file_name() == Some(Path::new(page).as_os_str()))
            .map(|(_, problems)| problems.clone())
            .unwrap_or_else(|| panic!("no page {page}"))
    };
    let ch02 = problems_of("ch02-more.html");
    assert_eq!(ch02.len(), 3, "{ch02:?}");
    for (problem, theme) in ch02.iter().zip(["light", "coal", "ayu"]) {
        assert!(
            problem.starts_with(&format!(
                "overflow: {theme}: code block 2 at #the-details (\"let x"
            )),
            "{problem}"
        );
    }
    // on paper, mdBook's print stylesheet wraps long lines
    assert_eq!(problems_of("print.html"), Vec::<String>::new());
}
