//! Statistics of a match: Elo and its error bar, normalized Elo, the likelihood of superiority, and the
//! generalized sequential probability ratio test (GSPRT) that decides when to stop playing.
//!
//! Every function works on counts (wins, draws, losses; or pentanomial game-pair counts) so a stored
//! match record can be re-evaluated at any time: `record_figures` never trusts a stored derived number.
//!
//! Sources:
//! - the logistic Elo model and the 95% interval: Chess Programming Wiki, "Match Statistics";
//!   OpenBench's `stats.py` (Andrew Grant) computes Elo and its bounds exactly this way;
//! - the GSPRT approximation: Michel Van den Bergh, "A practical introduction to the GSPRT" and
//!   "Support of the MLE for multinomial distributions" (hardy.uhasselt.be/Fishtest), as implemented
//!   by fastchess (`sprt.cpp`, logistic model) and fishtest;
//! - pentanomial counting (game pairs with colours reversed): fishtest, and Van den Bergh's
//!   "Normalized Elo" notes;
//! - LOS: Rémi Coulom's formula, as cutechess-cli prints it (CPW "Match Statistics").

/// The two-sided 95% quantile of the standard normal distribution, Φ⁻¹(0.975).
pub const Z_95: f64 = 1.959_963_984_540_054;

/// `800 / ln 10`: the slope that turns a score difference per standard deviation into normalized Elo
/// (Van den Bergh, "Normalized Elo").
const NELO_SCALE: f64 = 800.0 / std::f64::consts::LN_10;

/// Scores closer than this to 0 or 1 are clamped before conversion to Elo, so a perfect score gives a
/// large finite Elo (±1200) instead of infinity. OpenBench clamps the same way.
const SCORE_CLAMP: f64 = 1e-3;

/// Expected score of a player `elo` points stronger, in the logistic model:
/// `s = 1 / (1 + 10^(−elo/400))`. (CPW "Elo rating system".)
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The inverse of [`elo_to_score`]: `elo = −400 · log10(1/s − 1)`, with `s` clamped to
/// `[0.001, 0.999]` (see [`SCORE_CLAMP`]).
pub fn score_to_elo(score: f64) -> f64 {
    let s = score.clamp(SCORE_CLAMP, 1.0 - SCORE_CLAMP);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Wins, draws and losses of one engine (the first of a match record) against the other.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Trinomial {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Trinomial {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The outcomes as (points, count): a win is worth 1, a draw ½, a loss 0.
    fn outcomes(&self) -> [(f64, u64); 3] {
        [(1.0, self.wins), (0.5, self.draws), (0.0, self.losses)]
    }
}

/// Counts of game pairs by the points the first engine scored in the pair (both games of one opening,
/// colours reversed): index 0 = 0 points (LL), 1 = ½ (LD), 2 = 1 (DD or WL), 3 = 1½ (WD), 4 = 2 (WW).
///
/// Pairs are the unit of fishtest's and OpenBench's statistics: the two games of a pair share an
/// opening, so their results are correlated, and the pair's variance is the honest one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Adds one finished pair, given the first engine's points in each game (0, ½ or 1).
    pub fn add_pair(&mut self, first: f64, second: f64) {
        let half_points = ((first + second) * 2.0).round() as usize;
        self.0[half_points.min(4)] += 1;
    }

    /// The outcomes as (score per game in the pair, count): 0, ¼, ½, ¾, 1.
    fn outcomes(&self) -> [(f64, u64); 5] {
        std::array::from_fn(|i| (i as f64 / 4.0, self.0[i]))
    }
}

/// Mean and variance of a discrete sample given as (value, count) pairs:
/// `μ = Σ nᵢ aᵢ / N`, `σ² = Σ nᵢ (aᵢ − μ)² / N`. `None` for an empty sample.
fn mean_and_variance(outcomes: &[(f64, u64)]) -> Option<(f64, f64, f64)> {
    let n: u64 = outcomes.iter().map(|&(_, count)| count).sum();
    if n == 0 {
        return None;
    }
    let n = n as f64;
    let mean = outcomes.iter().map(|&(a, c)| a * c as f64).sum::<f64>() / n;
    let variance = outcomes
        .iter()
        .map(|&(a, c)| c as f64 * (a - mean).powi(2))
        .sum::<f64>()
        / n;
    Some((n, mean, variance))
}

/// An Elo difference with its 95% error bar (half the width of the interval).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    pub error: f64,
}

// ANCHOR: elo_from_outcomes
/// Elo and its 95% error from a sample of scores: the mean score μ with standard error `σ/√N`,
/// the interval `μ ± 1.96 σ/√N` mapped through [`score_to_elo`], and the error taken as half its
/// width (the logistic curve makes the interval slightly asymmetric; OpenBench and fastchess
/// report it so).
fn elo_from_outcomes(outcomes: &[(f64, u64)]) -> Option<EloEstimate> {
    let (n, mean, variance) = mean_and_variance(outcomes)?;
    let margin = Z_95 * (variance / n).sqrt();
    let lower = score_to_elo(mean - margin);
    let upper = score_to_elo(mean + margin);
    Some(EloEstimate {
        elo: score_to_elo(mean),
        error: (upper - lower) / 2.0,
    })
}
// ANCHOR_END: elo_from_outcomes

/// Elo ± 95% error from W/D/L, each game an independent sample (the trinomial model).
/// W=30 D=40 L=30 gives 0 ± 53.2. `None` without games.
pub fn elo_trinomial(t: &Trinomial) -> Option<EloEstimate> {
    elo_from_outcomes(&t.outcomes())
}

/// Elo ± 95% error from pentanomial pair counts: each pair is one sample whose score is the mean of
/// its two games (0, ¼, ½, ¾ or 1), N = number of pairs (fishtest, OpenBench). `None` without pairs.
pub fn elo_pentanomial(p: &Pentanomial) -> Option<EloEstimate> {
    elo_from_outcomes(&p.outcomes())
}

/// Normalized Elo from W/D/L: `nElo = (μ − ½) / σ · 800/ln 10`, σ the standard deviation of one game's
/// score (Van den Bergh, "Normalized Elo"). It measures the difference in units of the noise, so it
/// does not depend on the draw rate. `None` without games or with zero variance.
pub fn normalized_elo_trinomial(t: &Trinomial) -> Option<f64> {
    let (_, mean, variance) = mean_and_variance(&t.outcomes())?;
    (variance > 0.0).then(|| (mean - 0.5) / variance.sqrt() * NELO_SCALE)
}

/// Normalized Elo from pentanomial counts: as [`normalized_elo_trinomial`] with the per-game deviation
/// estimated from pairs as `σ = √(2 σ²_pair)` (a pair's score is the mean of two games; fishtest and
/// fastchess's `neloToScorePenta`). `None` without pairs or with zero variance.
pub fn normalized_elo_pentanomial(p: &Pentanomial) -> Option<f64> {
    let (_, mean, variance) = mean_and_variance(&p.outcomes())?;
    (variance > 0.0).then(|| (mean - 0.5) / (2.0 * variance).sqrt() * NELO_SCALE)
}

/// Likelihood of superiority, the probability that the first engine is the stronger, from wins and
/// losses alone (draws carry no information on who is better):
/// `LOS = ½ · (1 + erf((W − L) / √(2(W + L))))` (Rémi Coulom; CPW "Match Statistics").
/// Equal wins and losses give exactly ½; no decisive game gives ½.
pub fn los(wins: u64, losses: u64) -> f64 {
    let decisive = (wins + losses) as f64;
    if decisive == 0.0 {
        return 0.5;
    }
    0.5 * (1.0 + erf((wins as f64 - losses as f64) / (2.0 * decisive).sqrt()))
}

/// The error function, Abramowitz & Stegun 7.1.26 (absolute error below 1.5·10⁻⁷, far below the one
/// decimal of a percentage we report). Odd, `erf(−x) = −erf(x)`, and exactly 0 at 0 (the polynomial
/// alone gives 10⁻⁹ there), so equal scores give a LOS of exactly 50%.
pub fn erf(x: f64) -> f64 {
    if x == 0.0 {
        return 0.0;
    }
    const P: f64 = 0.327_591_1;
    const A: [f64; 5] = [
        0.254_829_592,
        -0.284_496_736,
        1.421_413_741,
        -1.453_152_027,
        1.061_405_429,
    ];
    let sign = x.signum();
    let x = x.abs();
    let t = 1.0 / (1.0 + P * x);
    let poly = A.iter().rev().fold(0.0, |acc, &a| acc * t + a) * t;
    sign * (1.0 - poly * (-x * x).exp())
}

/// The parameters of a sequential test: H0 says the Elo difference is `elo0`, H1 says `elo1` (logistic
/// Elo), `alpha` the false-positive rate, `beta` the false-negative rate.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SprtParams {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What a sequential test says so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The LLR fell to the lower bound: accept H0 (the change is not worth `elo1`).
    H0,
    /// The LLR rose to the upper bound: accept H1 (the change is worth at least `elo0`).
    H1,
    /// Neither bound crossed: play on, or report "no verdict" if the match ended first.
    Continue,
}

impl Verdict {
    /// The name stored in records and quoted by the book: "H0", "H1" or "no verdict".
    pub fn label(self) -> &'static str {
        match self {
            Verdict::H0 => "H0",
            Verdict::H1 => "H1",
            Verdict::Continue => "no verdict",
        }
    }
}

impl SprtParams {
    /// Checks the parameters make a test: 0 < α, β < 1 and elo0 < elo1.
    pub fn validate(&self) -> Result<(), String> {
        let in_unit = |p: f64| p > 0.0 && p < 1.0;
        if !in_unit(self.alpha) || !in_unit(self.beta) {
            return Err(format!(
                "SPRT alpha and beta must lie in (0, 1), got {} and {}",
                self.alpha, self.beta
            ));
        }
        if self.elo0.partial_cmp(&self.elo1) != Some(std::cmp::Ordering::Less) {
            return Err(format!(
                "SPRT needs elo0 < elo1, got [{}, {}]",
                self.elo0, self.elo1
            ));
        }
        Ok(())
    }

    // ANCHOR: sprt_bounds
    /// Wald's stopping bounds on the log-likelihood ratio: `(ln(β/(1−α)), ln((1−β)/α))`.
    /// For α = β = 0.05 they are ∓2.944.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The decision for a log-likelihood ratio: H1 at or above the upper bound, H0 at or below the
    /// lower, otherwise continue.
    pub fn verdict(&self, llr: f64) -> Verdict {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
    // ANCHOR_END: sprt_bounds

    /// GSPRT log-likelihood ratio from W/D/L (each game one sample).
    /// See [`Self::llr_from_outcomes`]. W=4307 D=8620 L=4063 with [0, 3] gives 2.99, as jw1912's
    /// `sprt.py --gsprt` reports for the same counts.
    pub fn llr_trinomial(&self, t: &Trinomial) -> f64 {
        self.llr_from_outcomes(&t.outcomes())
    }

    /// GSPRT log-likelihood ratio from pentanomial pair counts (each pair one sample, scored 0..1).
    /// This is the test the arena stops on: fishtest and OpenBench test pairs, not games.
    pub fn llr_pentanomial(&self, p: &Pentanomial) -> f64 {
        self.llr_from_outcomes(&p.outcomes())
    }

    // ANCHOR: llr_from_outcomes
    /// Van den Bergh's GSPRT approximation (support_MLE_multinomial.pdf; fastchess's logistic model):
    /// with sᵢ = [`elo_to_score`](eloᵢ) and `σᵢ² = Σ pₖ (aₖ − sᵢ)²` the spread of the observed
    /// outcomes aₖ (frequencies pₖ) around the score each hypothesis predicts,
    /// `LLR ≈ N/2 · ln(σ₀² / σ₁²)`. It is 0 with no sample or when either spread is 0.
    fn llr_from_outcomes(&self, outcomes: &[(f64, u64)]) -> f64 {
        let Some((n, _, _)) = mean_and_variance(outcomes) else {
            return 0.0;
        };
        let spread = |s: f64| {
            outcomes
                .iter()
                .map(|&(a, c)| c as f64 / n * (a - s).powi(2))
                .sum::<f64>()
        };
        let (var0, var1) = (
            spread(elo_to_score(self.elo0)),
            spread(elo_to_score(self.elo1)),
        );
        if var0 == 0.0 || var1 == 0.0 {
            return 0.0;
        }
        0.5 * n * (var0 / var1).ln()
    }
    // ANCHOR_END: llr_from_outcomes

    // ANCHOR: sprt_forecast
    /// What this test will do, before a game is played, if the true difference is `elo` and a
    /// game pair's score varies by `pair_variance` around its mean: the chance it accepts H1
    /// and the number of pairs it plays on average. These are Wald's operating characteristic
    /// and average sample number (Abraham Wald, *Sequential Analysis*, 1947), taken for the
    /// log-likelihood ratio as a random walk in its normal approximation: each pair adds
    /// `(s₁ − s₀)/σ² · (x − (s₀ + s₁)/2)`, whose mean is the drift `μ` and whose variance is
    /// `w = (s₁ − s₀)²/σ²`. A walk with drift μ and variance w per step, started at 0 between
    /// the bounds `a < 0 < b`, ends at `b` with probability
    /// `(1 − e^{−θa}) / (e^{−θb} − e^{−θa})`, `θ = 2μ/w`, after `(P·b + (1 − P)·a)/μ` steps on
    /// average; with no drift, `a/(a − b)` and `−a·b/w`. Fishtest's SPRT calculator draws the
    /// same two curves.
    pub fn forecast(&self, elo: f64, pair_variance: f64) -> SprtForecast {
        let (a, b) = self.bounds();
        let (s0, s1) = (elo_to_score(self.elo0), elo_to_score(self.elo1));
        let step = (s1 - s0) / pair_variance;
        let drift = step * (elo_to_score(elo) - (s0 + s1) / 2.0);
        let step_variance = step * (s1 - s0);
        let theta = 2.0 * drift / step_variance;
        if theta.abs() < 1e-9 {
            return SprtForecast {
                pass_probability: a / (a - b),
                expected_pairs: -a * b / step_variance,
            };
        }
        let pass = (1.0 - (-theta * a).exp()) / ((-theta * b).exp() - (-theta * a).exp());
        SprtForecast {
            pass_probability: pass,
            expected_pairs: (pass * b + (1.0 - pass) * a) / drift,
        }
    }
    // ANCHOR_END: sprt_forecast
}

/// What a sequential test is expected to do at one true Elo difference: [`SprtParams::forecast`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SprtForecast {
    /// The chance the test ends by accepting H1.
    pub pass_probability: f64,
    /// The game pairs it plays on average before either bound (with no limit on games).
    pub expected_pairs: f64,
}

impl Pentanomial {
    /// The variance of one pair's score (0, ¼, ½, ¾ or 1) around the sample's mean: the σ² of
    /// [`SprtParams::forecast`]. `None` without pairs.
    pub fn pair_variance(&self) -> Option<f64> {
        mean_and_variance(&self.outcomes()).map(|(_, _, variance)| variance)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    const FIVE_PERCENT: SprtParams = SprtParams {
        elo0: 0.0,
        elo1: 5.0,
        alpha: 0.05,
        beta: 0.05,
    };

    #[test]
    fn elo_and_score_are_inverse() {
        for elo in [-500.0, -100.0, 0.0, 35.0, 400.0] {
            assert!(close(score_to_elo(elo_to_score(elo)), elo, 1e-9));
        }
        // 400 Elo stronger scores 10 to 1: s = 10/11.
        assert!(close(elo_to_score(400.0), 10.0 / 11.0, 1e-12));
    }

    #[test]
    fn equal_wins_and_losses_are_zero_elo() {
        // W=30 D=40 L=30: μ = 0.5, σ² = 0.3·0.25 + 0.4·0 + 0.3·0.25 = 0.15,
        // margin = 1.96·√(0.15/100) = 0.07591, so μ ∈ [0.42409, 0.57591] → ±53.16 Elo.
        let e = elo_trinomial(&Trinomial {
            wins: 30,
            draws: 40,
            losses: 30,
        })
        .unwrap();
        assert!(close(e.elo, 0.0, 1e-9), "{e:?}");
        assert!(close(e.error, 53.158, 0.001), "{e:?}");
    }

    #[test]
    fn a_winning_trinomial() {
        // W=40 D=40 L=20: μ = 0.6 → −400·log10(1/0.6 − 1) = 70.44 Elo; σ² = 0.14 → ±53.55.
        let t = Trinomial {
            wins: 40,
            draws: 40,
            losses: 20,
        };
        let e = elo_trinomial(&t).unwrap();
        assert!(close(e.elo, 70.437, 0.001), "{e:?}");
        assert!(close(e.error, 53.553, 0.001), "{e:?}");
        // nElo = 0.1 / √0.14 · 800/ln10 = 92.86.
        assert!(close(normalized_elo_trinomial(&t).unwrap(), 92.856, 0.001));
    }

    #[test]
    fn a_known_pentanomial_case() {
        // 50 pairs [LL, LD, DD/WL, WD, WW] = [2, 10, 20, 14, 4]:
        // μ = (10·¼ + 20·½ + 14·¾ + 4·1)/50 = 27/50 = 0.54 → 27.85 Elo;
        // σ² = Σ nᵢ(aᵢ − 0.54)²/50 = 0.0584, margin = 1.96·√(0.0584/50) = 0.06698 → ±47.14 Elo.
        let p = Pentanomial([2, 10, 20, 14, 4]);
        let e = elo_pentanomial(&p).unwrap();
        assert!(close(e.elo, 27.854, 0.001), "{e:?}");
        assert!(close(e.error, 47.138, 0.001), "{e:?}");
        // nElo = 0.04 / √(2·0.0584) · 800/ln10 = 40.66.
        assert!(close(
            normalized_elo_pentanomial(&p).unwrap(),
            40.664,
            0.001
        ));
        // LLR [0, 10]: s0 = 0.5, s1 = 0.514387; σ0² = 0.0584 + 0.04² = 0.06, σ1² = 0.0584 + 0.025613²;
        // 25 · ln(σ0²/σ1²) = 0.3965.
        let sprt = SprtParams {
            elo1: 10.0,
            ..FIVE_PERCENT
        };
        assert!(close(sprt.llr_pentanomial(&p), 0.39645, 0.0001));
    }

    #[test]
    fn pairs_are_counted_by_points() {
        let mut p = Pentanomial::default();
        p.add_pair(1.0, 0.0); // WL: 1 point
        p.add_pair(0.5, 0.5); // DD: 1 point
        p.add_pair(1.0, 0.5); // WD
        p.add_pair(0.0, 0.0); // LL
        p.add_pair(0.0, 0.5); // LD
        p.add_pair(1.0, 1.0); // WW
        assert_eq!(p, Pentanomial([1, 1, 2, 1, 1]));
        assert_eq!(p.pairs(), 6);
    }

    #[test]
    fn sprt_bounds_for_five_percent_errors() {
        let (lower, upper) = FIVE_PERCENT.bounds();
        assert!(close(lower, -2.944, 0.0005), "{lower}");
        assert!(close(upper, 2.944, 0.0005), "{upper}");
        assert_eq!(FIVE_PERCENT.verdict(2.95), Verdict::H1);
        assert_eq!(FIVE_PERCENT.verdict(-2.95), Verdict::H0);
        assert_eq!(FIVE_PERCENT.verdict(0.0), Verdict::Continue);
        // Unequal errors: α = 0.05, β = 0.1 → (ln(0.1/0.95), ln(0.9/0.05)) = (−2.251, 2.890).
        let (lower, upper) = SprtParams {
            beta: 0.1,
            ..FIVE_PERCENT
        }
        .bounds();
        assert!(close(lower, -2.2513, 0.0001) && close(upper, 2.8904, 0.0001));
    }

    #[test]
    fn gsprt_matches_a_published_value() {
        // jw1912/SPRT README: `--wins 4307 --losses 4063 --draws 8620 --elo0 0 --elo1 3 --gsprt`
        // prints "LLR: 2.99".
        let sprt = SprtParams {
            elo1: 3.0,
            ..FIVE_PERCENT
        };
        let llr = sprt.llr_trinomial(&Trinomial {
            wins: 4307,
            draws: 8620,
            losses: 4063,
        });
        assert!(close(llr, 2.9915, 0.0001), "{llr}");
    }

    #[test]
    fn pentanomial_gsprt_matches_fastchess() {
        // fastchess (Disservin/fastchess), tests/sprt_test.cpp, "logistic pentanomial 1" and
        // "2": Stats(LL, LD, WL, DD, WD, WW) with logistic bounds, LLR checked to ±1 %. Our
        // pentanomial puts WL and DD, both a point, in one bin.
        let cases = [
            // LL, LD, WL + DD, WD, WW; elo0, elo1; fastchess's LLR
            ([223, 9863, 20279 + 1000, 10037, 246], 0.5, 2.5, -3.07),
            ([871, 26175, 55003 + 980, 26678, 821], 0.0, 2.0, -4.98),
        ];
        for (counts, elo0, elo1, expected) in cases {
            let sprt = SprtParams {
                elo0,
                elo1,
                ..FIVE_PERCENT
            };
            let llr = sprt.llr_pentanomial(&Pentanomial(counts));
            assert!(
                close(llr, expected, 0.01 * expected.abs()),
                "{llr} vs {expected}"
            );
        }
    }

    #[test]
    fn gsprt_is_antisymmetric_and_zero_when_undecided() {
        let sprt = SprtParams {
            elo0: -5.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let t = Trinomial {
            wins: 30,
            draws: 40,
            losses: 30,
        };
        assert!(close(sprt.llr_trinomial(&t), 0.0, 1e-12));
        let ahead = Trinomial {
            wins: 40,
            draws: 40,
            losses: 20,
        };
        let behind = Trinomial {
            wins: 20,
            draws: 40,
            losses: 40,
        };
        assert!(sprt.llr_trinomial(&ahead) > 0.0);
        assert!(close(
            sprt.llr_trinomial(&ahead),
            -sprt.llr_trinomial(&behind),
            1e-12
        ));
        assert_eq!(FIVE_PERCENT.llr_pentanomial(&Pentanomial::default()), 0.0);
    }

    #[test]
    fn forecast_meets_the_errors_it_was_built_for() {
        // At elo0 the test accepts H1 with chance α, at elo1 with chance 1 − β, halfway with
        // chance ½; the average length peaks halfway, where the walk has no drift.
        let sprt = SprtParams {
            elo1: 10.0,
            ..FIVE_PERCENT
        };
        let variance = 0.05;
        assert!(close(
            sprt.forecast(0.0, variance).pass_probability,
            0.05,
            1e-9
        ));
        assert!(close(
            sprt.forecast(10.0, variance).pass_probability,
            0.95,
            1e-9
        ));
        let (s0, s1) = (elo_to_score(0.0), elo_to_score(10.0));
        let halfway = score_to_elo((s0 + s1) / 2.0);
        let middle = sprt.forecast(halfway, variance);
        assert!(close(middle.pass_probability, 0.5, 1e-6));
        // −a·b/w with a = −b = ln 19 and w = (s1 − s0)²/σ².
        let peak = 19f64.ln().powi(2) * variance / (s1 - s0).powi(2);
        assert!(
            close(middle.expected_pairs, peak, 1e-3 * peak),
            "{middle:?}"
        );
        for elo in [-5.0, 0.0, 3.0, 7.0, 10.0, 20.0] {
            assert!(sprt.forecast(elo, variance).expected_pairs < middle.expected_pairs);
        }
        // Twice the true gain, far past elo1: a short test.
        assert!(sprt.forecast(20.0, variance).expected_pairs < peak / 3.0);
    }

    #[test]
    fn pair_variance_of_a_known_sample() {
        // [2, 10, 20, 14, 4]: σ² = 0.0584 (see a_known_pentanomial_case).
        let p = Pentanomial([2, 10, 20, 14, 4]);
        assert!(close(p.pair_variance().unwrap(), 0.0584, 1e-12));
        assert_eq!(Pentanomial::default().pair_variance(), None);
    }

    #[test]
    fn los_of_equal_scores_is_one_half() {
        assert_eq!(los(30, 30), 0.5);
        assert_eq!(los(0, 0), 0.5);
        // W=40 L=20: ½(1 + erf(20/√120)) = 0.99509.
        assert!(close(los(40, 20), 0.995_088, 1e-6));
        assert!(close(los(20, 40), 1.0 - 0.995_088, 1e-6));
    }

    #[test]
    fn erf_matches_known_values() {
        assert!(close(erf(0.0), 0.0, 1e-9));
        assert!(close(erf(1.0), 0.842_700_79, 2e-7));
        assert!(close(erf(-0.5), -0.520_499_88, 2e-7));
    }

    #[test]
    fn no_games_no_estimate() {
        assert_eq!(elo_trinomial(&Trinomial::default()), None);
        assert_eq!(
            normalized_elo_trinomial(&Trinomial {
                wins: 0,
                draws: 5,
                losses: 0
            }),
            None
        );
    }

    #[test]
    fn invalid_sprt_parameters_are_rejected() {
        assert!(FIVE_PERCENT.validate().is_ok());
        assert!(
            SprtParams {
                elo0: 5.0,
                elo1: 0.0,
                ..FIVE_PERCENT
            }
            .validate()
            .is_err()
        );
        assert!(
            SprtParams {
                alpha: 0.0,
                ..FIVE_PERCENT
            }
            .validate()
            .is_err()
        );
    }
}
