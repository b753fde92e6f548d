//! `cargo xtask magics`: runs chapter 2's seeded magic search once and writes the numbers it
//! finds to `crates/engine/src/magic_numbers.rs`, which the engine fills its tables from at
//! start-up. The engine's test `the_stored_magics_are_the_ones_the_search_finds` fails when the
//! file and the search disagree, so the file cannot drift from the search that made it.

use cb2026::attacks::Sliders;
use cb2026::magic::MAGIC_SEED;
use std::fmt::Write;
use std::path::Path;

/// Where the numbers go, relative to the workspace.
const OUTPUT: &str = "crates/engine/src/magic_numbers.rs";

/// Runs the search and writes the file.
pub fn run(root: &Path) -> Result<(), String> {
    let found = Sliders::search();
    let path = root.join(OUTPUT);
    std::fs::write(
        &path,
        source(&found.rook.numbers(), &found.bishop.numbers()),
    )
    .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    println!(
        "wrote {OUTPUT}: seed {MAGIC_SEED}, {} candidates drawn",
        found.rook.candidates_tried + found.bishop.candidates_tried
    );
    Ok(())
}

/// The Rust source of the generated module.
fn source(rook: &[u64; 64], bishop: &[u64; 64]) -> String {
    let mut text = format!(
        "//! The magic numbers chapter 2's search finds from seed {MAGIC_SEED}, rooks first, a1 to h8.\n\
         //!\n\
         //! Written by `cargo xtask magics`; do not edit. The engine fills its attack tables from\n\
         //! them at start-up instead of searching, and the test\n\
         //! `the_stored_magics_are_the_ones_the_search_finds` (attacks.rs) runs the search and\n\
         //! checks that it finds exactly these.\n"
    );
    for (name, numbers) in [("ROOK", rook), ("BISHOP", bishop)] {
        let _ = write!(
            text,
            "\n/// The {} magics, a1 to h8.\npub const {name}: [u64; 64] = [\n",
            name.to_lowercase()
        );
        for number in numbers {
            let _ = writeln!(text, "    {number:#018x},");
        }
        text.push_str("];\n");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_source_lists_every_number_in_order() {
        let rook: [u64; 64] = std::array::from_fn(|i| i as u64 + 1);
        let bishop: [u64; 64] = std::array::from_fn(|i| 1000 + i as u64);
        let text = source(&rook, &bishop);
        assert!(text.contains("pub const ROOK: [u64; 64] = [\n    0x0000000000000001,\n"));
        assert!(text.contains("    0x0000000000000040,\n];\n"));
        assert!(text.contains("pub const BISHOP: [u64; 64] = [\n    0x00000000000003e8,\n"));
        assert_eq!(text.matches("0x").count(), 128);
    }
}
