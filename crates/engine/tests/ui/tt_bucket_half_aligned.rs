//! A bucket of the right size but aligned to 64 bytes can start in the middle of a 128-byte
//! line and straddle two: the assertion must reject it.

#[derive(Default)]
#[repr(align(64))]
struct Bucket([u64; 16]);

cb2026::assert_bucket_fills_one_cache_line!(Bucket);

fn main() {}
