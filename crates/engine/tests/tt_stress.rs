//! Chapter 17's claim under load: threads share the table without locks, and a reader never
//! gets a mix of two writes. Writers hammer a table of a few slots with results that can be
//! checked (every field follows from the key and the score); readers check every hit.

use cb2026::moves::{Move, MoveKind};
use cb2026::square::Square;
use cb2026::tt::{Bound, Entry, Geometry, TranspositionTable};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

const WRITERS: usize = 2;
const READERS: usize = 1;
/// More positions than a bucket has slots, so that slots change hands all the time.
const KEYS: u64 = 20;
/// Each thread stops after this many operations or [`TIME_LIMIT`], whichever comes first.
const OPERATIONS: u64 = 3_000_000;
const TIME_LIMIT: Duration = Duration::from_millis(1200);

fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The positions' keys: distinct, and all in one bucket's first slot (its top three bits are
/// 0), so that with buckets off every write goes to that slot and with buckets on to that
/// bucket, and writes collide as often as they can.
fn key(index: u64) -> u64 {
    mix(index) >> 3 | 1
}

/// The one result a writer ever stores for `key` with `score`: every other field follows from
/// the two, so a reader can tell a whole write from a mix of two.
fn result_for(key: u64, score: i16) -> Entry {
    let bits = mix(key ^ u64::from(score as u16));
    let from = (bits % 64) as u8;
    let to = (from + 1 + ((bits >> 8) % 63) as u8) % 64;
    Entry {
        key,
        best_move: Some(Move::new(
            Square::new(from),
            Square::new(to),
            MoveKind::Quiet,
        )),
        score: i32::from(score),
        depth: (bits >> 16) as u8,
        bound: Bound::ALL[(bits >> 24) as usize % Bound::ALL.len()],
        generation: 0,
    }
}

/// Runs writers and readers on `table`; returns how many hits the readers checked.
fn hammer(table: &TranspositionTable) -> u64 {
    let deadline = Instant::now() + TIME_LIMIT;
    let stop = AtomicBool::new(false);
    let checked = AtomicU64::new(0);
    thread::scope(|scope| {
        for writer in 0..WRITERS as u64 {
            let stop = &stop;
            scope.spawn(move || {
                for n in 0..OPERATIONS {
                    if n % 4096 == 0 && (Instant::now() > deadline || stop.load(Ordering::Relaxed))
                    {
                        break;
                    }
                    let bits = mix(writer << 32 | n);
                    let r = result_for(key(bits % KEYS), (bits >> 32) as i16);
                    let depth = u32::from(r.depth);
                    table.store(r.key, r.best_move, r.score, depth, r.bound);
                }
            });
        }
        for reader in 0..READERS as u64 {
            let (stop, checked) = (&stop, &checked);
            scope.spawn(move || {
                let mut hits = 0;
                for n in 0..OPERATIONS {
                    if n % 4096 == 0 && Instant::now() > deadline {
                        break;
                    }
                    let key = key(mix(reader << 40 | n) % KEYS);
                    if let Some(found) = table.probe(key) {
                        let expected = result_for(key, found.score as i16);
                        if found != expected {
                            stop.store(true, Ordering::Relaxed);
                            panic!("a mix of writes: read {found:?}, a writer wrote {expected:?}");
                        }
                        hits += 1;
                    }
                }
                checked.fetch_add(hits, Ordering::Relaxed);
            });
        }
    });
    checked.into_inner()
}

#[test]
fn readers_never_see_a_mix_of_two_writes() {
    for geometry in Geometry::ALL {
        let mut table = TranspositionTable::with_bucket_count(1);
        table.set_geometry(geometry);
        // Counting torn slots must not change what a probe answers; the counts (how often the
        // threads tore a slot, which depends on the machine) are printed, not asserted.
        table.set_torn_read_counting(true);
        let checked = hammer(&table);
        let counters = table.counters();
        println!("{geometry:?}: {checked} hits checked, {counters:?}");
        assert!(checked > 1000, "{geometry:?}: only {checked} hits checked");
        assert!(counters.torn_would_serve <= counters.torn);
    }
}
