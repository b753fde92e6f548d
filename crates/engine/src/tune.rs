//! Texel's tuning method (chapter 19): fit Evaluation II's weights to the results of games.
//!
//! Peter Österlund's idea for his engine Texel (talkchess, 2014; Chess Programming Wiki, "Texel's
//! Tuning Method"): a position's evaluation predicts the game's result through a logistic curve,
//! `expected = 1 / (1 + 10^(−K × eval / 400))`, so weights that predict the results of many
//! games better, in mean squared error, are better weights. `K` is fitted first, with the
//! weights as they are, and then kept fixed.
//!
//! Evaluation II is linear in its weights before it is blended and scaled
//! ([`crate::eval2::Features`]), so a position is stored as the few weights it uses and their
//! counts (White's minus Black's), and the gradient of the error is exact and cheap: this is
//! the "sparse, analytic gradient" form of Andrew Grant's "Evaluation & Tuning in Chess
//! Engines" (2020), with Adam (Kingma and Ba, 2014) taking the steps. The king danger table and
//! the endgame scale are not linear in the weights: they are taken as constants of each
//! position, and the danger table is not tuned. M13's king safety is not linear either, but
//! its inputs are weights: each side's sum is kept apart, and the gradient follows its curve
//! by the chain rule ([`king_safety_cost_and_slope`]). M20's complexity is the third part that
//! is not linear: its few inputs are kept with each position, and it moves the endgame value
//! last ([`complexity_and_slopes`]).
//!
//! Everything here is deterministic: the data is split in fixed halves for two threads and
//! their sums are added in a fixed order, so a seed and a data file give the same weights on
//! every run.

use crate::eval::{MAX_PHASE, Tapered};
use crate::eval2::{
    self, COMPLEXITY, EvalWeights, KING_SAFETY, KingDanger, NORMAL_SCALE, NUM_WEIGHTS,
};

/// How many inputs M20's complexity has.
const COMPLEXITY_INPUTS: usize = NUM_WEIGHTS - COMPLEXITY;
use crate::position::Position;
use crate::square::Color;

/// One labelled position, as the tuner keeps it.
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// Where its weights are in [`TuningSet`]'s sparse arrays.
    start: u32,
    len: u16,
    /// Where its king safety inputs are (M13): White's attack's, then Black's.
    safety_start: u32,
    safety_len: [u8; 2],
    phase: u8,
    /// The scale when the evaluation favours White, and when it favours Black.
    scales: [u8; 2],
    /// The king danger, White's minus Black's (constant: the table is not tuned).
    danger: Tapered,
    /// M20's complexity inputs, one count each (small: sixteen pawns at most).
    complexity: [i8; COMPLEXITY_INPUTS],
    /// White's points in the game (1, 0.5 or 0), or the expected score a label blended from
    /// the result and a teacher's verdict (M10), from 0 to 1.
    result: f32,
}

/// Labelled positions in sparse form: for each, the weights it uses and how often (White's
/// count minus Black's), with the constants of its evaluation.
#[derive(Clone, Debug, Default)]
pub struct TuningSet {
    entries: Vec<Entry>,
    weight: Vec<u16>,
    count: Vec<i16>,
    /// M13's king safety inputs, kept per attacking side: they are not linear.
    safety_weight: Vec<u16>,
    safety_count: Vec<i16>,
}

impl TuningSet {
    /// Reads lines of `FEN;result` (White's score: 1, 0.5 or 0 from a game, or any expected
    /// score from 0 to 1 when a teacher helped label it), as `cargo xtask datagen` writes them.
    /// A bad line is an error naming it.
    pub fn parse(text: &str) -> Result<TuningSet, String> {
        TuningSet::parse_with(text, &eval2::KING_DANGER)
    }

    /// [`TuningSet::parse`], with each position's constant king danger computed with `danger`
    /// (M6 compares the loss with and without its safe checks).
    pub fn parse_with(text: &str, danger: &KingDanger) -> Result<TuningSet, String> {
        let mut set = TuningSet::default();
        for (number, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let bad = |why: String| format!("line {}: {why}: {line}", number + 1);
            let (fen, result) = line.rsplit_once(';').ok_or_else(|| bad("no `;`".into()))?;
            let result: f32 = result
                .trim()
                .parse()
                .map_err(|_| bad("the result is not a number".into()))?;
            if !(0.0..=1.0).contains(&result) {
                return Err(bad("the result must be a score from 0 to 1".into()));
            }
            let pos = Position::from_fen(fen).map_err(|e| bad(e.to_string()))?;
            set.push_with(&pos, result, danger);
        }
        Ok(set)
    }

    /// Adds `pos`, whose game White scored `result` in.
    pub fn push(&mut self, pos: &Position, result: f32) {
        self.push_with(pos, result, &eval2::KING_DANGER);
    }

    /// Adds `pos` with its king danger computed with `danger`.
    pub fn push_with(&mut self, pos: &Position, result: f32, danger: &KingDanger) {
        let features = eval2::features_with(pos, danger);
        let start = self.weight.len() as u32;
        let (linear, rest) = features.counts.split_at(KING_SAFETY);
        let (safety, complexity) = rest.split_at(COMPLEXITY - KING_SAFETY);
        for (i, &[white, black]) in linear.iter().enumerate() {
            if white != black {
                self.weight.push(i as u16);
                self.count.push((white - black) as i16);
            }
        }
        let safety_start = self.safety_weight.len() as u32;
        let mut safety_len = [0u8; 2];
        for (side, len) in safety_len.iter_mut().enumerate() {
            for (i, counts) in safety.iter().enumerate() {
                if counts[side] != 0 {
                    self.safety_weight.push((KING_SAFETY + i) as u16);
                    self.safety_count.push(counts[side] as i16);
                    *len += 1;
                }
            }
        }
        self.entries.push(Entry {
            start,
            len: (self.weight.len() as u32 - start) as u16,
            safety_start,
            safety_len,
            phase: features.phase as u8,
            scales: features.scales.map(|s| s as u8),
            danger: features.king_danger[0] - features.king_danger[1],
            complexity: std::array::from_fn(|i| complexity[i][0] as i8),
            result,
        });
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The sparse weights and counts of entry `e`.
    fn terms(&self, e: &Entry) -> impl Iterator<Item = (usize, i32)> + '_ {
        let range = e.start as usize..e.start as usize + e.len as usize;
        self.weight[range.clone()]
            .iter()
            .zip(&self.count[range])
            .map(|(&w, &c)| (w as usize, c as i32))
    }

    /// The king safety inputs of entry `e` for the attack by `side` (0 White, 1 Black).
    fn safety_terms(&self, e: &Entry, side: usize) -> impl Iterator<Item = (usize, i32)> + '_ {
        let skip = if side == 0 {
            0
        } else {
            e.safety_len[0] as usize
        };
        let start = e.safety_start as usize + skip;
        let range = start..start + e.safety_len[side] as usize;
        self.safety_weight[range.clone()]
            .iter()
            .zip(&self.safety_count[range])
            .map(|(&w, &c)| (w as usize, c as i32))
    }

    /// The engine's own evaluation of entry `e` with `weights`, White's view, in integers
    /// exactly as the search computes it.
    fn engine_eval(&self, e: &Entry, weights: &EvalWeights) -> i32 {
        let attack = |side| {
            let sum = self
                .safety_terms(e, side)
                .fold(Tapered::default(), |sum, (w, c)| sum + weights.pairs[w] * c);
            eval2::king_safety_penalty(sum)
        };
        let white = self
            .terms(e)
            .fold(e.danger, |sum, (w, c)| sum + weights.pairs[w] * c)
            + attack(0)
            - attack(1);
        let complexity: i32 = (e.complexity.iter().enumerate())
            .map(|(i, &c)| weights.pairs[COMPLEXITY + i].eg * i32::from(c))
            .sum();
        let white = eval2::with_complexity(white, complexity);
        let scales = e.scales.map(i32::from);
        eval2::finish(white, i32::from(e.phase), scales, Color::White)
    }
}

// ANCHOR: sigmoid
/// The result a position's evaluation predicts: 1 a sure win for White, 0 a sure loss. `k`
/// says how many centipawns are worth how much certainty; it is fitted to the data.
pub fn expected_score(eval: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}
// ANCHOR_END: sigmoid

// ANCHOR: loss
/// The mean squared error between the results and what the engine's evaluation with `weights`
/// predicts: the number the tuner makes small.
pub fn loss(set: &TuningSet, weights: &EvalWeights, k: f64) -> f64 {
    let sum: f64 = set
        .entries
        .iter()
        .map(|e| {
            let predicted = expected_score(f64::from(set.engine_eval(e, weights)), k);
            (f64::from(e.result) - predicted).powi(2)
        })
        .sum();
    sum / set.len().max(1) as f64
}
// ANCHOR_END: loss

/// The `K` that makes the loss of `weights` on `set` smallest: a golden-section search on
/// [0.1, 4] (the loss is smooth with one minimum in K), to six decimals.
pub fn fit_k(set: &TuningSet, weights: &EvalWeights) -> f64 {
    let golden = (5f64.sqrt() - 1.0) / 2.0;
    let (mut low, mut high) = (0.1f64, 4.0f64);
    while high - low > 1e-6 {
        let a = high - golden * (high - low);
        let b = low + golden * (high - low);
        if loss(set, weights, a) < loss(set, weights, b) {
            high = b;
        } else {
            low = a;
        }
    }
    ((low + high) / 2.0 * 1e6).round() / 1e6
}

/// Real-valued weights while tuning: `[mg, eg]` per slot.
type RealWeights = Vec<[f64; 2]>;

/// `weights` as the tuner holds them.
fn real_weights(weights: &EvalWeights) -> RealWeights {
    weights
        .pairs
        .iter()
        .map(|p| [f64::from(p.mg), f64::from(p.eg)])
        .collect()
}

// ANCHOR: gradient
/// The loss of `set` and its gradient by every weight, with real-valued weights `w`. For one
/// position, with `E` the scaled, blended evaluation and `p = σ(E)` its prediction:
/// `d(r − p)²/dE = −2 (r − p) p (1 − p) K ln 10 / 400`, and `dE/dw` is the weight's count times
/// the phase's share (`phase / 24` for the middlegame value, the rest for the endgame's) times
/// the scale, and for an endgame value, times how M20's complexity passes it on.
fn loss_and_gradient(
    set: &TuningSet,
    entries: &[Entry],
    w: &RealWeights,
    k: f64,
) -> (f64, RealWeights) {
    let mut gradient = vec![[0.0; 2]; NUM_WEIGHTS];
    let mut sum = 0.0;
    let slope = k * std::f64::consts::LN_10 / 400.0;
    for e in entries {
        let (mut mg, mut eg) = (f64::from(e.danger.mg), f64::from(e.danger.eg));
        for (i, c) in set.terms(e) {
            mg += w[i][0] * f64::from(c);
            eg += w[i][1] * f64::from(c);
        }
        // M13's king safety is not linear: each side's attack adds its curve's value, and its
        // inputs pull on the gradient by the curve's slope there.
        let slopes = [0, 1].map(|side| {
            let (cost, slope) = king_safety_cost_and_slope(set, e, side, w);
            mg += cost[0];
            eg += cost[1];
            slope
        });
        let complexity = complexity_and_slopes(e, eg, w);
        eg = complexity.eg;
        let mg_share = f64::from(e.phase) / f64::from(MAX_PHASE);
        let blended = mg * mg_share + eg * (1.0 - mg_share);
        let scale = f64::from(e.scales[usize::from(blended < 0.0)]) / f64::from(NORMAL_SCALE);
        let predicted = expected_score(blended * scale, k);
        let error = f64::from(e.result) - predicted;
        sum += error * error;
        let d_eval = -2.0 * error * predicted * (1.0 - predicted) * slope * scale;
        let (d_mg, d_eg) = (d_eval * mg_share, d_eval * (1.0 - mg_share));
        for (i, c) in set.terms(e) {
            gradient[i][0] += d_mg * f64::from(c);
            gradient[i][1] += d_eg * complexity.slope_by_eg * f64::from(c);
        }
        for (side, [slope_mg, slope_eg]) in slopes.into_iter().enumerate() {
            for (i, c) in set.safety_terms(e, side) {
                gradient[i][0] += d_mg * slope_mg * f64::from(c);
                gradient[i][1] += d_eg * complexity.slope_by_eg * slope_eg * f64::from(c);
            }
        }
        for (i, &c) in e.complexity.iter().enumerate() {
            gradient[COMPLEXITY + i][1] += d_eg * complexity.slope_by_input * f64::from(c);
        }
    }
    (sum, gradient)
}
// ANCHOR_END: gradient

// ANCHOR: complexity_gradient
/// An endgame value after M20's complexity, and how it moves with what it came from.
struct Complicated {
    /// The endgame value `eg + sign(eg) × max(complexity, −|eg|)`.
    eg: f64,
    /// Its slope by the endgame value before: 1, or 0 where the complexity took it to zero.
    slope_by_eg: f64,
    /// Its slope by a unit more of the complexity: the endgame value's sign, or 0 where the
    /// complexity took it to zero. Each input's gradient is this times the input's count.
    slope_by_input: f64,
}

/// M20's complexity in the tuner: the endgame value `eg` of entry `e` (White's view, every
/// other term counted) after [`eval2::with_complexity`], with the weights `w`.
fn complexity_and_slopes(e: &Entry, eg: f64, w: &RealWeights) -> Complicated {
    let complexity: f64 = (e.complexity.iter().enumerate())
        .map(|(i, &c)| w[COMPLEXITY + i][1] * f64::from(c))
        .sum();
    let sign = if eg > 0.0 {
        1.0
    } else if eg < 0.0 {
        -1.0
    } else {
        0.0
    };
    if complexity > -eg.abs() {
        Complicated {
            eg: eg + sign * complexity,
            slope_by_eg: 1.0,
            slope_by_input: sign,
        }
    } else {
        Complicated {
            eg: 0.0,
            slope_by_eg: 0.0,
            slope_by_input: 0.0,
        }
    }
}
// ANCHOR_END: complexity_gradient

// ANCHOR: king_safety_gradient
/// M13's king safety in the tuner: for the attack by `side` (0 White's, 1 Black's) in entry
/// `e`, its cost through [`eval2::king_safety_penalty`]'s curve (White's view), and the curve's
/// slope at its sum, by which the gradient multiplies each input's count (the chain rule). A
/// unit more of the sum costs `2 × sum / 720` in the middlegame, `1 / 20` in the endgame, and
/// nothing where the sum is at or below zero.
fn king_safety_cost_and_slope(
    set: &TuningSet,
    e: &Entry,
    side: usize,
    w: &RealWeights,
) -> ([f64; 2], [f64; 2]) {
    let sign = if side == 0 { 1.0 } else { -1.0 };
    let mut sum = [0.0; 2];
    for (i, c) in set.safety_terms(e, side) {
        sum[0] += w[i][0] * f64::from(c);
        sum[1] += w[i][1] * f64::from(c);
    }
    let [mg, eg] = sum.map(|s: f64| s.max(0.0));
    let cost = [sign * mg * mg / 720.0, sign * eg / 20.0];
    let endgame_slope = if eg > 0.0 { sign / 20.0 } else { 0.0 };
    (cost, [sign * 2.0 * mg / 720.0, endgame_slope])
}
// ANCHOR_END: king_safety_gradient

/// The loss and its gradient, averaged over the whole set: the set is cut in two fixed halves,
/// one per thread, and their sums are added in the same order every time.
fn mean_loss_and_gradient(set: &TuningSet, w: &RealWeights, k: f64) -> (f64, RealWeights) {
    let half = set.entries.len().div_ceil(2);
    let parts: Vec<(f64, RealWeights)> = std::thread::scope(|scope| {
        let workers: Vec<_> = set
            .entries
            .chunks(half.max(1))
            .map(|chunk| scope.spawn(move || loss_and_gradient(set, chunk, w, k)))
            .collect();
        workers
            .into_iter()
            .map(|h| h.join().expect("a gradient thread does not panic"))
            .collect()
    });
    let n = set.len().max(1) as f64;
    let mut total = (0.0, vec![[0.0; 2]; NUM_WEIGHTS]);
    for (sum, gradient) in parts {
        total.0 += sum;
        for (t, g) in total.1.iter_mut().zip(gradient) {
            t[0] += g[0];
            t[1] += g[1];
        }
    }
    total.0 /= n;
    for t in &mut total.1 {
        t[0] /= n;
        t[1] /= n;
    }
    total
}

// ANCHOR: adam
/// Adam (Kingma and Ba, 2014): each weight's step is the running mean of its gradient divided
/// by the running root mean square, so weights seen in few positions (a rook's corner square)
/// move as readily as weights seen in all (a pawn's value), and noise averages out.
#[derive(Debug)]
struct Adam {
    rate: f64,
    mean: RealWeights,
    square: RealWeights,
    steps: i32,
}

impl Adam {
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;
    const EPSILON: f64 = 1e-8;

    fn new(rate: f64) -> Adam {
        Adam {
            rate,
            mean: vec![[0.0; 2]; NUM_WEIGHTS],
            square: vec![[0.0; 2]; NUM_WEIGHTS],
            steps: 0,
        }
    }

    fn step(&mut self, weights: &mut RealWeights, gradient: &RealWeights) {
        self.steps += 1;
        let unbias1 = 1.0 - Self::BETA1.powi(self.steps);
        let unbias2 = 1.0 - Self::BETA2.powi(self.steps);
        for i in 0..NUM_WEIGHTS {
            for phase in 0..2 {
                let g = gradient[i][phase];
                let m = &mut self.mean[i][phase];
                let v = &mut self.square[i][phase];
                *m = Self::BETA1 * *m + (1.0 - Self::BETA1) * g;
                *v = Self::BETA2 * *v + (1.0 - Self::BETA2) * g * g;
                let step = self.rate * (*m / unbias1) / ((*v / unbias2).sqrt() + Self::EPSILON);
                weights[i][phase] -= step;
            }
        }
    }
}
// ANCHOR_END: adam

/// One epoch's losses, with the weights rounded as the engine would use them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochLoss {
    pub epoch: usize,
    pub train: f64,
    pub held_out: f64,
}

/// How to tune.
#[derive(Clone, Debug)]
pub struct TuneSettings {
    pub k: f64,
    pub epochs: usize,
    pub rate: f64,
    /// Report the rounded weights' losses every this many epochs (and after the last).
    pub report_every: usize,
    /// The weights below this index keep their starting values (0: every weight is tuned;
    /// [`eval2::PASSED_RANK`]: material and piece-square tables stay as they are).
    pub first_tuned: usize,
    /// These weights keep their starting values too (none: every weight is tuned). M14
    /// measures what its new terms add by tuning every other weight with them held at zero.
    pub kept: Vec<std::ops::Range<usize>>,
    /// The price of moving a weight away from its starting value: this much loss per pawn of
    /// distance, squared ([`drift_penalty`]). 0 lets every weight go where the data sends it.
    pub l2: f64,
}

// ANCHOR: drift_penalty
/// L2 regularisation towards the hand-set weights ("ridge regression"; the Chess Programming
/// Wiki's *Automated Tuning*): the tuner pays `l2` for every pawn², so a weight moves only as
/// far as the whole data set pays for. A weight seen in a few hundred positions of a few dozen
/// games (a queen with five squares to go to) gains little loss by fitting those games and stays
/// near its hand-set value; a weight seen everywhere moves as far as before. Returns the penalty's
/// gradient, to be added to the loss's.
fn drift_penalty(weights: &RealWeights, start: &RealWeights, l2: f64) -> RealWeights {
    weights
        .iter()
        .zip(start)
        .map(|(w, s)| [0, 1].map(|phase| 2.0 * l2 * (w[phase] - s[phase]) / (100.0 * 100.0)))
        .collect()
}
// ANCHOR_END: drift_penalty

// ANCHOR: tune
/// Tunes every weight of `start` on `train`, full batch, for `settings.epochs` steps of Adam,
/// each weight held towards its start by `settings.l2`, and returns them rounded to whole
/// centipawns. `report` hears the losses of the rounded
/// weights on both sets every `report_every` epochs: the held-out loss is watched, never
/// trained on.
pub fn tune(
    train: &TuningSet,
    held_out: &TuningSet,
    start: &EvalWeights,
    settings: TuneSettings,
    report: &mut dyn FnMut(EpochLoss),
) -> EvalWeights {
    let start = real_weights(start);
    let mut weights = start.clone();
    let mut adam = Adam::new(settings.rate);
    for epoch in 1..=settings.epochs {
        let (_, mut gradient) = mean_loss_and_gradient(train, &weights, settings.k);
        for (g, p) in gradient
            .iter_mut()
            .zip(drift_penalty(&weights, &start, settings.l2))
        {
            g[0] += p[0];
            g[1] += p[1];
        }
        for g in &mut gradient[..settings.first_tuned] {
            *g = [0.0; 2];
        }
        for kept in &settings.kept {
            for g in &mut gradient[kept.clone()] {
                *g = [0.0; 2];
            }
        }
        adam.step(&mut weights, &gradient);
        if epoch % settings.report_every.max(1) == 0 || epoch == settings.epochs {
            let rounded = rounded(&weights);
            report(EpochLoss {
                epoch,
                train: loss(train, &rounded, settings.k),
                held_out: loss(held_out, &rounded, settings.k),
            });
        }
    }
    rounded(&weights)
}
// ANCHOR_END: tune

fn rounded(weights: &RealWeights) -> EvalWeights {
    let mut out = eval2::WEIGHTS.clone();
    for (pair, w) in out.pairs.iter_mut().zip(weights) {
        *pair = Tapered {
            mg: w[0].round() as i32,
            eg: w[1].round() as i32,
        };
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set_of(lines: &str) -> TuningSet {
        TuningSet::parse(lines).expect("valid lines")
    }

    #[test]
    fn the_engine_eval_of_an_entry_is_evaluation_two() {
        let fens = [
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "8/5k2/8/3PP3/8/8/5K2/8 b - - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            let set = set_of(&format!("{fen};0.5"));
            let white = set.engine_eval(&set.entries[0], &eval2::WEIGHTS);
            let stm = eval2::evaluate_with(&pos, &eval2::WEIGHTS, &eval2::KING_DANGER);
            let expected = if pos.side_to_move() == Color::White {
                stm
            } else {
                -stm
            };
            assert_eq!(white, expected, "{fen}");
        }
    }

    /// Positions where a side attacks the other's king with two pieces or more.
    const KING_ATTACKS: [&str; 3] = [
        "r1bq1rk1/pppn1ppp/4p3/3pP1N1/1b1P2Q1/2N5/PPP2PPP/R1B1KB1R w KQ - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "6k1/5ppp/8/8/8/5q2/5PnP/6K1 b - - 0 1",
    ];

    #[test]
    fn the_engine_eval_of_an_entry_is_evaluation_two_with_the_learnt_king_safety() {
        let weights = eval2::WeightSet::Teacher.weights();
        let danger = &eval2::KING_SAFETY_LEARNT;
        let mut attacked = 0;
        for fen in KING_ATTACKS {
            let pos = Position::from_fen(fen).unwrap();
            let set = TuningSet::parse_with(&format!("{fen};0.5"), danger).unwrap();
            let e = &set.entries[0];
            attacked += usize::from(e.safety_len != [0, 0]);
            let white = set.engine_eval(e, weights);
            let stm = eval2::evaluate_with(&pos, weights, danger);
            let expected = if pos.side_to_move() == Color::White {
                stm
            } else {
                -stm
            };
            assert_eq!(white, expected, "{fen}");
        }
        assert_eq!(attacked, KING_ATTACKS.len(), "every position has an attack");
    }

    #[test]
    fn the_analytic_gradient_of_the_learnt_king_safety_matches_a_numerical_one() {
        let text: Vec<String> = KING_ATTACKS.iter().map(|f| format!("{f};0")).collect();
        let set = TuningSet::parse_with(&text.join("\n"), &eval2::KING_SAFETY_LEARNT).unwrap();
        // Endgame weights above zero, so no sum sits on the penalty's kink at zero.
        let w: RealWeights = eval2::WEIGHTS
            .pairs
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let eg = if i >= KING_SAFETY { 7.0 } else { 0.0 };
                [f64::from(p.mg), f64::from(p.eg) + eg]
            })
            .collect();
        let (_, gradient) = loss_and_gradient(&set, &set.entries, &w, 1.0);
        let at = |w: &RealWeights| loss_and_gradient(&set, &set.entries, w, 1.0).0;
        for i in [eval2::KS_ZONE_HITS + 3, eval2::KS_BASE, eval2::KS_ZONE_HITS] {
            for phase in [0, 1] {
                let (mut up, mut down) = (w.clone(), w.clone());
                up[i][phase] += 0.01;
                down[i][phase] -= 0.01;
                let numeric = (at(&up) - at(&down)) / 0.02;
                let analytic = gradient[i][phase];
                assert!(analytic != 0.0, "weight {i}/{phase} is used");
                assert!(
                    (numeric - analytic).abs() < 1e-3 * analytic.abs(),
                    "weight {i}/{phase}: numeric {numeric}, analytic {analytic}"
                );
            }
        }
    }

    /// Endgames where the complexity inputs differ: pawns on one wing or both, a passed pawn,
    /// pawns alone, kings apart by file or by rank.
    const ENDGAMES: [&str; 4] = [
        "8/5pk1/8/P7/8/5K2/5PN1/6n1 w - - 0 1",
        "8/8/8/1p6/1P6/8/1k1K4/8 w - - 0 1",
        "6k1/5pp1/7p/8/8/6P1/5PKP/3R4 b - - 0 1",
        "8/2k5/8/2P5/8/8/6K1/8 w - - 0 1",
    ];

    /// M15's weights with a complexity that matters: a little more for each pawn, a lot less
    /// with pawns on one wing, and less overall.
    fn weights_with_complexity() -> EvalWeights {
        let mut weights = eval2::WeightSet::Eval4.weights().clone();
        for (i, eg) in [6, 10, 25, -20, 4, -60].into_iter().enumerate() {
            weights.pairs[COMPLEXITY + i] = Tapered { mg: 0, eg };
        }
        weights
    }

    #[test]
    fn the_engine_eval_of_an_entry_is_evaluation_two_with_a_complexity() {
        let weights = weights_with_complexity();
        let danger = &eval2::KING_SAFETY_LEARNT;
        for fen in ENDGAMES.iter().chain(&KING_ATTACKS) {
            let pos = Position::from_fen(fen).unwrap();
            let set = TuningSet::parse_with(&format!("{fen};0.5"), danger).unwrap();
            let white = set.engine_eval(&set.entries[0], &weights);
            let stm = eval2::evaluate_with(&pos, &weights, danger);
            let expected = if pos.side_to_move() == Color::White {
                stm
            } else {
                -stm
            };
            assert_eq!(white, expected, "{fen}");
            let plain = eval2::evaluate_with(&pos, eval2::WeightSet::Eval4.weights(), danger);
            if ENDGAMES.contains(fen) {
                assert_ne!(stm, plain, "the complexity changes the endgame {fen}");
            }
        }
    }

    #[test]
    fn the_analytic_gradient_of_the_complexity_matches_a_numerical_one() {
        let text: Vec<String> = ENDGAMES.iter().map(|f| format!("{f};0.5")).collect();
        let set = TuningSet::parse_with(&text.join("\n"), &eval2::KING_SAFETY_LEARNT).unwrap();
        let w = real_weights(&weights_with_complexity());
        let (_, gradient) = loss_and_gradient(&set, &set.entries, &w, 1.0);
        let at = |w: &RealWeights| loss_and_gradient(&set, &set.entries, w, 1.0).0;
        let weights = [
            eval2::COMPLEXITY_PAWNS,
            eval2::COMPLEXITY_BASE,
            eval2::MATERIAL,
        ];
        for i in weights {
            let (mut up, mut down) = (w.clone(), w.clone());
            up[i][1] += 0.01;
            down[i][1] -= 0.01;
            let numeric = (at(&up) - at(&down)) / 0.02;
            let analytic = gradient[i][1];
            assert!(analytic != 0.0, "weight {i} is used");
            assert!(
                (numeric - analytic).abs() < 1e-4 * analytic.abs(),
                "weight {i}: numeric {numeric}, analytic {analytic}"
            );
        }
        // The middlegame halves of the complexity's weights are not used.
        assert_eq!(gradient[eval2::COMPLEXITY_BASE][0], 0.0);
    }

    #[test]
    fn bad_lines_are_errors_that_name_the_line() {
        let err = TuningSet::parse("8/8/8/8/8/8/8/K6k w - - 0 1;0.5\nnot a fen;1").unwrap_err();
        assert!(err.starts_with("line 2:"), "{err}");
        let err = TuningSet::parse("8/8/8/8/8/8/8/K6k w - - 0 1;1.5").unwrap_err();
        assert!(err.contains("from 0 to 1"), "{err}");
        let err = TuningSet::parse("8/8/8/8/8/8/8/K6k w - - 0 1;-0.1").unwrap_err();
        assert!(err.contains("from 0 to 1"), "{err}");
        assert_eq!(
            TuningSet::parse("8/8/8/8/8/8/8/K6k w - - 0 1;0.7").map(|s| s.len()),
            Ok(1)
        );
    }

    #[test]
    fn the_analytic_gradient_matches_a_numerical_one() {
        let set = set_of(
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3;1\n\
             8/5k2/8/3PP3/8/8/5K2/8 b - - 0 1;1\n\
             4k3/8/8/8/8/8/3q4/4K3 w - - 0 1;0",
        );
        let w = real_weights(&eval2::WEIGHTS);
        let (_, gradient) = loss_and_gradient(&set, &set.entries, &w, 1.0);
        let at = |w: &RealWeights| loss_and_gradient(&set, &set.entries, w, 1.0).0;
        // A pawn's material weight, and the queen's: both appear in these positions.
        for (i, phase) in [
            (eval2::MATERIAL, 1),
            (eval2::MATERIAL + 4, 0),
            (eval2::MATERIAL + 4, 1),
        ] {
            let (mut up, mut down) = (w.clone(), w.clone());
            up[i][phase] += 0.01;
            down[i][phase] -= 0.01;
            let numeric = (at(&up) - at(&down)) / 0.02;
            let analytic = gradient[i][phase];
            assert!(analytic != 0.0, "weight {i} is used");
            assert!(
                (numeric - analytic).abs() < 1e-6 * analytic.abs().max(1e-6),
                "weight {i}/{phase}: numeric {numeric}, analytic {analytic}"
            );
        }
    }

    /// A set where every side a knight up lost: it must teach the knight's weight to fall.
    fn knight_up_loses() -> TuningSet {
        set_of(
            "4k3/p7/8/8/8/8/P7/3NK3 w - - 0 1;0\n\
             4k3/p7/8/8/8/8/P7/2N1K3 b - - 0 1;0\n\
             3nk3/p7/8/8/8/8/P7/4K3 w - - 0 1;1",
        )
    }

    /// Fifty steps of five centipawns over every weight, at K = 1 and the price `l2`.
    fn fifty_steps(l2: f64) -> TuneSettings {
        TuneSettings {
            k: 1.0,
            epochs: 50,
            rate: 5.0,
            report_every: 50,
            first_tuned: 0,
            kept: Vec::new(),
            l2,
        }
    }

    #[test]
    fn tuning_lowers_the_loss_it_is_given() {
        let set = knight_up_loses();
        let settings = fifty_steps(0.0);
        let before = loss(&set, &eval2::WEIGHTS, settings.k);
        let tuned = tune(&set, &set, &eval2::WEIGHTS, settings.clone(), &mut |_| {});
        assert!(loss(&set, &tuned, settings.k) < before);
        assert!(tuned.pairs[eval2::MATERIAL + 1].eg < eval2::WEIGHTS.pairs[eval2::MATERIAL + 1].eg);
    }

    #[test]
    fn kept_weights_keep_their_start_and_the_others_learn_in_their_place() {
        // The same lesson with the knight's value kept: it stays where it was, and the loss
        // still falls, through other weights.
        let set = knight_up_loses();
        let knight = eval2::MATERIAL + 1;
        let settings = TuneSettings {
            kept: std::iter::once(knight..knight + 1).collect(),
            ..fifty_steps(0.0)
        };
        let before = loss(&set, &eval2::WEIGHTS, settings.k);
        let tuned = tune(&set, &set, &eval2::WEIGHTS, settings.clone(), &mut |_| {});
        assert_eq!(tuned.pairs[knight], eval2::WEIGHTS.pairs[knight]);
        assert!(loss(&set, &tuned, settings.k) < before);
    }

    #[test]
    fn the_drift_penalty_holds_weights_nearer_their_start() {
        // The same lesson at a price per pawn of drift: the knight moves less, and the price
        // grows with the distance, so a steep enough price keeps it where it was.
        let set = knight_up_loses();
        let knight_eg = |l2: f64| {
            let tuned = tune(&set, &set, &eval2::WEIGHTS, fifty_steps(l2), &mut |_| {});
            tuned.pairs[eval2::MATERIAL + 1].eg
        };
        let start = eval2::WEIGHTS.pairs[eval2::MATERIAL + 1].eg;
        let (free, held, pinned) = (knight_eg(0.0), knight_eg(0.5), knight_eg(1e6));
        assert!(
            free < held && held < start,
            "free {free}, held {held}, start {start}"
        );
        assert!(
            (pinned - start).abs() <= 1,
            "pinned {pinned}, start {start}"
        );
    }
}
