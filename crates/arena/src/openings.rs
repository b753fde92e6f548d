//! Opening positions: read from an EPD file, chosen by a seed.
//!
//! Engines are deterministic enough that two games from the start position repeat each other, so
//! every game pair starts from a book position (`data/openings/8moves_v3.epd`, the 8-move book
//! OpenBench uses) and plays it twice with colours reversed: the pair cancels most of the opening's
//! bias. The choice of openings is a seeded shuffle, so a match can be reproduced exactly.

use cozy_chess::Board;
use std::path::Path;

/// A position to start a game pair from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opening {
    /// The position as a full six-field FEN (EPD lines get `0 1` if they carry no clocks).
    pub fen: String,
    /// The line in the openings file, from 1, for the record.
    pub line: usize,
}

impl Opening {
    /// The position on a board. The FEN was checked when the opening was read.
    pub fn board(&self) -> Board {
        self.fen.parse().expect("openings are validated when read")
    }
}

/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014):
/// a tiny generator with good statistics, enough for shuffling openings reproducibly without a
/// dependency.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (Lemire's multiply-shift; the bias is below 2⁻³² for any n we use).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

/// Reads the openings file and returns `count` openings in a seeded random order: a Fisher–Yates
/// shuffle of all lines by [`SplitMix64`]; when `count` exceeds the file, the shuffled list repeats.
/// Blank lines and lines starting with `#` are skipped. Only the chosen lines are parsed, and a bad
/// one is an error naming its line.
pub fn choose(path: &Path, count: usize, seed: u64) -> Result<Vec<Opening>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read openings {}: {e}", path.display()))?;
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
        .collect();
    if lines.is_empty() {
        return Err(format!("openings file {} has no positions", path.display()));
    }
    let mut order: Vec<usize> = (0..lines.len()).collect();
    let mut rng = SplitMix64::new(seed);
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    order
        .iter()
        .cycle()
        .take(count)
        .map(|&i| {
            let (line, epd) = lines[i];
            let fen = epd_to_fen(epd)
                .ok_or_else(|| format!("{}:{line}: not a position: `{epd}`", path.display()))?;
            Ok(Opening { fen, line })
        })
        .collect()
}

/// The FEN of an EPD or FEN line: the four position fields, then the clocks if the line has them
/// (`0 1` if not); EPD operations after the position are ignored. `None` if `cozy-chess` rejects it.
pub fn epd_to_fen(epd: &str) -> Option<String> {
    let fields: Vec<&str> = epd.split_whitespace().collect();
    if fields.len() < 4 {
        return None;
    }
    let is_number = |f: Option<&&str>| f.is_some_and(|f| f.parse::<u32>().is_ok());
    let clocks = if is_number(fields.get(4)) && is_number(fields.get(5)) {
        format!("{} {}", fields[4], fields[5])
    } else {
        "0 1".to_string()
    };
    let fen = format!("{} {clocks}", fields[..4].join(" "));
    fen.parse::<Board>().ok().map(|_| fen)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epd_lines_become_fens() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
        assert_eq!(epd_to_fen(start).unwrap(), format!("{start} 0 1"));
        assert_eq!(
            epd_to_fen(&format!("{start} 3 9")).unwrap(),
            format!("{start} 3 9")
        );
        assert_eq!(
            epd_to_fen(&format!("{start} bm e4; id \"x\";")).unwrap(),
            format!("{start} 0 1")
        );
        assert_eq!(epd_to_fen("not a position at all"), None);
    }

    #[test]
    fn the_same_seed_chooses_the_same_openings() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/openings/8moves_v3.epd");
        let a = choose(&path, 20, 7).unwrap();
        assert_eq!(a, choose(&path, 20, 7).unwrap());
        assert_ne!(a, choose(&path, 20, 8).unwrap());
        let distinct: std::collections::BTreeSet<_> = a.iter().map(|o| o.line).collect();
        assert_eq!(distinct.len(), 20, "a shuffle draws without replacement");
    }

    #[test]
    fn a_short_file_repeats_and_a_bad_line_is_named() {
        let dir = std::env::temp_dir().join(format!("arena-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("two.epd");
        std::fs::write(
            &good,
            "# two openings\n8/8/4k3/8/8/4K3/4P3/8 w - -\n\n8/8/4k3/8/8/4K3/4Q3/8 w - -\n",
        )
        .unwrap();
        let chosen = choose(&good, 5, 1).unwrap();
        assert_eq!(chosen.len(), 5);
        assert!(chosen.iter().all(|o| o.line == 2 || o.line == 4));
        let bad = dir.join("bad.epd");
        std::fs::write(&bad, "8/8/8/8 w - -\n").unwrap();
        assert!(choose(&bad, 1, 1).unwrap_err().contains(":1:"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
