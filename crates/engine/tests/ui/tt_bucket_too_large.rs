//! A bucket of nine 16-byte slots, aligned to 128 bytes, takes two lines: the assertion must
//! reject it.

#[derive(Default)]
#[repr(align(128))]
struct Bucket([[u64; 2]; 9]);

cb2026::assert_bucket_fills_one_cache_line!(Bucket);

fn main() {}
