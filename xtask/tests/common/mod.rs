//! The fixture book shared by the tests: a fresh copy of `tests/fixtures/clean` per test.

// Each test binary uses a part of this module.
#![allow(dead_code)]

use std::path::Path;

/// A fresh copy of the clean fixture, with the real book's mermaid assets and stylesheets.
pub struct Fixture {
    dir: tempfile::TempDir,
}

impl Fixture {
    pub fn new() -> Fixture {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let here = Path::new(env!("CARGO_MANIFEST_DIR"));
        copy_tree(&here.join("tests/fixtures/clean"), dir.path());
        for asset in [
            "mermaid.min.js",
            "mermaid-init.js",
            "figures.css",
            "excerpts.css",
        ] {
            std::fs::copy(
                here.join("../book").join(asset),
                dir.path().join("book").join(asset),
            )
            .expect("the book's assets");
        }
        Fixture { dir }
    }

    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    /// Replaces the one occurrence of `from` in `file` by `to`.
    pub fn edit(&self, file: &str, from: &str, to: &str) -> &Fixture {
        let path = self.root().join(file);
        let text = std::fs::read_to_string(&path).expect("a fixture file");
        assert_eq!(text.matches(from).count(), 1, "{from:?} once in {file}");
        std::fs::write(&path, text.replace(from, to)).expect("writable");
        self
    }

    pub fn write(&self, file: &str, text: &str) -> &Fixture {
        let path = self.root().join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).expect("writable");
        self
    }
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}
