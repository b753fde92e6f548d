//! cb2026: a UCI chess engine written to be read.
//!
//! Each module is the subject of a chapter of the book; ARCHITECTURE.md at the top of the
//! repository is the map.

pub mod attacks;
pub mod bench;
pub mod bitboard;
pub mod epd;
pub mod eval;
pub mod eval2;
pub mod eval2_eval3;
pub mod eval2_eval4;
pub mod eval2_eval5;
pub mod eval2_kingsafety;
pub mod eval2_teacher;
pub mod eval2_tuned;
pub mod fen;
pub mod magic;
pub mod magic_numbers;
pub mod measure;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod position;
pub mod san;
pub mod search;
pub mod square;
pub mod switches;
pub mod time;
pub mod tt;
pub mod tune;
pub mod uci;
pub mod zobrist;
