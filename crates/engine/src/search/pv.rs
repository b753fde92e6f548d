//! The principal variation, collected during the search in a triangular table (CPW "Triangular
//! PV-Table").
//!
//! Row `ply` holds the best line found so far from the node at `ply`. When a move raises alpha
//! there, the row becomes that move followed by the child's row. The line at the root is then
//! exactly the line the search's score comes from, which a PV read back from the transposition
//! table need not be (entries get overwritten).

use super::MAX_PLY;
use crate::moves::Move;

/// Best lines per ply: row `ply` uses columns `ply..len[ply]`.
#[derive(Clone, Debug)]
pub struct PvTable {
    moves: Box<[[Option<Move>; MAX_PLY + 1]; MAX_PLY + 1]>,
    len: [usize; MAX_PLY + 1],
}

impl Default for PvTable {
    fn default() -> PvTable {
        PvTable {
            moves: Box::new([[None; MAX_PLY + 1]; MAX_PLY + 1]),
            len: [0; MAX_PLY + 1],
        }
    }
}

impl PvTable {
    /// Empties the line of `ply`, on entering a node there.
    #[inline]
    pub fn clear(&mut self, ply: usize) {
        self.len[ply] = ply;
    }

    // ANCHOR: pv_update
    /// The line of `ply` becomes `m` followed by the line of `ply + 1`.
    pub fn update(&mut self, ply: usize, m: Move) {
        self.moves[ply][ply] = Some(m);
        let end = self.len[ply + 1].max(ply + 1);
        for i in ply + 1..end {
            self.moves[ply][i] = self.moves[ply + 1][i];
        }
        self.len[ply] = end;
    }
    // ANCHOR_END: pv_update

    /// The line of the root.
    pub fn root_line(&self) -> Vec<Move> {
        self.moves[0][..self.len[0]]
            .iter()
            .flatten()
            .copied()
            .collect()
    }
}
