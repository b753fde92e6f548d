//! cb2026: a UCI chess engine written to be read.
//!
//! Each module is the subject of a chapter of the book; ARCHITECTURE.md at the top of the
//! repository is the map.

pub mod moves;
pub mod square;
