//! Groups of four slots of 24 bytes are 96 bytes: more than one 64-byte line, so the assertion
//! that each group of four is one line must reject them.

#[derive(Default)]
#[repr(align(128))]
struct Bucket([[u64; 3]; 8]);

cb2026::assert_groups_fill_cache_lines!(Bucket, [u64; 3], 4, 64);

fn main() {}
