//! Compile-time assertions, checked by compiling code that must fail (trybuild).
//!
//! Each `tests/ui/*.rs` breaks one assertion; its `.stderr` pins the compiler's message, which
//! is why rust-toolchain.toml pins the compiler.

#[test]
fn broken_compile_time_assertions_fail_to_compile() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}
