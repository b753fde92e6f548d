//! The library half of `cargo xtask`: the book machinery, a library so that the tests in
//! `xtask/tests/` can run it on fixture books. `main.rs` parses the command line and calls in.

pub mod book;
pub mod browser;
pub mod browser_live;
pub mod cdp;
pub mod figures;
pub mod finding;
pub mod live;
pub mod preprocess;
pub mod release;
pub mod serve;
pub mod stored;
pub mod verify;
