//! Every match record stored in `snapshots/games/` loads, adds up, and gives its figures: a record a
//! chapter quotes must stay readable by the arena that wrote it.

use arena::record_figures;
use std::path::PathBuf;

#[test]
fn stored_records_give_their_figures() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../snapshots/games");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return; // no records stored yet
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let figures = record_figures(&path).unwrap_or_else(|e| panic!("{e}"));
        let stem = path.file_stem().unwrap().to_string_lossy();
        if std::env::var_os("ARENA_PRINT_FIGURES").is_some() {
            for (key, value) in &figures {
                println!("{key}: {value}");
            }
        }
        for key in [
            "games",
            "wins",
            "draws",
            "losses",
            "elo",
            "elo_error",
            "los",
            "verdict",
        ] {
            assert!(
                figures.contains_key(&format!("games.{stem}.{key}")),
                "{}: no {key}",
                path.display()
            );
        }
        let pgn = path.with_extension("pgn");
        let games_in_pgn = std::fs::read_to_string(&pgn)
            .unwrap_or_else(|e| panic!("{}: {e}", pgn.display()))
            .matches("[Event ")
            .count();
        assert_eq!(
            games_in_pgn.to_string(),
            figures[&format!("games.{stem}.games")],
            "{}",
            pgn.display()
        );
    }
}
