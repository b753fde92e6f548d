//! The arena: games between UCI engines, so that a change to cb2026 is judged by results, not by
//! node counts.
//!
//! A match plays game pairs (one opening, colours reversed) between two engines under a time
//! control, with the rules and the clocks kept here (`rules`, `game`), stops on an SPRT verdict
//! (`stats`), and leaves a PGN and a JSON record (`record`) from which the book's figures are
//! recomputed by [`record_figures`]. `cargo xtask match` is the command line.
//!
//! Modules, in the order a game uses them: `spec` (engines and time controls as written),
//! `openings`, `uci` (engine processes), `rules`, `adjudication`, `game`, `pgn`, `runner` (the
//! match), `stats`, `record`, `bench` (signatures and the machine).

pub mod adjudication;
pub mod bench;
pub mod game;
pub mod openings;
pub mod pgn;
pub mod process;
pub mod record;
pub mod rules;
pub mod runner;
pub mod spec;
pub mod stats;
pub mod stored_games;
pub mod uci;

pub use record::{MatchRecord, RecordError, record_figures};
pub use runner::{MatchConfig, MatchReport, run_match};
pub use spec::{EngineSpec, TimeControl};
