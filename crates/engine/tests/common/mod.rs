//! What several test files share: the committed held-out positions the tuned weight sets are
//! measured on.

use cb2026::eval2::KingDanger;
use cb2026::tune::TuningSet;

/// M10's held-out positions (`data/tuning/held-out-m10.txt`, labelled with the games' results),
/// their king danger computed with `danger`: M10's, M13's, M14's and M15's weights are all
/// measured on them.
pub fn held_out_m10(danger: &KingDanger) -> TuningSet {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/tuning/held-out-m10.txt"
    );
    let text = std::fs::read_to_string(path).expect("data/tuning/held-out-m10.txt is committed");
    TuningSet::parse_with(&text, danger).expect("valid positions")
}
