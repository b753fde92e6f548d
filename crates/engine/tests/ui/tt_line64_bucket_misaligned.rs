//! Sixteen-byte slots in a 128-byte bucket aligned to 32 bytes: each group of four is 64 bytes,
//! but a group can start in the middle of a 64-byte line and straddle two. The assertion must
//! reject it.

#[derive(Default)]
#[repr(align(32))]
struct Bucket([[u64; 2]; 8]);

cb2026::assert_groups_fill_cache_lines!(Bucket, [u64; 2], 4, 64);

fn main() {}
