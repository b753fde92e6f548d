//! Arbitrary bytes as a UCI session: the bytes are split into lines, as `cb2026` reads its
//! standard input, and each line goes to `Session::handle`, as fast as the session takes them
//! (a GUI that does not wait for answers, the hardest kind). Two promises are checked:
//!
//! - no input makes the session panic (libfuzzer-sys turns any panic, even one the engine
//!   catches, into a crash), and writing the answers never fails;
//! - every `go` is answered by exactly one `bestmove`: at the end `stop` is sent, and the
//!   answers must all arrive within [`PATIENCE`] (a hang is a finding too).
//!
//! Two things a GUI could ask are left out, because they test the machine, not the protocol:
//! tables over [`MAX_HASH_MB`] (the fuzzer would spend its memory allocating them; the refusal
//! of sizes the machine cannot give has its own tests), and the default table at the start
//! (each run starts with `setoption name Hash value 1` instead of 16 MB to zero, so that the
//! fuzzer runs thousands of sessions a second, not dozens).

#![no_main]

// The body is shared with the workspace's test `crates/engine/tests/fuzz_seeds.rs`, which runs it
// over the seed corpus with the stable compiler: so it is compiled and checked by every
// `cargo test`, not only where cargo-fuzz and a nightly compiler are.
#[path = "../session_check.rs"]
mod session_check;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    session_check::check_bytes(data);
});
