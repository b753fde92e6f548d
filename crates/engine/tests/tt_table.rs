//! The transposition table through its public interface: sizes, the generation, hashfull,
//! counters, and entries surviving the bucket switch.

use cb2026::moves::{Move, MoveKind};
use cb2026::square::Square;
use cb2026::tt::{Bound, Entry, TableSizeError, TranspositionTable};

/// Deterministic, uniform 64-bit keys (SplitMix64).
fn keys(seed: u64) -> impl Iterator<Item = u64> {
    let mut state = seed;
    std::iter::repeat_with(move || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    })
}

fn a_move(from: u8, to: u8) -> Move {
    Move::new(Square::new(from), Square::new(to), MoveKind::Quiet)
}

/// A key whose own slot in a 1 MB table (65,536 slots) is `slot`.
fn key_for_slot_of_1mb(slot: u64) -> u64 {
    slot << 48
}

#[test]
fn a_stored_result_comes_back_whole() {
    for buckets in [false, true] {
        let mut table = TranspositionTable::new(1);
        table.set_buckets(buckets);
        table.new_search();
        let key = 0xdead_beef_0bad_cafe;
        table.store(key, Some(a_move(6, 21)), -317, 9, Bound::Lower);
        let expected = Entry {
            key,
            best_move: Some(a_move(6, 21)),
            score: -317,
            depth: 9,
            bound: Bound::Lower,
            generation: 1,
        };
        assert_eq!(table.probe(key), Some(expected));
        assert_eq!(table.probe(key ^ 1), None);
    }
}

#[test]
fn sizes_are_counted_in_megabytes_of_any_value() {
    let one = TranspositionTable::new(1);
    assert_eq!((one.slot_count(), one.bucket_count()), (65_536, 8_192));
    let three = TranspositionTable::new(3);
    assert_eq!(three.slot_count(), 3 * 65_536);
    assert!(!three.buckets(), "buckets are off by default");
}

#[test]
fn bad_sizes_are_errors_not_panics() {
    assert_eq!(
        TranspositionTable::try_new(0).err(),
        Some(TableSizeError::Zero)
    );
    let huge = usize::MAX / 2;
    assert_eq!(
        TranspositionTable::try_new(huge).err(),
        Some(TableSizeError::TooLarge { mb: huge })
    );
    let mut table = TranspositionTable::new(1);
    assert_eq!(table.resize(0), Err(TableSizeError::Zero));
    assert!(TableSizeError::Zero.to_string().contains("1 MB"));
}

#[cfg(target_pointer_width = "64")]
#[test]
fn a_size_the_allocator_refuses_leaves_the_old_size() {
    let mut table = TranspositionTable::new(2);
    table.set_buckets(true);
    // 2^40 MB is an exabyte: more than a 64-bit machine can address (48 bits), so the
    // allocator refuses it whatever the machine and its overcommit policy.
    let exabyte = 1 << 40;
    assert_eq!(
        table.resize(exabyte),
        Err(TableSizeError::TooLarge { mb: exabyte })
    );
    assert_eq!(table.slot_count(), 2 * 65_536, "the old size is back");
    assert!(table.buckets());
    table.new_search();
    table.store(42, None, 1, 1, Bound::Exact);
    assert!(table.probe(42).is_some(), "and it works");
}

#[test]
fn resizing_empties_the_table_and_keeps_the_switch() {
    let mut table = TranspositionTable::new(1);
    table.set_buckets(true);
    table.new_search();
    table.store(42, None, 1, 1, Bound::Exact);
    table.resize(2).expect("2 MB");
    assert_eq!(table.slot_count(), 2 * 65_536);
    assert_eq!(table.probe(42), None);
    assert_eq!(table.generation(), 0);
    assert!(table.buckets());
}

#[test]
fn clear_empties_the_table_and_restarts_the_generation() {
    let mut table = TranspositionTable::new(1);
    for _ in 0..3 {
        table.new_search();
    }
    table.store(42, None, 1, 1, Bound::Exact);
    table.clear();
    assert_eq!(table.generation(), 0);
    assert_eq!(table.probe(42), None);
    assert_eq!(table.counters().stores, 0);
}

#[test]
fn the_generation_counts_searches_and_wraps() {
    let table = TranspositionTable::new(1);
    assert_eq!(table.generation(), 0);
    table.new_search();
    assert_eq!(table.generation(), 1);
    for _ in 0..255 {
        table.new_search();
    }
    assert_eq!(table.generation(), 0);
}

#[test]
fn hashfull_counts_this_searchs_entries_in_the_first_thousand_slots() {
    for buckets in [false, true] {
        let mut table = TranspositionTable::new(1);
        table.set_buckets(buckets);
        assert_eq!(table.hashfull(), 0);
        for slot in 0..500 {
            table.store(key_for_slot_of_1mb(slot), None, 0, 1, Bound::Exact);
        }
        // Beyond the sample: not counted.
        for slot in 2000..2100 {
            table.store(key_for_slot_of_1mb(slot), None, 0, 1, Bound::Exact);
        }
        assert_eq!(table.hashfull(), 500);
        table.new_search();
        assert_eq!(
            table.hashfull(),
            0,
            "entries of an earlier search do not count"
        );
        for slot in 500..510 {
            table.store(key_for_slot_of_1mb(slot), None, 0, 1, Bound::Exact);
        }
        assert_eq!(table.hashfull(), 10);
        for slot in 0..1000 {
            table.store(key_for_slot_of_1mb(slot), None, 0, 1, Bound::Exact);
        }
        assert_eq!(table.hashfull(), 1000);
        table.clear();
        assert_eq!(table.hashfull(), 0);
    }
}

#[test]
fn hashfull_of_a_table_smaller_than_the_sample_is_still_per_mille() {
    let table = TranspositionTable::with_bucket_count(1);
    table.store(0, None, 0, 1, Bound::Exact);
    table.store(u64::MAX, None, 0, 1, Bound::Exact);
    assert_eq!(table.hashfull(), 250, "2 of 8 slots");
}

#[test]
fn counters_count_probes_hits_stores_and_refusals() {
    let table = TranspositionTable::new(1);
    let (deep, shallow) = (key_for_slot_of_1mb(7), key_for_slot_of_1mb(7) + 1);
    table.store(deep, None, 0, 10, Bound::Exact);
    table.store(shallow, None, 0, 2, Bound::Exact); // refused: same slot, shallower
    table.probe(deep);
    table.probe(shallow);
    table.probe(deep);
    let counted = table.counters();
    assert_eq!(
        (
            counted.probes,
            counted.hits,
            counted.stores,
            counted.refused
        ),
        (3, 2, 1, 1)
    );
    table.reset_counters();
    assert_eq!(table.counters(), Default::default());
}

#[test]
fn entries_stored_with_buckets_off_are_all_found_with_buckets_on() {
    let mut table = TranspositionTable::new(1);
    // Twice as many keys as slots: many slots are fought over, and some entries are lost.
    let stored: Vec<u64> = keys(1).take(2 * table.slot_count()).collect();
    for (depth, &key) in stored.iter().enumerate() {
        let depth = depth as u32 % 20;
        table.store(
            key,
            Some(a_move(8, 16)),
            key as i16 as i32,
            depth,
            Bound::Upper,
        );
    }
    let found_off: Vec<Entry> = stored.iter().filter_map(|&key| table.probe(key)).collect();
    assert!(found_off.len() > table.slot_count() / 2);
    assert!(
        found_off.len() < stored.len(),
        "some were lost, or the test proves little"
    );

    table.set_buckets(true);
    for entry in &found_off {
        assert_eq!(
            table.probe(entry.key).as_ref(),
            Some(entry),
            "lost when switching on"
        );
    }
    table.set_buckets(false);
    for entry in &found_off {
        assert_eq!(
            table.probe(entry.key).as_ref(),
            Some(entry),
            "moved while switched on"
        );
    }
}

#[test]
fn buckets_keep_more_of_a_crowded_table() {
    // The same keys, as many as the table has slots: one slot each keeps about 1 − 1/e of
    // them (63%); eight to a bucket keep about 86%.
    let kept = |buckets: bool| {
        let mut table = TranspositionTable::new(1);
        table.set_buckets(buckets);
        let stored: Vec<u64> = keys(2).take(table.slot_count()).collect();
        for &key in &stored {
            table.store(key, None, 0, 5, Bound::Exact);
        }
        stored
            .iter()
            .filter(|&&key| table.probe(key).is_some())
            .count() as f64
            / stored.len() as f64
    };
    let (off, on) = (kept(false), kept(true));
    assert!((0.60..0.66).contains(&off), "off kept {off}");
    assert!(on > 0.80, "on kept {on}");
}
