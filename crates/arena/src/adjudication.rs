//! Ending a decided game early, by the engines' own scores.
//!
//! Fast games between engines are long: they shuffle in dead-drawn endings and play on in lost
//! positions. Testing frameworks end such games by adjudication, with thresholds tight enough that
//! the result almost never changes. We use fishtest's cutechess-cli settings
//! (`-draw movenumber=34 movecount=8 score=20 -resign movecount=3 score=400 twosided=true`):
//!
//! - **draw**: from move 34 on (the board's move number, so the opening's moves count), the last
//!   8 plies (4 by each engine) all came with a score of at most 20 cp either way;
//! - **resign**: over the last 3 moves of each engine (6 plies), one engine reported at most −400 cp
//!   on every move and its opponent at least +400 cp on every move: both agree who is winning.
//!
//! A move without a score breaks either streak. Mate scores count as beyond any centipawn bound.

use crate::uci::Score;
use cozy_chess::Color;
use serde::{Deserialize, Serialize};

/// Draw adjudication: from `move_number` on, `plies` consecutive plies with |score| ≤ `score_cp`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawRule {
    pub move_number: u16,
    pub plies: usize,
    pub score_cp: i32,
}

/// Resign adjudication: for `moves` moves of each engine, the loser ≤ −`score_cp` and the winner
/// ≥ +`score_cp` (both engines agree).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResignRule {
    pub moves: usize,
    pub score_cp: i32,
}

/// Which adjudications a match uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Adjudication {
    pub draw: Option<DrawRule>,
    pub resign: Option<ResignRule>,
}

impl Adjudication {
    /// Fishtest's thresholds (see the module documentation).
    pub const FISHTEST: Adjudication = Adjudication {
        draw: Some(DrawRule {
            move_number: 34,
            plies: 8,
            score_cp: 20,
        }),
        resign: Some(ResignRule {
            moves: 3,
            score_cp: 400,
        }),
    };

    /// Every game is played to its end by the rules.
    pub const NONE: Adjudication = Adjudication {
        draw: None,
        resign: None,
    };
}

/// How an adjudication ended a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Adjudicated {
    Draw,
    /// The side that resigned.
    Resign(Color),
}

/// Follows the scores of a game and says when an adjudication rule fires.
#[derive(Debug, Clone)]
pub struct Adjudicator {
    rules: Adjudication,
    /// Per ply: who moved, and their score in centipawns from their own side.
    scores: Vec<(Color, Option<i32>)>,
}

impl Adjudicator {
    pub fn new(rules: Adjudication) -> Self {
        Adjudicator {
            rules,
            scores: Vec::new(),
        }
    }

    /// Records a move by `mover` with the score it reported, `move_number` being the board's move
    /// number after the move; returns the adjudication if one fires now.
    pub fn after_move(
        &mut self,
        mover: Color,
        score: Option<Score>,
        move_number: u16,
    ) -> Option<Adjudicated> {
        self.scores.push((mover, score.map(Score::as_cp)));
        if let Some(rule) = self.rules.resign
            && let Some(loser) = self.resign_loser(rule)
        {
            return Some(Adjudicated::Resign(loser));
        }
        if let Some(rule) = self.rules.draw
            && move_number >= rule.move_number
            && self.last(rule.plies).is_some_and(|last| {
                last.iter()
                    .all(|(_, s)| s.is_some_and(|s| s.abs() <= rule.score_cp))
            })
        {
            return Some(Adjudicated::Draw);
        }
        None
    }

    /// The last `n` plies, if the game has that many.
    fn last(&self, n: usize) -> Option<&[(Color, Option<i32>)]> {
        (n > 0 && self.scores.len() >= n).then(|| &self.scores[self.scores.len() - n..])
    }

    /// The side both engines agree is lost over the last `moves` moves of each, if any.
    fn resign_loser(&self, rule: ResignRule) -> Option<Color> {
        let last = self.last(2 * rule.moves)?;
        let all = |side: Color, pred: &dyn Fn(i32) -> bool| {
            last.iter()
                .filter(|(c, _)| *c == side)
                .all(|(_, s)| s.is_some_and(pred))
        };
        [Color::White, Color::Black].into_iter().find(|&loser| {
            all(loser, &|s| s <= -rule.score_cp) && all(!loser, &|s| s >= rule.score_cp)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays alternating moves starting with White from move `first_move`; returns the first
    /// adjudication and the ply (from 1) it fired on.
    fn run(
        rules: Adjudication,
        first_move: u16,
        scores: &[Option<i32>],
    ) -> Option<(Adjudicated, usize)> {
        let mut adjudicator = Adjudicator::new(rules);
        for (ply, score) in scores.iter().enumerate() {
            let mover = if ply % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            let move_number = first_move + (ply as u16).div_ceil(2);
            if let Some(end) = adjudicator.after_move(mover, score.map(Score::Cp), move_number) {
                return Some((end, ply + 1));
            }
        }
        None
    }

    #[test]
    fn quiet_scores_after_move_34_draw_on_the_eighth_ply() {
        let quiet = [
            Some(5),
            Some(-10),
            Some(0),
            Some(20),
            Some(-20),
            Some(3),
            Some(0),
            Some(1),
        ];
        assert_eq!(
            run(Adjudication::FISHTEST, 40, &quiet),
            Some((Adjudicated::Draw, 8))
        );
        // Before move 34 the same scores do nothing.
        assert_eq!(run(Adjudication::FISHTEST, 10, &quiet), None);
        // One score of 21 cp or a move without a score breaks the streak.
        let mut loud = quiet;
        loud[7] = Some(21);
        assert_eq!(run(Adjudication::FISHTEST, 40, &loud), None);
        loud[7] = None;
        assert_eq!(run(Adjudication::FISHTEST, 40, &loud), None);
    }

    #[test]
    fn resignation_needs_both_engines_to_agree() {
        // White sees itself lost, Black sees itself winning, for three moves each.
        let agreed = [
            Some(-450),
            Some(500),
            Some(-600),
            Some(410),
            Some(-800),
            Some(900),
        ];
        assert_eq!(
            run(Adjudication::FISHTEST, 20, &agreed),
            Some((Adjudicated::Resign(Color::White), 6))
        );
        // If Black thinks it is only a little better, nobody resigns.
        let disputed = [
            Some(-450),
            Some(500),
            Some(-600),
            Some(390),
            Some(-800),
            Some(900),
        ];
        assert_eq!(run(Adjudication::FISHTEST, 20, &disputed), None);
        // Mate scores count as winning.
        let mate = [
            Some(700),
            Some(-100_000 + 3),
            Some(800),
            Some(-100_000 + 2),
            Some(900),
            Some(-99_999),
        ];
        assert_eq!(
            run(Adjudication::FISHTEST, 20, &mate),
            Some((Adjudicated::Resign(Color::Black), 6))
        );
    }

    #[test]
    fn no_rules_no_adjudication() {
        let lost = [Some(-900); 40];
        assert_eq!(run(Adjudication::NONE, 40, &lost), None);
    }
}
