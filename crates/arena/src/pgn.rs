//! Games as PGN (Portable Game Notation, Steven J. Edwards, 1994), readable by any chess program.
//!
//! Each game carries the seven standard tags, the opening as `FEN`/`SetUp`, `TimeControl`,
//! `Termination` (the standard's coarse value: normal, adjudication, time forfeit, ...) and
//! `TerminationDetails` (the arena's precise reason), `PlyCount`, and after each move a comment
//! with the mover's score, depth and time, in cutechess-cli's form: `{+0.35/12 0.512s}`.

use crate::game::Game;
use crate::spec::TimeControl;
use crate::uci::Score;
use cozy_chess::Color;
use std::fmt::Write;

/// The tags shared by all games of a match.
#[derive(Debug, Clone)]
pub struct PgnHeader {
    pub event: String,
    pub site: String,
    /// `YYYY.MM.DD`.
    pub date: String,
    pub time_control: TimeControl,
}

/// PGN string values escape backslashes and quotes (PGN spec 7).
fn quoted(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A score as cutechess-cli writes it in PGN comments: pawns with a sign, or `+M5` / `-M3`.
fn score_text(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!(
            "{}{:.2}",
            if cp >= 0 { "+" } else { "-" },
            cp.unsigned_abs() as f64 / 100.0
        ),
        Score::Mate(n) => format!("{}M{}", if n > 0 { "+" } else { "-" }, n.unsigned_abs()),
    }
}

/// One game in PGN; `round` is written as given (the arena uses `pair.game`, e.g. `12.2`).
pub fn write_game(game: &Game, header: &PgnHeader, round: &str) -> String {
    let board = game.opening.board();
    let time_control = match header.time_control {
        TimeControl::Clock { .. } => header.time_control.to_string(),
        _ => "-".to_string(),
    };
    let tags = [
        ("Event", header.event.clone()),
        ("Site", header.site.clone()),
        ("Date", header.date.clone()),
        ("Round", round.to_string()),
        ("White", game.white.clone()),
        ("Black", game.black.clone()),
        ("Result", game.result.pgn().to_string()),
        ("FEN", game.opening.fen.clone()),
        ("SetUp", "1".to_string()),
        ("TimeControl", time_control),
        ("ArenaLimit", header.time_control.to_string()),
        ("Termination", game.termination.pgn_tag().to_string()),
        ("TerminationDetails", game.termination.describe()),
        ("PlyCount", game.moves.len().to_string()),
    ];
    let mut text = String::new();
    for (name, value) in tags {
        let _ = writeln!(text, "[{name} \"{}\"]", quoted(&value));
    }
    text.push('\n');

    let mut tokens = Vec::new();
    let mut number = board.fullmove_number();
    let mut side = board.side_to_move();
    if side == Color::Black {
        tokens.push(format!("{number}..."));
    }
    for played in &game.moves {
        if side == Color::White {
            tokens.push(format!("{number}."));
        }
        tokens.push(played.san.clone());
        let mut comment = played.score.map(score_text).unwrap_or_default();
        if let Some(depth) = played.depth.filter(|_| played.score.is_some()) {
            let _ = write!(comment, "/{depth}");
        }
        let _ = write!(
            comment,
            "{}{:.3}s",
            if comment.is_empty() { "" } else { " " },
            played.elapsed_ms as f64 / 1000.0
        );
        tokens.push(format!("{{{comment}}}"));
        if side == Color::Black {
            number += 1;
        }
        side = !side;
    }
    tokens.push(format!("{{{}}}", game.termination.describe()));
    tokens.push(game.result.pgn().to_string());
    wrap(&tokens, &mut text, 79);
    text.push_str("\n\n");
    text
}

/// Joins tokens with spaces into lines of at most `width` characters (PGN export format, 8.2.2).
fn wrap(tokens: &[String], out: &mut String, width: usize) {
    let mut line_len = 0;
    for token in tokens {
        if line_len > 0 && line_len + 1 + token.len() > width {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(token);
        line_len += token.len();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_written_in_pawns_or_mates() {
        assert_eq!(score_text(Score::Cp(35)), "+0.35");
        assert_eq!(score_text(Score::Cp(-120)), "-1.20");
        assert_eq!(score_text(Score::Cp(-5)), "-0.05");
        assert_eq!(score_text(Score::Mate(5)), "+M5");
        assert_eq!(score_text(Score::Mate(-3)), "-M3");
    }

    #[test]
    fn long_movetext_wraps_without_splitting_tokens() {
        let tokens: Vec<String> = (0..60).map(|i| format!("tok{i}")).collect();
        let mut out = String::new();
        wrap(&tokens, &mut out, 20);
        assert!(out.lines().all(|l| l.len() <= 20));
        assert_eq!(out.split_whitespace().count(), 60);
    }
}
