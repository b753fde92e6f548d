//! cb2026 as another program sees it: `tests/python/play_games.py` drives the real binary with
//! python-chess, an independent UCI client, through three short games and an analysis (see the
//! script for what it checks).
//!
//! It needs python3 and the `chess` module (`pip install chess`; `.ci/run` installs it). Where
//! either is missing the test says so and passes, except under `CI`, where a missing module is
//! a failure: CI must run every test.

use std::path::PathBuf;
use std::process::Command;

/// Whether `python3 -c <code>` runs and succeeds.
fn python_runs(code: &str) -> bool {
    Command::new("python3")
        .args(["-c", code])
        .output()
        .is_ok_and(|output| output.status.success())
}

/// Whether this run is CI's (`CI` set to anything but empty or `false`).
fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|value| !value.is_empty() && value != "false")
}

#[test]
fn python_chess_plays_legal_games_and_parses_every_info_line() {
    let missing = if !python_runs("pass") {
        Some("python3")
    } else if !python_runs("import chess.engine") {
        Some("the python module chess (pip install chess)")
    } else {
        None
    };
    if let Some(what) = missing {
        assert!(!under_ci(), "{what} is missing, and CI must run this test");
        println!("note: skipping the python-chess client test: {what} is missing");
        return;
    }
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let script = manifest.join("tests/python/play_games.py");
    let openings = manifest.join("../../data/openings/8moves_v3.epd");
    let output = Command::new("python3")
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_cb2026"))
        .arg(&openings)
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    println!("{stdout}");
    assert!(
        output.status.success(),
        "the python-chess client failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("all checks passed"), "{stdout}");
    assert_eq!(
        stdout.matches(" plies, ").count(),
        3,
        "three games: {stdout}"
    );
}
