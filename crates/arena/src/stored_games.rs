//! Reading back the games the arena stored as PGN ([`crate::pgn`] writes them): a start, the
//! moves in SAN and the result, for `cargo xtask datagen`, which labels their positions for
//! chapter 19's tuner, and for the chapter program that counts them.
//!
//! A record grows when a match is resumed, and new records are added; the games are therefore
//! chosen by the date the arena wrote in each game's `Date` tag, up to a date the caller names,
//! so the same call reads the same games later.

use std::path::Path;

/// One stored game, as labelling needs it: the start, the moves in SAN, White's points.
#[derive(Clone, Debug, PartialEq)]
pub struct PgnGame {
    pub fen: String,
    pub san: Vec<String>,
    pub white_points: f64,
}

/// The games of every `.pgn` file in `dir` (files by name, games in order) played on or before
/// `until` (`YYYY.MM.DD`, as the tag is written) that ended in a result.
pub fn stored_games(dir: &Path, until: &str) -> Result<Vec<PgnGame>, String> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "pgn"))
        .collect();
    files.sort();
    let mut games = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        games.extend(
            parse_games(&text)
                .into_iter()
                .filter(|(date, _)| date.as_str() <= until)
                .map(|(_, game)| game),
        );
    }
    Ok(games)
}

/// The games of one PGN text with their dates; a game without a decisive or drawn result
/// (`*`) is left out.
pub fn parse_games(pgn: &str) -> Vec<(String, PgnGame)> {
    pgn.split("[Event ")
        .skip(1)
        .filter_map(|text| {
            let tag = |name: &str| {
                text.lines()
                    .find_map(|line| line.strip_prefix(&format!("[{name} \"")))
                    .and_then(|rest| rest.strip_suffix("\"]"))
            };
            let white_points = match tag("Result")? {
                "1-0" => 1.0,
                "0-1" => 0.0,
                "1/2-1/2" => 0.5,
                _ => return None,
            };
            let fen = tag("FEN")
                .unwrap_or("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
                .to_string();
            let movetext = text.split_once("\n\n").map_or("", |(_, moves)| moves);
            let game = PgnGame {
                fen,
                san: san_moves(movetext),
                white_points,
            };
            Some((tag("Date").unwrap_or("").to_string(), game))
        })
        .collect()
}

/// The moves of a movetext: everything but comments (`{...}`), move numbers (`12.`, `12...`)
/// and the result.
fn san_moves(movetext: &str) -> Vec<String> {
    let mut without_comments = String::with_capacity(movetext.len());
    let mut depth = 0;
    for c in movetext.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ if depth == 0 => without_comments.push(c),
            _ => {}
        }
    }
    without_comments
        .split_whitespace()
        .filter(|token| !["1-0", "0-1", "1/2-1/2", "*"].contains(token))
        .map(|token| token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.'))
        .filter(|token| !token.is_empty())
        .map(String::from)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO_GAMES: &str = "[Event \"m\"]\n[Date \"2026.11.20\"]\n[Result \"0-1\"]\n\
        [FEN \"r1bqkb1r/1p3ppp/p1n2n2/3p4/8/1NNB4/PPP2PPP/R1BQK2R b KQkq - 0 9\"]\n[SetUp \"1\"]\n\n\
        9... O-O {-0.56/8 0.081s} 10. Be3 {+0.05/7 0.046s}\nBd6 {+0.08/9 0.108s} 0-1\n\n\
        [Event \"m\"]\n[Date \"2026.12.01\"]\n[Result \"1/2-1/2\"]\n\n\
        1. e4 {+0.30/10 0.1s} e5 {-0.2/9 0.1s} 1/2-1/2\n";

    #[test]
    fn games_read_with_their_start_moves_result_and_date() {
        let games = parse_games(TWO_GAMES);
        assert_eq!(games.len(), 2);
        let (date, first) = &games[0];
        assert_eq!(date, "2026.11.20");
        assert!(first.fen.starts_with("r1bqkb1r/1p3ppp"));
        assert_eq!(first.san, ["O-O", "Be3", "Bd6"]);
        assert_eq!(first.white_points, 0.0);
        let (_, second) = &games[1];
        assert!(second.fen.starts_with("rnbqkbnr/pppppppp"));
        assert_eq!(second.san, ["e4", "e5"]);
        assert_eq!(second.white_points, 0.5);
    }

    #[test]
    fn games_after_the_date_or_without_a_result_are_left_out() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let unfinished = TWO_GAMES.replace("1/2-1/2\"]", "*\"]");
        std::fs::write(dir.path().join("a.pgn"), &unfinished).expect("written");
        std::fs::write(dir.path().join("b.pgn"), TWO_GAMES).expect("written");
        std::fs::write(dir.path().join("b.json"), "{}").expect("written");
        let games = stored_games(dir.path(), "2026.11.30").expect("read");
        // a.pgn's first game, then b.pgn's first: the second games are too late.
        assert_eq!(games.len(), 2);
        let games = stored_games(dir.path(), "2026.12.01").expect("read");
        // Now b.pgn's second game too; a.pgn's second has no result.
        assert_eq!(games.len(), 3);
    }
}
