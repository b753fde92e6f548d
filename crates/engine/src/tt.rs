//! The transposition table: search results remembered by position (chapters 8, 17 and M5).
//!
//! The same position is reached by many move orders, and a search result for it (a score, how
//! deep it was searched, whether the score is exact or only a bound, and the best move) stays
//! good whichever order led there. The table keeps such results, found again by the position's
//! Zobrist key. (Chess Programming Wiki, "Transposition Table".)
//!
//! Three chapters build it:
//!
//! - Chapter 8: every key has one 16-byte `Slot`, found by a multiplication instead of a
//!   modulo (`slots_for`), and one replacement rule ([`TranspositionTable::store`]).
//! - Chapter 17: the slot is two atomic words, the key stored XORed with the data, so threads
//!   share the table without locks and a half-written slot reads as a miss.
//! - M5: eight slots make a `Bucket` that fills one 128-byte cache line; a key may use any
//!   slot of its bucket, and the one to give up is the one worth least (`worth`). Off by
//!   default ([`TranspositionTable::set_buckets`]): with it off the table is chapter 8's exactly.
//!   Every slot also carries a few bits that say whose it is, so that a torn read can be
//!   counted, not only rejected ([`TranspositionTable::set_torn_read_counting`]).
//! - M5, for 64-byte lines: half a bucket, four slots, is one 64-byte line, the line of most
//!   x86-64 processors ([`Geometry::FourSlots`], the `ttbuckets64` switch).
//!
//! The table stores scores as the search hands them over. Mate scores are relative to the root
//! and must be made relative to the stored position (and back) by the search, which knows the
//! ply; the table does not.

use crate::moves::Move;
use std::fmt;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// What a stored score says about the position's true value.
///
/// A search with the window (alpha, beta) learns an exact score only when the result falls
/// inside the window; a fail-low proves an upper bound, a fail-high (a cut-off) a lower bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    /// The true score is at most the stored one (the search failed low).
    Upper = 1,
    /// The true score is at least the stored one (the search failed high).
    Lower = 2,
    /// The stored score is the true score at the stored depth.
    Exact = 3,
}

impl Bound {
    /// All three, in the order of their 2-bit codes.
    pub const ALL: [Bound; 3] = [Bound::Upper, Bound::Lower, Bound::Exact];

    /// The bound whose code is the low two bits of `code`. Only [`pack`] writes codes, and it
    /// writes 1 to 3, so 0 never comes back from a slot.
    #[inline]
    fn from_code(code: u64) -> Bound {
        match code & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        }
    }
}

/// A search result as the table gives it back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position's full 64-bit key.
    pub key: u64,
    /// The best move found, if the search found one (a fail-low has none).
    pub best_move: Option<Move>,
    /// The score, saturated to the range of an `i16`.
    pub score: i32,
    /// The depth searched, in plies, saturated at 255.
    pub depth: u8,
    /// What the score says: exact, or a bound.
    pub bound: Bound,
    /// The search that stored it (see [`TranspositionTable::new_search`]); wraps after 255.
    pub generation: u8,
}

// ANCHOR: pack
/// Where each field of an entry lives in a slot's 64-bit data word. The key is not in it: the
/// other word of the slot holds the key XORed with this one.
const MOVE_SHIFT: u32 = 0; // 16 bits: `Move::to_bits`, 0 for no move
const SCORE_SHIFT: u32 = 16; // 16 bits: the score as an i16
const DEPTH_SHIFT: u32 = 32; // 8 bits
const GENERATION_SHIFT: u32 = 40; // 8 bits
const BOUND_SHIFT: u32 = 48; // 2 bits
/// Set in every stored entry, so a data word is never 0 and an all-zero slot is empty, even
/// for a position whose key happens to be 0.
const OCCUPIED_BIT: u64 = 1 << 50;
/// The 13 bits above it hold a check of the key (see [`key_check`]), written by `Slot::write`.
const CHECK_SHIFT: u32 = 51;
/// How many bits the key check has: a torn slot passes it by chance once in 2^13 = 8,192.
pub const KEY_CHECK_BITS: u32 = 64 - CHECK_SHIFT;

/// Packs a result into a data word. The score saturates at the bounds of an `i16`: the search's
/// scores, mates included, stay well inside them.
#[inline]
fn pack(best_move: Option<Move>, score: i32, depth: u8, bound: Bound, generation: u8) -> u64 {
    let move_bits = best_move.map_or(0, Move::to_bits);
    let score = score.clamp(i16::MIN.into(), i16::MAX.into()) as i16;
    u64::from(move_bits) << MOVE_SHIFT
        | u64::from(score as u16) << SCORE_SHIFT
        | u64::from(depth) << DEPTH_SHIFT
        | u64::from(generation) << GENERATION_SHIFT
        | (bound as u64) << BOUND_SHIFT
        | OCCUPIED_BIT
}

/// The entry that `data` packs, for the position with `key`.
#[inline]
fn unpack(key: u64, data: u64) -> Entry {
    Entry {
        key,
        best_move: Move::from_bits((data >> MOVE_SHIFT) as u16),
        score: i32::from((data >> SCORE_SHIFT) as u16 as i16),
        depth: (data >> DEPTH_SHIFT) as u8,
        bound: Bound::from_code(data >> BOUND_SHIFT),
        generation: (data >> GENERATION_SHIFT) as u8,
    }
}
// ANCHOR_END: pack

// ANCHOR: key_check
/// Thirteen bits that depend on every bit of `key`, placed in the data word's spare top bits.
///
/// The XOR of the slot's two words already rejects a torn slot; these bits let a measuring
/// program also *count* torn slots, and count those a table without the XOR would have served
/// (`TranspositionTable::set_torn_read_counting`). They must not be a plain slice of the key: XOR
/// is linear, so the key bits of two writes mixed by a torn read would still agree with the
/// key bits of the mix. A multiplication by an odd constant (Knuth's multiplicative hashing,
/// with the 64-bit golden ratio) is not linear in XOR, and its top bits depend on all of the key.
#[inline]
fn key_check(key: u64) -> u64 {
    key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> CHECK_SHIFT << CHECK_SHIFT
}

/// Whether `data` is an occupied data word written for `key`.
#[inline]
fn belongs_to(data: u64, key: u64) -> bool {
    data & OCCUPIED_BIT != 0 && data >> CHECK_SHIFT << CHECK_SHIFT == key_check(key)
}
// ANCHOR_END: key_check

// ANCHOR: slot
/// One entry: two 64-bit words, the key XORed with the data, and the data.
///
/// Threads read and write slots without locks, so a reader can meet a slot that another thread
/// is halfway through writing: one word from the new entry, one from the old. Storing the key
/// XORed with the data turns such a torn slot into a miss: the key a reader recovers,
/// `(key ^ data) ^ data'`, equals the key it looks for only if `data' == data`, that is, only if
/// the two words belong together. (Robert Hyatt and Timothy Mann, "A lock-less transposition
/// table implementation for parallel search chess engines", 2002; Chess Programming Wiki,
/// "Shared Hash Table".)
///
/// The words are `AtomicU64` so that each is read and written whole and safe Rust allows the
/// sharing. `Relaxed` ordering is enough: the XOR check, not the ordering between the two
/// words, decides whether a slot is whole, and nothing else in memory is published through the
/// table. On x86-64 and ARM a relaxed load or store is an ordinary `mov` or `ldr`/`str`.
#[derive(Debug, Default)]
struct Slot {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

const _: () = assert!(size_of::<Slot>() == 16, "a slot is two 64-bit words");

impl Slot {
    /// Writes a packed entry for `key`, with the key's check bits.
    #[inline]
    fn write(&self, key: u64, data: u64) {
        let data = data | key_check(key);
        self.key_xor_data.store(key ^ data, Ordering::Relaxed);
        self.data.store(data, Ordering::Relaxed);
    }

    /// The entry for `key`, if this slot holds one whose two words belong together.
    #[inline]
    fn entry_for(&self, key: u64) -> Option<Entry> {
        let data = self.data.load(Ordering::Relaxed);
        let stored_key = self.key_xor_data.load(Ordering::Relaxed) ^ data;
        (stored_key == key && data & OCCUPIED_BIT != 0).then(|| unpack(key, data))
    }

    /// What a probe for `key` that this slot did not answer says about the slot: whether it is
    /// torn (its two words come from two writes), and whether a table that stored the key
    /// itself, not XORed with the data, would have answered the probe with another position's
    /// data. Only for counting (see [`TranspositionTable::set_torn_read_counting`]); the
    /// check bits are 13, so about one torn slot in 8,000 passes for whole.
    #[cold]
    fn torn_for(&self, key: u64) -> Tear {
        let data = self.data.load(Ordering::Relaxed);
        let key_word = self.key_xor_data.load(Ordering::Relaxed);
        let stored_key = key_word ^ data;
        if data & OCCUPIED_BIT == 0 || belongs_to(data, stored_key) {
            return Tear::Whole;
        }
        // The key word is `k ^ d` of some write. If that write was for `key`, `key_word ^ key`
        // is its data: a plain table would have found `key` in its key word and served `data`.
        let plain_table_matches = belongs_to(key_word ^ key, key);
        if plain_table_matches && !belongs_to(data, key) {
            Tear::WouldServeWrongData
        } else {
            Tear::Rejected
        }
    }

    /// Whatever entry the slot holds, `None` if it is empty. The key of a torn slot comes out
    /// wrong, so this only serves to rank slots for replacement, never to answer a probe.
    #[inline]
    fn entry(&self) -> Option<Entry> {
        let data = self.data.load(Ordering::Relaxed);
        let stored_key = self.key_xor_data.load(Ordering::Relaxed) ^ data;
        (data & OCCUPIED_BIT != 0).then(|| unpack(stored_key, data))
    }
}
// ANCHOR_END: slot

/// What [`Slot::torn_for`] finds in a slot that did not answer a probe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tear {
    /// Empty, or one whole write (another position's).
    Whole,
    /// Torn, and a table without the XOR would also have missed.
    Rejected,
    /// Torn, and a table without the XOR would have served another position's data.
    WouldServeWrongData,
}

// ANCHOR: bucket
/// Slots in a bucket: 8 × 16 bytes fill one cache line.
pub const BUCKET_SLOTS: usize = 8;

/// The cache line a bucket fills: 128 bytes, as on Apple Silicon. Most x86-64 processors have
/// 64-byte lines, and there a bucket is an aligned pair of lines, which their adjacent-line
/// prefetchers tend to fetch together. The size is the same everywhere so that `bench` counts
/// the same nodes on every machine. (Ulrich Drepper, "What Every Programmer Should Know About
/// Memory", 2007, on lines and what a miss costs.)
pub const CACHE_LINE_BYTES: usize = 128;

/// Whether a type is exactly one cache line in size and in alignment: what a bucket must be,
/// so that each bucket starts on a line boundary and a probe touches one line, never two.
pub const fn fills_one_cache_line<T>() -> bool {
    size_of::<T>() == CACHE_LINE_BYTES && align_of::<T>() == CACHE_LINE_BYTES
}

/// Fails compilation unless the bucket type given fills exactly one cache line. A macro, not a
/// line written once, so that the compile-fail tests check this very assertion.
#[macro_export]
macro_rules! assert_bucket_fills_one_cache_line {
    ($bucket:ty) => {
        const _: () = assert!(
            $crate::tt::fills_one_cache_line::<$bucket>(),
            "a bucket must be exactly one cache line in size and alignment"
        );
    };
}

/// [`BUCKET_SLOTS`] slots, aligned to fill exactly one cache line. `repr(align)` takes a
/// literal, not a constant, hence the assertion below that the two agree. A `Vec<Bucket>` is
/// allocated with the same alignment, so no unsafe code is needed to align the table.
#[derive(Debug, Default)]
#[repr(align(128))]
struct Bucket([Slot; BUCKET_SLOTS]);

assert_bucket_fills_one_cache_line!(Bucket);
// ANCHOR_END: bucket

impl Bucket {
    /// The bucket's two halves of [`LINE64_SLOTS`] slots, each one 64-byte line.
    #[inline]
    fn halves(&self) -> [&[Slot; LINE64_SLOTS]; 2] {
        let (first, second) = self.0.split_at(LINE64_SLOTS);
        [
            first.try_into().expect("half of eight is four"),
            second.try_into().expect("half of eight is four"),
        ]
    }
}

// ANCHOR: line64
/// Slots in M5's bucket for 64-byte lines: 4 × 16 bytes fill one 64-byte line, the line of
/// most x86-64 processors.
pub const LINE64_SLOTS: usize = 4;

/// Whether groups of `slots` slots of type `S`, laid side by side in a `B`, are each exactly one
/// cache line of `line` bytes: a group is a line in size, a `B` is whole groups, and the
/// alignment of a `B` puts every group on a line boundary.
pub const fn groups_fill_cache_lines<B, S>(slots: usize, line: usize) -> bool {
    slots * size_of::<S>() == line
        && size_of::<B>().is_multiple_of(line)
        && align_of::<B>().is_multiple_of(line)
}

/// Fails compilation unless groups of `$slots` slots of type `$slot` in a `$bucket` are each
/// exactly one `$line`-byte cache line (the compile-fail tests break it).
#[macro_export]
macro_rules! assert_groups_fill_cache_lines {
    ($bucket:ty, $slot:ty, $slots:expr, $line:expr) => {
        const _: () = assert!(
            $crate::tt::groups_fill_cache_lines::<$bucket, $slot>($slots, $line),
            "each group of slots must be exactly one cache line in size and alignment"
        );
    };
}

// The table is one `Vec<Bucket>` whatever the geometry: a four-slot bucket is either half of
// an eight-slot one, and since those start on 128-byte boundaries, each half starts on a 64-byte
// one.
assert_groups_fill_cache_lines!(Bucket, Slot, LINE64_SLOTS, 64);
// ANCHOR_END: line64

// ANCHOR: geometry
/// Which slots a key may use: the table's geometry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Geometry {
    /// One slot per key (chapter 8).
    OneSlot,
    /// Any of four slots in one 64-byte line (M5, for most x86-64 processors).
    FourSlots,
    /// Any of eight slots in one 128-byte line (M5).
    EightSlots,
}

impl Geometry {
    /// All three, from the fewest slots per key to the most.
    pub const ALL: [Geometry; 3] = [Geometry::OneSlot, Geometry::FourSlots, Geometry::EightSlots];

    /// Slots a key may use.
    pub const fn slots(self) -> usize {
        match self {
            Geometry::OneSlot => 1,
            Geometry::FourSlots => LINE64_SLOTS,
            Geometry::EightSlots => BUCKET_SLOTS,
        }
    }

    /// Bytes of the slots a key may use: a probe that misses reads all of them.
    pub const fn bytes(self) -> usize {
        self.slots() * size_of::<Slot>()
    }
}
// ANCHOR_END: geometry

// ANCHOR: worth
/// Plies of depth an entry loses, as a keeper, for each search since it was stored.
const AGE_PENALTY: i32 = 8;

/// How much an entry is worth keeping: its depth, less [`AGE_PENALTY`] plies for every search
/// since it was stored. Deep results cost most to search again; old ones are least likely to
/// be needed. A depth-14 entry from the previous search is worth 6, a depth-2 entry of this
/// search 2, and the depth-14 entry two searches on is worth −2. The age is taken modulo 256,
/// the generation's range, so it stays right when the generation wraps from 255 to 0. (The
/// idea is Stockfish's, GPL-3.0, which also counts each search of age as 8 plies of depth;
/// this code is cb2026's own.)
#[inline]
fn worth(entry: Entry, generation: u8) -> i32 {
    let age = generation.wrapping_sub(entry.generation);
    i32::from(entry.depth) - AGE_PENALTY * i32::from(age)
}
// ANCHOR_END: worth

/// Slots in the first part of the table that [`TranspositionTable::hashfull`] samples.
const HASHFULL_SAMPLE: usize = 1000;

/// Bytes in a megabyte as UCI's `Hash` option counts them.
const MB: usize = 1 << 20;

/// Why a table of the size asked for cannot be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableSizeError {
    /// A table needs at least one megabyte.
    Zero,
    /// The memory could not be had.
    TooLarge {
        /// The size asked for, in MB.
        mb: usize,
    },
}

impl fmt::Display for TableSizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableSizeError::Zero => f.write_str("the hash table needs at least 1 MB"),
            TableSizeError::TooLarge { mb } => {
                write!(f, "cannot allocate a hash table of {mb} MB")
            }
        }
    }
}

impl std::error::Error for TableSizeError {}

/// How often the table was used since it was made, cleared or its counters reset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TtCounters {
    /// Calls to [`TranspositionTable::probe`].
    pub probes: u64,
    /// Probes that found an entry.
    pub hits: u64,
    /// Results written by [`TranspositionTable::store`].
    pub stores: u64,
    /// Results that the replacement rule turned away.
    pub refused: u64,
    /// Slots a probe found torn (two writes' words) and rejected; counted only while
    /// [`TranspositionTable::set_torn_read_counting`] is on.
    pub torn: u64,
    /// Of those, how many a table without the XOR would have served as the probed position's,
    /// with another position's data.
    pub torn_would_serve: u64,
}

impl TtCounters {
    /// Adds `other`'s counts to these (the counts of several searches together).
    pub fn add(&mut self, other: &TtCounters) {
        self.probes += other.probes;
        self.hits += other.hits;
        self.stores += other.stores;
        self.refused += other.refused;
        self.torn += other.torn;
        self.torn_would_serve += other.torn_would_serve;
    }
}

/// The table's own counters, on a cache line of their own so that they never share one with
/// the fields every probe reads.
///
/// A counter is bumped with a relaxed load and store, not an atomic read-modify-write
/// (`fetch_add` is a `lock`ed instruction on x86-64, some 20 cycles). With one thread, which is
/// how every figure and `bench` is measured, the counts are exact. With several threads,
/// increments that race are lost, so the counts are approximate, and every thread writes the
/// same line; should that ever cost threads measurable speed, per-thread counters owned by the
/// search are the remedy.
#[derive(Debug, Default)]
#[repr(align(128))]
struct Counters {
    probes: AtomicU64,
    hits: AtomicU64,
    stores: AtomicU64,
    refused: AtomicU64,
    torn: AtomicU64,
    torn_would_serve: AtomicU64,
}

/// Adds one to a counter (see [`Counters`] for why not `fetch_add`).
#[inline]
fn bump(counter: &AtomicU64) {
    let count = counter.load(Ordering::Relaxed);
    counter.store(count.wrapping_add(1), Ordering::Relaxed);
}

/// `count` empty buckets, or `None` if the allocator refuses the memory. `try_reserve_exact`
/// reports the refusal; `Vec::with_capacity` or `vec!` would abort the process instead.
fn allocate(count: usize) -> Option<Vec<Bucket>> {
    let mut buckets = Vec::new();
    buckets.try_reserve_exact(count).ok()?;
    buckets.resize_with(count, Bucket::default);
    Some(buckets)
}

/// The transposition table, shared by reference between search threads.
///
/// Probing and storing take `&self` (the slots are atomic). Changing the size, clearing and
/// switching buckets take `&mut self`: they happen between searches, and the borrow checker
/// then proves no search is running.
#[derive(Debug)]
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    /// The slots a key may use: one (chapter 8), or four or eight (M5).
    geometry: Geometry,
    /// Whether probes count torn slots (chapter 17's measurement; off in play).
    count_torn: bool,
    /// M5's same-position rule: a shallower result that is only a bound leaves a deeper entry
    /// for the same position in place (see [`TranspositionTable::store`]).
    keep_deeper: bool,
    /// The current search, for the age of entries; see [`TranspositionTable::new_search`].
    generation: AtomicU8,
    counters: Counters,
}

impl TranspositionTable {
    /// A table of `mb` megabytes (UCI's `Hash`), buckets off.
    ///
    /// # Panics
    ///
    /// If `mb` is 0 or the memory cannot be had. For a size that comes from a user, use
    /// [`TranspositionTable::try_new`].
    pub fn new(mb: usize) -> TranspositionTable {
        match TranspositionTable::try_new(mb) {
            Ok(table) => table,
            Err(error) => panic!("{error}"),
        }
    }

    /// A table of `mb` megabytes, buckets off, or why it cannot be made. Any size works, not only
    /// powers of two: keys are mapped by multiplication, not by masking.
    pub fn try_new(mb: usize) -> Result<TranspositionTable, TableSizeError> {
        let mut table = TranspositionTable::with_bucket_count(1);
        table.resize(mb)?;
        Ok(table)
    }

    /// A table of exactly `count` buckets (at least one), buckets off: for tests and for the
    /// book's small examples, where a table of a few slots shows what a large one hides.
    pub fn with_bucket_count(count: usize) -> TranspositionTable {
        TranspositionTable {
            buckets: (0..count.max(1)).map(|_| Bucket::default()).collect(),
            geometry: Geometry::OneSlot,
            count_torn: false,
            keep_deeper: false,
            generation: AtomicU8::new(0),
            counters: Counters::default(),
        }
    }

    /// Makes the table `mb` megabytes, empty, at generation 0, keeping its geometry.
    ///
    /// The old table is freed before the new one is allocated, so that a size close to the
    /// machine's memory does not need twice that. If the new one cannot be had, the table gets
    /// its old size back (empty), and the error says why.
    pub fn resize(&mut self, mb: usize) -> Result<(), TableSizeError> {
        if mb == 0 {
            return Err(TableSizeError::Zero);
        }
        let too_large = TableSizeError::TooLarge { mb };
        let count = mb.checked_mul(MB).ok_or(too_large)? / size_of::<Bucket>();
        let old_count = self.buckets.len();
        self.buckets = Vec::new();
        let result = match allocate(count) {
            Some(buckets) => {
                self.buckets = buckets;
                Ok(())
            }
            None => {
                self.buckets = allocate(old_count).unwrap_or_else(|| vec![Bucket::default()]);
                Err(too_large)
            }
        };
        self.reset_generation_and_counters();
        result
    }

    /// Empties the table and sets the generation back to 0, so that two runs of the same
    /// searches in one process (bench, the chapters' figures) see the same table and agree.
    pub fn clear(&mut self) {
        self.buckets.fill_with(Bucket::default);
        self.reset_generation_and_counters();
    }

    fn reset_generation_and_counters(&mut self) {
        self.generation = AtomicU8::new(0);
        self.counters = Counters::default();
    }

    /// Starts a new search: entries stored from now on are one generation younger than those
    /// before, which is how `worth` and the replacement rule tell this search's results from
    /// older ones. Called once per `go`, before any thread searches. The generation wraps from
    /// 255 to 0; ages are taken modulo 256.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    /// The current search's generation.
    pub fn generation(&self) -> u8 {
        self.generation.load(Ordering::Relaxed)
    }

    /// Switches M5's buckets on or off (the `ttbuckets` switch; off by default): eight slots per
    /// key, or one.
    ///
    /// The entries stay where they are. Switching on finds every one of them, since a key's
    /// own slot lies in its bucket (see `slots_for`); switching off finds
    /// only those that sit in their key's own slot.
    pub fn set_buckets(&mut self, on: bool) {
        self.set_geometry(if on {
            Geometry::EightSlots
        } else {
            Geometry::OneSlot
        });
    }

    /// Whether M5's eight-slot buckets are on.
    pub fn buckets(&self) -> bool {
        self.geometry == Geometry::EightSlots
    }

    /// Makes keys use one, four or eight slots. As with [`TranspositionTable::set_buckets`],
    /// entries stay where they are: more slots per key find every entry fewer did, since a
    /// key's group of four lies in its group of eight and its own slot in both.
    pub fn set_geometry(&mut self, geometry: Geometry) {
        self.geometry = geometry;
    }

    /// The slots a key may use.
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// Makes a store for a position already in the table keep the entry there when that entry
    /// is deeper and the new result only a bound (the `ttkeepdeep` switch, M5); off, the newer
    /// result always replaces it (chapter 8's rule).
    pub fn set_keep_deeper_same_key(&mut self, on: bool) {
        self.keep_deeper = on;
    }

    /// Makes probes count torn slots ([`TtCounters::torn`]): chapter 17's measurement of the
    /// lock-free table under threads. Off in play: counting costs a few instructions for every
    /// slot a probe reads that does not hold the position.
    pub fn set_torn_read_counting(&mut self, on: bool) {
        self.count_torn = on;
    }

    /// Slots in the table: 65,536 per megabyte.
    pub fn slot_count(&self) -> usize {
        self.buckets.len() * BUCKET_SLOTS
    }

    /// Buckets in the table: 8,192 per megabyte.
    pub fn bucket_count(&self) -> usize {
        self.buckets.len()
    }

    /// How full the table is, in thousandths, as UCI's `info hashfull` reports it: the share of
    /// the first 1,000 slots that hold an entry of the current search. Counting only this
    /// search's entries says how much of the table the search is using; older entries are
    /// there to be replaced. (A sample, as in Stockfish: counting all slots would take as long
    /// as clearing the table.)
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation();
        let sample = self.buckets.iter().flat_map(|bucket| &bucket.0);
        let (mut sampled, mut current) = (0u32, 0u32);
        for slot in sample.take(HASHFULL_SAMPLE) {
            sampled += 1;
            if slot.entry().is_some_and(|e| e.generation == generation) {
                current += 1;
            }
        }
        current * 1000 / sampled
    }

    /// The counters since the table was made, cleared or reset.
    pub fn counters(&self) -> TtCounters {
        let read = |counter: &AtomicU64| counter.load(Ordering::Relaxed);
        TtCounters {
            probes: read(&self.counters.probes),
            hits: read(&self.counters.hits),
            stores: read(&self.counters.stores),
            refused: read(&self.counters.refused),
            torn: read(&self.counters.torn),
            torn_would_serve: read(&self.counters.torn_would_serve),
        }
    }

    /// Sets the counters to zero, to count one search or one position alone.
    pub fn reset_counters(&self) {
        for counter in [
            &self.counters.probes,
            &self.counters.hits,
            &self.counters.stores,
            &self.counters.refused,
            &self.counters.torn,
            &self.counters.torn_would_serve,
        ] {
            counter.store(0, Ordering::Relaxed);
        }
    }

    // ANCHOR: slots_for
    /// `key` read as a fraction of 2^64 and scaled to `count`: ⌊key × count / 2^64⌋, an index
    /// below `count`.
    #[inline]
    fn scale(key: u64, count: usize) -> usize {
        ((u128::from(key) * count as u128) >> 64) as usize
    }

    /// The slots that may hold the position with `key`: its group of one, four or eight slots.
    ///
    /// The usual `key % count` needs a division, tens of cycles. Instead the key is read as a
    /// fraction of 2^64 and scaled to the count, `(key × count) >> 64`: one multiplication, for
    /// a table of any size, and as even as the keys, which Zobrist hashing makes uniform.
    /// (Daniel Lemire, "A fast alternative to the modulo reduction", 2016.)
    ///
    /// With S slots in groups of g and a key that is the fraction x, the group is ⌊(S/g)x⌋ and
    /// the single slot ⌊Sx⌋, which lies in group ⌊⌊Sx⌋ / g⌋ = ⌊Sx/g⌋ = ⌊(S/g)x⌋: a key's own slot
    /// is always one of its group's slots, for groups of four as of eight. And a key's group of
    /// four, slots 4⌊(S/4)x⌋ on, lies in its group of eight by the same argument.
    ///
    /// Each geometry has its own arm, so that the compiler sees a slice of constant length in each
    /// and unrolls the loops over it.
    #[inline]
    fn slots_for(&self, key: u64) -> &[Slot] {
        match self.geometry {
            Geometry::OneSlot => {
                let slot = Self::scale(key, self.slot_count());
                let bucket = &self.buckets[slot / BUCKET_SLOTS];
                std::slice::from_ref(&bucket.0[slot % BUCKET_SLOTS])
            }
            Geometry::FourSlots => {
                let half = Self::scale(key, 2 * self.buckets.len());
                let [first, second] = self.buckets[half / 2].halves();
                if half.is_multiple_of(2) {
                    first
                } else {
                    second
                }
            }
            Geometry::EightSlots => &self.buckets[Self::scale(key, self.buckets.len())].0,
        }
    }
    // ANCHOR_END: slots_for

    // ANCHOR: probe
    /// The stored result for the position with `key`, if the table has one.
    ///
    /// The key's slots are read in turn. A miss reads them all, but the first read brought the
    /// whole group into the cache when the group is one line, so the others cost a few
    /// instructions each, not another wait for memory. M5's eight slots are one line only where
    /// lines are 128 bytes; on most x86-64 processors they are two, requested together, and a
    /// miss moves twice the memory of a miss in one slot (`cargo xtask perf tt` counts it).
    /// Four slots are one 64-byte line.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        if self.count_torn {
            // Exact under threads: the count torn slots are measured against.
            self.counters.probes.fetch_add(1, Ordering::Relaxed);
        } else {
            bump(&self.counters.probes);
        }
        let slots = self.slots_for(key);
        let found = slots.iter().find_map(|slot| slot.entry_for(key));
        if found.is_some() {
            bump(&self.counters.hits);
        } else if self.count_torn {
            self.count_torn_slots(slots, key);
        }
        found
    }
    // ANCHOR_END: probe

    // ANCHOR: touch
    /// Starts loading the slots of `key` into the cache without waiting for them (M5, switch
    /// `tttouch`): a relaxed load of the first slot's first word, its value handed to
    /// `black_box` so that the compiler keeps a load nothing else reads. A processor does not
    /// stop at a load whose value no instruction needs yet; it goes on with the work between
    /// making a move and probing the child, and the line may have arrived when the probe comes.
    /// Engines in C and C++ issue a prefetch instruction here (Stockfish's `prefetch` after
    /// computing the new key in `do_move`); Rust's prefetch intrinsics need `unsafe`, which this
    /// crate forbids, and this is the safe approximation.
    #[inline]
    pub fn touch(&self, key: u64) {
        let first = &self.slots_for(key)[0];
        std::hint::black_box(first.key_xor_data.load(Ordering::Relaxed));
    }
    // ANCHOR_END: touch

    /// Counts the torn slots among those a probe for `key` read and found nothing in. The
    /// counts are bumped atomically: torn slots come from threads racing, so these are the
    /// counts threads would lose.
    #[cold]
    fn count_torn_slots(&self, slots: &[Slot], key: u64) {
        for slot in slots {
            let counter = match slot.torn_for(key) {
                Tear::Whole => continue,
                Tear::Rejected => &self.counters.torn,
                Tear::WouldServeWrongData => {
                    self.counters.torn.fetch_add(1, Ordering::Relaxed);
                    &self.counters.torn_would_serve
                }
            };
            counter.fetch_add(1, Ordering::Relaxed);
        }
    }

    // ANCHOR: store
    /// Stores a search result for the position with `key`: its best move (`None` after a
    /// fail-low), score, depth in plies (saturated at 255) and bound.
    ///
    /// The slot is chosen by `slot_to_store`; chapter 8's rule then decides whether the entry
    /// there gives way. It does unless it is another position's result from this same search
    /// and deeper than the new one: a deep result costs more to find again, but one from an
    /// earlier search is about a position the game has probably left. A result for the same
    /// position replaces the old one, which it supersedes; with `ttkeepdeep` on, unless the old
    /// entry is deeper and the new result only a bound. Quiescence stores its results at depth 0,
    /// so without that exception a capture sequence that reaches a position searched deeply
    /// throws the deep result away.
    pub fn store(&self, key: u64, best_move: Option<Move>, score: i32, depth: u32, bound: Bound) {
        let generation = self.generation();
        let depth = u8::try_from(depth).unwrap_or(u8::MAX);
        let slot = self.slot_to_store(key, generation);
        let old = slot.entry();
        let keeps_old = old.is_some_and(|old| {
            let deeper = old.depth > depth;
            if old.key == key {
                self.keep_deeper && deeper && bound != Bound::Exact
            } else {
                old.generation == generation && deeper
            }
        });
        if keeps_old {
            bump(&self.counters.refused);
            return;
        }
        // A fail-low has no best move; keep the one already known for this position, the
        // best guess for ordering the moves next time.
        let best_move = best_move.or_else(|| {
            old.filter(|old| old.key == key)
                .and_then(|old| old.best_move)
        });
        slot.write(key, pack(best_move, score, depth, bound, generation));
        bump(&self.counters.stores);
    }
    // ANCHOR_END: store

    // ANCHOR: slot_to_store
    /// Where a result for `key` goes: the slot already holding the position, else the first
    /// empty slot, else the slot whose entry is worth least (see [`worth`]). With one slot per
    /// key there is only that one.
    ///
    /// Two threads storing at once may both pick the same empty slot, or put one position in
    /// two slots of a bucket; a probe then finds the first, and the other is replaced in time.
    /// Locking would cost every store to prevent a rare, harmless waste.
    #[inline]
    fn slot_to_store(&self, key: u64, generation: u8) -> &Slot {
        // One pass: each slot is read once, and finding the position itself ends it.
        let slots = self.slots_for(key);
        let mut chosen = &slots[0];
        let mut least = i32::MAX;
        for slot in slots {
            let value = match slot.entry() {
                Some(entry) if entry.key == key => return slot,
                Some(entry) => worth(entry, generation),
                None => i32::MIN, // an empty slot ranks below every entry
            };
            // Strictly less: of equals, the first stays chosen, so the first empty slot wins.
            if value < least {
                (chosen, least) = (slot, value);
            }
        }
        chosen
    }
    // ANCHOR_END: slot_to_store
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::MoveKind;
    use crate::square::Square;

    fn a_move(from: u8, to: u8, kind: MoveKind) -> Move {
        Move::new(Square::new(from), Square::new(to), kind)
    }

    fn entry(depth: u8, generation: u8) -> Entry {
        Entry {
            key: 1,
            best_move: None,
            score: 0,
            depth,
            bound: Bound::Exact,
            generation,
        }
    }

    /// A table of one bucket: every key maps to it, so tests choose which slots compete.
    fn one_bucket(buckets_on: bool) -> TranspositionTable {
        let mut table = TranspositionTable::with_bucket_count(1);
        table.set_buckets(buckets_on);
        table
    }

    /// A key whose own slot (buckets off) in a one-bucket table is `slot`, told apart by `tag`.
    fn key_in_slot(slot: u64, tag: u64) -> u64 {
        slot << 61 | tag
    }

    /// The index in its bucket of the slot that holds `key`, if one does.
    fn slot_holding(table: &TranspositionTable, key: u64) -> Option<usize> {
        let bucket = &table.buckets[TranspositionTable::scale(key, table.bucket_count())];
        // (The index in the eight-slot bucket, whatever the geometry.)
        bucket
            .0
            .iter()
            .position(|slot| slot.entry_for(key).is_some())
    }

    #[test]
    fn worth_follows_the_chapters_examples() {
        // This search is generation 5.
        assert_eq!(worth(entry(14, 4), 5), 6, "depth 14, one search ago");
        assert_eq!(worth(entry(2, 5), 5), 2, "depth 2, this search");
        assert_eq!(worth(entry(14, 4), 6), -2, "depth 14, two searches ago");
    }

    #[test]
    fn age_is_counted_across_the_generation_wrap() {
        assert_eq!(
            worth(entry(14, 255), 0),
            6,
            "stored at 255, now 0: one search ago"
        );
        assert_eq!(
            worth(entry(14, 254), 0),
            -2,
            "stored at 254, now 0: two searches ago"
        );
        assert_eq!(worth(entry(20, 250), 3), 20 - 8 * 9);
    }

    #[test]
    fn the_generation_wraps_and_old_entries_still_age() {
        // Buckets off: both keys below compete for slot 0.
        let table = one_bucket(false);
        for _ in 0..255 {
            table.new_search();
        }
        assert_eq!(table.generation(), 255);
        table.store(key_in_slot(0, 1), None, 0, 14, Bound::Exact);
        table.new_search();
        assert_eq!(table.generation(), 0);
        let stored = table.probe(key_in_slot(0, 1)).expect("stored");
        assert_eq!(stored.generation, 255);
        assert_eq!(worth(stored, table.generation()), 6);
        // Another position of the new search replaces it even though it is shallower: the
        // wrapped generation (255 against 0) still reads as an older search.
        table.store(key_in_slot(0, 2), None, 0, 1, Bound::Exact);
        assert!(table.probe(key_in_slot(0, 2)).is_some());
        assert!(table.probe(key_in_slot(0, 1)).is_none());
    }

    #[test]
    fn the_shallow_entry_goes_first_then_the_old_one() {
        let table = one_bucket(true);
        let old_deep = 100;
        table.store(old_deep, None, 0, 14, Bound::Exact);
        table.new_search();
        let shallow = 101;
        table.store(shallow, None, 0, 2, Bound::Exact);
        for filler in 200..206 {
            table.store(filler, None, 0, 30, Bound::Exact);
        }
        // Full: worths 6 (old, deep), 2 (shallow), 30 (fillers).
        let newcomer = 300;
        table.store(newcomer, None, 0, 10, Bound::Exact);
        assert!(
            table.probe(shallow).is_none(),
            "the shallow entry is given up first"
        );
        assert!(table.probe(old_deep).is_some());
        assert_eq!(
            slot_holding(&table, newcomer),
            Some(1),
            "in the shallow entry's slot"
        );

        table.new_search();
        // Worths now −2 (old, deep), 2 (newcomer), 22 (fillers).
        let next = 301;
        table.store(next, None, 0, 1, Bound::Exact);
        assert!(
            table.probe(old_deep).is_none(),
            "two searches on, the old entry goes"
        );
        assert_eq!(slot_holding(&table, next), Some(0));
        assert!(table.probe(newcomer).is_some());
    }

    #[test]
    fn a_store_takes_the_first_empty_slot() {
        let mut table = one_bucket(false);
        // Buckets off: the key's own slot is 5, leaving 0 to 4 and 6, 7 empty.
        table.store(key_in_slot(5, 1), None, 0, 3, Bound::Exact);
        table.set_buckets(true);
        table.store(key_in_slot(3, 2), None, 0, 3, Bound::Exact);
        table.store(key_in_slot(3, 3), None, 0, 3, Bound::Exact);
        assert_eq!(slot_holding(&table, key_in_slot(5, 1)), Some(5));
        assert_eq!(slot_holding(&table, key_in_slot(3, 2)), Some(0));
        assert_eq!(slot_holding(&table, key_in_slot(3, 3)), Some(1));
    }

    #[test]
    fn a_store_goes_to_the_slot_holding_the_position() {
        let mut table = one_bucket(false);
        let key = key_in_slot(6, 1);
        table.store(key, None, 10, 3, Bound::Lower);
        table.set_buckets(true);
        // Slots 0 to 5 are empty, but the position is in slot 6.
        table.store(key, None, 20, 4, Bound::Exact);
        assert_eq!(slot_holding(&table, key), Some(6));
        assert!(
            table.buckets[0].0[..6]
                .iter()
                .all(|slot| slot.entry().is_none())
        );
        let found = table.probe(key).expect("stored");
        assert_eq!(
            (found.score, found.depth, found.bound),
            (20, 4, Bound::Exact)
        );
    }

    #[test]
    fn a_deeper_entry_of_this_search_is_kept_and_an_older_one_is_not() {
        let table = one_bucket(false);
        let (deep, shallow) = (key_in_slot(2, 1), key_in_slot(2, 2));
        table.store(deep, None, 0, 9, Bound::Exact);
        table.store(shallow, None, 0, 8, Bound::Exact);
        assert!(table.probe(deep).is_some(), "deeper, same search: kept");
        assert_eq!(table.counters().refused, 1);
        table.store(shallow, None, 0, 9, Bound::Exact);
        assert!(table.probe(shallow).is_some(), "as deep: replaced");
        table.new_search();
        table.store(deep, None, 0, 1, Bound::Exact);
        assert!(
            table.probe(deep).is_some(),
            "an earlier search's entry gives way"
        );
    }

    #[test]
    fn a_same_position_result_replaces_even_when_shallower() {
        let table = one_bucket(false);
        table.store(7, None, 50, 12, Bound::Exact);
        table.store(7, None, -5, 3, Bound::Upper);
        let found = table.probe(7).expect("stored");
        assert_eq!(
            (found.score, found.depth, found.bound),
            (-5, 3, Bound::Upper)
        );
    }

    #[test]
    fn with_keep_deeper_a_shallow_bound_leaves_a_deep_entry_but_an_exact_one_replaces_it() {
        let mut table = one_bucket(false);
        table.set_keep_deeper_same_key(true);
        table.store(7, None, 50, 12, Bound::Exact);
        table.store(7, None, -5, 0, Bound::Upper);
        let found = table.probe(7).expect("stored");
        assert_eq!((found.score, found.depth), (50, 12), "the deep entry stays");
        assert_eq!(table.counters().refused, 1);
        table.store(7, None, 8, 13, Bound::Lower);
        assert_eq!(
            table.probe(7).map(|e| e.depth),
            Some(13),
            "a deeper bound replaces"
        );
        table.store(7, None, 9, 2, Bound::Exact);
        let found = table.probe(7).expect("stored");
        assert_eq!(
            (found.score, found.depth),
            (9, 2),
            "an exact result replaces"
        );
    }

    #[test]
    fn a_fail_low_keeps_the_positions_best_move() {
        let table = one_bucket(false);
        let e2e4 = a_move(12, 28, MoveKind::DoublePawnPush);
        let key = key_in_slot(4, 1);
        table.store(key, Some(e2e4), 30, 5, Bound::Exact);
        table.store(key, None, -40, 6, Bound::Upper);
        let found = table.probe(key).expect("stored");
        assert_eq!(found.best_move, Some(e2e4));
        assert_eq!(
            (found.score, found.depth, found.bound),
            (-40, 6, Bound::Upper)
        );

        // Another position in the same slot does not inherit it.
        let other = key_in_slot(4, 2);
        table.store(other, None, 0, 7, Bound::Upper);
        assert_eq!(table.probe(other).expect("stored").best_move, None);
    }

    #[test]
    fn depth_saturates_at_255() {
        let table = one_bucket(false);
        table.store(1, None, 0, 255, Bound::Exact);
        assert_eq!(table.probe(1).expect("stored").depth, 255);
        table.store(2, None, 0, 1000, Bound::Exact);
        assert_eq!(table.probe(2).expect("stored").depth, 255);
        table.store(3, None, 0, u32::MAX, Bound::Exact);
        assert_eq!(table.probe(3).expect("stored").depth, 255);
    }

    #[test]
    fn packing_round_trips_every_fields_extremes() {
        let moves = [
            None,
            Some(a_move(0, 1, MoveKind::Quiet)),
            Some(a_move(63, 62, MoveKind::QueenPromotionCapture)),
            Some(a_move(62, 63, MoveKind::QueenPromotionCapture)),
        ];
        let scores = [i32::from(i16::MIN), -1, 0, 1, i32::from(i16::MAX)];
        for key in [0, 1, u64::MAX, 0x8000_0000_0000_0000] {
            for best_move in moves {
                for score in scores {
                    for depth in [0, 1, 254, 255] {
                        for bound in Bound::ALL {
                            for generation in [0, 1, 128, 255] {
                                let data = pack(best_move, score, depth, bound, generation);
                                let expected = Entry {
                                    key,
                                    best_move,
                                    score,
                                    depth,
                                    bound,
                                    generation,
                                };
                                assert_eq!(unpack(key, data), expected);
                                assert_ne!(data, 0, "a stored entry is never an empty slot");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn scores_beyond_an_i16_saturate() {
        let unpacked = |score| unpack(0, pack(None, score, 0, Bound::Exact, 0)).score;
        assert_eq!(unpacked(40_000), 32_767);
        assert_eq!(unpacked(-40_000), -32_768);
    }

    #[test]
    fn an_empty_slot_holds_nothing_not_even_key_zero() {
        let slot = Slot::default();
        assert_eq!(slot.entry(), None);
        assert_eq!(slot.entry_for(0), None);
        let table = one_bucket(true);
        assert_eq!(table.probe(0), None);
        table.store(0, None, 3, 1, Bound::Exact);
        assert_eq!(table.probe(0).map(|e| e.score), Some(3));
    }

    #[test]
    fn a_torn_slot_reads_as_a_miss() {
        let (key_a, key_b) = (0x1234_5678_9abc_def0, 0x0fed_cba9_8765_4321);
        let data_a = pack(
            Some(a_move(12, 28, MoveKind::Quiet)),
            25,
            7,
            Bound::Exact,
            0,
        );
        let data_b = pack(
            Some(a_move(52, 36, MoveKind::Quiet)),
            -90,
            3,
            Bound::Lower,
            0,
        );
        let slot = Slot::default();
        slot.write(key_a, data_a);
        assert!(slot.entry_for(key_a).is_some());

        // The key word of A's write with the data of B's, in both orders.
        slot.data.store(data_b, Ordering::Relaxed);
        assert_eq!(slot.entry_for(key_a), None);
        assert_eq!(slot.entry_for(key_b), None);
        slot.write(key_b, data_b);
        slot.data.store(data_a, Ordering::Relaxed);
        assert_eq!(slot.entry_for(key_a), None);
        assert_eq!(slot.entry_for(key_b), None);

        // The same for two results for one position: a mix of them is still a miss.
        let data_a2 = pack(None, 26, 8, Bound::Upper, 0);
        slot.write(key_a, data_a);
        slot.data.store(data_a2, Ordering::Relaxed);
        assert_eq!(slot.entry_for(key_a), None);

        // And through a probe of the table.
        let table = one_bucket(true);
        table.store(key_a, None, 25, 7, Bound::Exact);
        let index = slot_holding(&table, key_a).expect("stored");
        table.buckets[0].0[index]
            .data
            .store(data_b, Ordering::Relaxed);
        assert_eq!(table.probe(key_a), None);
    }

    #[test]
    fn torn_slots_are_counted_and_so_is_what_a_plain_table_would_serve() {
        let (key_a, key_b) = (0x1234_5678_9abc_def0, 0x0fed_cba9_8765_4321);
        let mut table = one_bucket(false);
        table.set_torn_read_counting(true);
        // Slot 0 of the one bucket: keys with their top three bits 0.
        let (key_a, key_b) = (key_a >> 3, key_b >> 3);
        let slot = &table.buckets[0].0[0];
        let data_b = pack(None, -90, 3, Bound::Lower, 0) | key_check(key_b);
        slot.write(key_a, pack(None, 25, 7, Bound::Exact, 0));

        // A whole slot of another position is a plain miss, not a torn one.
        assert_eq!(table.probe(key_b), None);
        assert_eq!(
            (table.counters().torn, table.counters().torn_would_serve),
            (0, 0)
        );

        // A's key word with B's data: A's probe is torn, and a table that kept A's key as it is
        // would have handed B's data to A.
        slot.data.store(data_b, Ordering::Relaxed);
        assert_eq!(table.probe(key_a), None);
        assert_eq!(
            (table.counters().torn, table.counters().torn_would_serve),
            (1, 1)
        );
        // B's probe meets the same torn slot, but a plain table would have seen A's key there.
        assert_eq!(table.probe(key_b), None);
        assert_eq!(
            (table.counters().torn, table.counters().torn_would_serve),
            (2, 1)
        );

        // Two results for A mixed: torn, but a plain table would serve A's own data.
        slot.write(key_a, pack(None, 25, 7, Bound::Exact, 0));
        let data_a2 = pack(None, 26, 8, Bound::Upper, 0) | key_check(key_a);
        slot.data.store(data_a2, Ordering::Relaxed);
        assert_eq!(table.probe(key_a), None);
        assert_eq!(
            (table.counters().torn, table.counters().torn_would_serve),
            (3, 1)
        );

        // Not counting: nothing is.
        table.set_torn_read_counting(false);
        assert_eq!(table.probe(key_a), None);
        assert_eq!(table.counters().torn, 3);
    }

    #[test]
    fn check_bits_leave_every_field_and_the_hit_alone() {
        let slot = Slot::default();
        for key in random_keys(3).take(1000) {
            let data = pack(None, -7, 9, Bound::Lower, 4);
            slot.write(key, data);
            let entry = slot.entry_for(key).expect("a whole write is found");
            assert_eq!(entry, unpack(key, data));
            assert_eq!(
                slot.torn_for(key ^ 1),
                Tear::Whole,
                "another position's, whole"
            );
        }
    }

    #[test]
    fn a_keys_four_slots_lie_in_its_eight_and_hold_its_own_slot() {
        for count in [1, 2, 3, 7, 64, 1000, 65_537] {
            let mut table = TranspositionTable::with_bucket_count(count);
            for key in random_keys(count as u64).take(5_000).chain([0, u64::MAX]) {
                let group = |table: &mut TranspositionTable, geometry| {
                    table.set_geometry(geometry);
                    table
                        .slots_for(key)
                        .iter()
                        .map(|s| s as *const Slot)
                        .collect::<Vec<_>>()
                };
                let one = group(&mut table, Geometry::OneSlot);
                let four = group(&mut table, Geometry::FourSlots);
                let eight = group(&mut table, Geometry::EightSlots);
                assert_eq!((one.len(), four.len(), eight.len()), (1, 4, 8));
                assert!(four.contains(&one[0]), "B={count} key={key:#x}");
                assert!(
                    four.iter().all(|s| eight.contains(s)),
                    "B={count} key={key:#x}"
                );
                assert_eq!(
                    four[0] as usize % 64,
                    0,
                    "a group of four starts a 64-byte line"
                );
            }
        }
    }

    /// A deterministic stream of 64-bit keys (SplitMix64, Sebastiano Vigna).
    fn random_keys(seed: u64) -> impl Iterator<Item = u64> {
        let mut state = seed;
        std::iter::repeat_with(move || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        })
    }

    /// Whether `key`'s single slot (buckets off) is one of the slots of its bucket (buckets
    /// on), asked of the table's own `slots_for`.
    fn own_slot_lies_in_bucket(table: &mut TranspositionTable, key: u64) -> bool {
        table.set_buckets(false);
        let own: *const Slot = &table.slots_for(key)[0];
        table.set_buckets(true);
        table
            .slots_for(key)
            .iter()
            .any(|slot| std::ptr::eq(slot, own))
    }

    #[test]
    fn a_keys_own_slot_lies_in_its_bucket_for_every_small_table() {
        // Exhaustive over the top 10 bits, at both ends of each interval they name, for every
        // table of up to 2,048 buckets, and 100 random keys each.
        const BITS: u32 = 10;
        let low_bits = u64::MAX >> BITS;
        for count in 1..=2048 {
            let mut table = TranspositionTable::with_bucket_count(count);
            for top in 0..1u64 << BITS {
                let first = top << (64 - BITS);
                assert!(
                    own_slot_lies_in_bucket(&mut table, first),
                    "B={count} key={first:#x}"
                );
                let last = first | low_bits;
                assert!(
                    own_slot_lies_in_bucket(&mut table, last),
                    "B={count} key={last:#x}"
                );
            }
            for key in random_keys(count as u64).take(100) {
                assert!(
                    own_slot_lies_in_bucket(&mut table, key),
                    "B={count} key={key:#x}"
                );
            }
        }
    }

    #[test]
    fn a_keys_own_slot_lies_in_its_bucket_for_large_tables() {
        let counts = [4095, 4096, 8191, 8192, 65_537, 1_000_003, 1 << 21];
        for count in counts {
            let mut table = TranspositionTable::with_bucket_count(count);
            for key in random_keys(count as u64)
                .take(20_000)
                .chain([0, 1, u64::MAX])
            {
                assert!(
                    own_slot_lies_in_bucket(&mut table, key),
                    "B={count} key={key:#x}"
                );
            }
        }
    }

    #[test]
    fn switching_off_finds_exactly_the_entries_in_their_own_slot() {
        let mut table = TranspositionTable::with_bucket_count(4);
        table.set_buckets(true);
        let keys: Vec<u64> = random_keys(7).take(24).collect();
        for &key in &keys {
            table.store(key, None, 1, 1, Bound::Exact);
        }
        let found_in_buckets: Vec<u64> = keys
            .iter()
            .copied()
            .filter(|&key| table.probe(key).is_some())
            .collect();
        table.set_buckets(false);
        let mut in_own_slot = 0;
        for key in found_in_buckets {
            let own_slot = TranspositionTable::scale(key, table.slot_count()) % BUCKET_SLOTS;
            let in_own = slot_holding(&table, key) == Some(own_slot);
            assert_eq!(table.probe(key).is_some(), in_own, "key {key:#x}");
            in_own_slot += usize::from(in_own);
        }
        assert!(
            in_own_slot > 0 && in_own_slot < keys.len(),
            "the test sees both cases"
        );
    }
}
