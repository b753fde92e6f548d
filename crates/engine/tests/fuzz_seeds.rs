//! The `uci` fuzz target's body (`fuzz/session_check.rs`) over its seed corpus
//! (`fuzz/seeds/uci/`, transcripts of the commands real GUIs and match runners send) and over
//! the corpus a fuzzing run kept (`fuzz/corpus/uci/`, where present): every input that ever
//! mattered to the fuzzer is replayed by `cargo test`, with the stable compiler. It is not a
//! fuzzing run: that needs cargo-fuzz and a nightly compiler (see ARCHITECTURE.md).

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

#[test]
fn every_seed_and_corpus_input_passes_the_fuzz_check() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let seeds = files(&fuzz.join("seeds/uci"));
    assert!(seeds.len() >= 6, "the seed corpus is there: {seeds:?}");
    for path in seeds.iter().chain(&files(&fuzz.join("corpus/uci"))) {
        let data = fs::read(path).expect("readable");
        let result = std::panic::catch_unwind(|| session_check::check_bytes(&data));
        assert!(result.is_ok(), "{} fails the fuzz check", path.display());
    }
}
