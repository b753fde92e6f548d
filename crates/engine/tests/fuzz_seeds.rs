//! The `uci` fuzz target's body (`fuzz/session_check.rs`) over its seed corpus
//! (`fuzz/seeds/uci/`, transcripts of the commands real GUIs and match runners send), in every
//! `cargo test`, with the stable compiler; and, asked for by name, over the corpus a fuzzing run
//! kept (`fuzz/corpus/uci/`, hundreds of sessions, minutes in a debug build:
//! `cargo test --release -p cb2026 --test fuzz_seeds -- --ignored`). Neither is a fuzzing run:
//! that needs cargo-fuzz and a nightly compiler (see ARCHITECTURE.md).

#[path = "../../../fuzz/session_check.rs"]
mod session_check;

use std::fs;
use std::path::{Path, PathBuf};

/// The files of `dir`, sorted; none if it does not exist.
fn files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

/// Runs the fuzz check on every file of `dir` under `fuzz/`; returns how many there were.
fn replay(dir: &str) -> usize {
    let paths = files(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../fuzz")
            .join(dir),
    );
    for path in &paths {
        let data = fs::read(path).expect("readable");
        let result = std::panic::catch_unwind(|| session_check::check_bytes(&data));
        assert!(result.is_ok(), "{} fails the fuzz check", path.display());
    }
    paths.len()
}

#[test]
fn every_seed_passes_the_fuzz_check() {
    assert!(replay("seeds/uci") >= 6, "the seed corpus is there");
}

#[test]
#[ignore = "minutes in a debug build; run with --release -- --ignored"]
fn every_kept_corpus_input_passes_the_fuzz_check() {
    let count = replay("corpus/uci");
    println!("{count} corpus inputs replayed");
    assert!(count > 0, "the kept corpus is there");
}
