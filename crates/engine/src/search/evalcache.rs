//! An evaluation cache (M18): the static evaluations a search thread computed lately, by the
//! position's key, so that a position evaluated again is looked up instead of evaluated.
//!
//! A search evaluates the same position many times: iterative deepening searches the same
//! tree again one ply deeper, principal variation search and late move reductions search a move
//! again with another window or depth, the null move and ProbCut search ahead of the real
//! moves, and quiescence meets the same exchanges from different move orders. The evaluation is
//! a pure function of the position, so every time but the first is work thrown away. Engines
//! have long kept a table of evaluations for this (Chess Programming Wiki, "Evaluation Hash
//! Table"; HoiChess's `EvaluationCache`, in its `src/evalcache.h`, is a small example); Stockfish
//! keeps the evaluation in its transposition table entry, which our entries have no bits left
//! for (chapter 17's key check fills the last thirteen).
//!
//! One slot is one 64-bit word: the key's top 48 bits and the evaluation as an `i16`. The
//! slot's index comes from the key's low bits, so the 48 stored bits and the index together are
//! the whole key; a slot of all zeros is empty. The cache is per thread (each search thread
//! has its own, like the pawn table), so no slot is ever written by two threads.

use crate::switches::Switches;

/// How many bits of the key choose a slot: 2^16 slots of 8 bytes, 512 KB, small enough to
/// live in the processor's caches rather than in memory. A size chosen, not timed against
/// others.
pub const EVAL_CACHE_BITS: u32 = 16;

/// The slots' count.
const SLOTS: usize = 1 << EVAL_CACHE_BITS;

/// The bits of a slot that hold the evaluation; the others hold the key's top bits.
const EVAL_MASK: u64 = 0xffff;

// ANCHOR: eval_cache
/// Evaluations by position key, the latest one kept in each slot.
#[derive(Clone, Debug)]
pub struct EvalCache {
    slots: Vec<u64>,
    /// The switches of the search that filled the slots: the evaluation depends on some of
    /// them (the weights, the king danger), so other switches empty the cache first.
    filled_with: Option<Switches>,
}

impl EvalCache {
    /// An empty cache.
    pub fn new() -> EvalCache {
        EvalCache {
            slots: vec![0; SLOTS],
            filled_with: None,
        }
    }

    /// Readies the cache for a search with `switches`: kept if the last search had the same
    /// switches, emptied if not (a reader who types `set eval4 off` between two searches must
    /// not be served the evaluations of the other weights).
    pub fn prepare(&mut self, switches: Switches) {
        if self.filled_with != Some(switches) {
            self.clear();
            self.filled_with = Some(switches);
        }
    }

    /// The evaluation stored for `key`, if its slot holds that key.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<i32> {
        let slot = self.slots[index(key)];
        let holds_key = slot != 0 && slot & !EVAL_MASK == key & !EVAL_MASK;
        holds_key.then_some(i32::from(slot as u16 as i16))
    }

    /// Keeps `eval` for `key`, replacing whatever the slot held. An evaluation outside the
    /// range of an `i16` is not kept (no evaluation comes near it).
    #[inline]
    pub fn store(&mut self, key: u64, eval: i32) {
        if let Ok(eval) = i16::try_from(eval) {
            self.slots[index(key)] = key & !EVAL_MASK | u64::from(eval as u16);
        }
    }

    /// Empties every slot.
    pub fn clear(&mut self) {
        self.slots.fill(0);
    }
}

/// The slot of `key`: its low bits, which the slot does not store.
#[inline]
fn index(key: u64) -> usize {
    (key as usize) & (SLOTS - 1)
}
// ANCHOR_END: eval_cache

impl Default for EvalCache {
    fn default() -> EvalCache {
        EvalCache::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_evaluation_comes_back_for_its_key_only() {
        let mut cache = EvalCache::new();
        let key = 0x1234_5678_9abc_def0;
        assert_eq!(cache.probe(key), None);
        cache.store(key, -321);
        assert_eq!(cache.probe(key), Some(-321));
        // The same slot (same low bits), another key: not served.
        let same_slot = key ^ (1 << 40);
        assert_eq!(index(same_slot), index(key));
        assert_eq!(cache.probe(same_slot), None);
        // Another slot, the same top bits: not served either.
        assert_eq!(cache.probe(key ^ 1), None);
    }

    #[test]
    fn the_latest_store_wins_and_clear_empties() {
        let mut cache = EvalCache::new();
        let key = 0xfedc_ba98_7654_3210;
        cache.store(key, i32::from(i16::MAX));
        assert_eq!(cache.probe(key), Some(i32::from(i16::MAX)));
        cache.store(key, i32::from(i16::MIN));
        assert_eq!(cache.probe(key), Some(i32::from(i16::MIN)));
        cache.store(key ^ (1 << 50), 7);
        assert_eq!(cache.probe(key), None, "its slot now holds another key");
        cache.clear();
        assert_eq!(cache.probe(key ^ (1 << 50)), None);
    }

    #[test]
    fn other_switches_empty_the_cache_the_same_keep_it() {
        let mut cache = EvalCache::new();
        let switches = Switches::default();
        cache.prepare(switches);
        cache.store(77 << 20, 12);
        cache.prepare(switches);
        assert_eq!(cache.probe(77 << 20), Some(12));
        let other = Switches {
            eval4: false,
            ..switches
        };
        cache.prepare(other);
        assert_eq!(cache.probe(77 << 20), None);
    }

    #[test]
    fn an_evaluation_too_large_for_a_slot_is_not_kept() {
        let mut cache = EvalCache::new();
        cache.store(99, 40_000);
        assert_eq!(cache.probe(99), None);
    }

    #[test]
    fn a_zero_evaluation_of_a_key_with_zero_top_bits_is_a_miss_not_an_error() {
        // Its slot is all zeros, which reads as empty: the position is evaluated again.
        let mut cache = EvalCache::new();
        cache.store(5, 0);
        assert_eq!(cache.probe(5), None);
        cache.store(5, 1);
        assert_eq!(cache.probe(5), Some(1));
    }
}
