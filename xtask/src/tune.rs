//! `cargo xtask tune`: chapter 19's Texel tuning, from `cargo xtask datagen`'s positions to
//! `crates/engine/src/eval2_tuned.rs`, the weights of the switch `tuned`.
//!
//! The generated file's header says where its weights came from (the data's fingerprint and the
//! command that made it, this command, `K`, the losses before and after), and the losses per
//! epoch go to `data/tuning/loss-per-epoch.csv` for chapter 19's plot. Run twice on the same data,
//! it writes the same bytes.

use crate::datagen::fnv64;
use cb2026::eval2::{self, EvalWeights, KingDanger, TERMS};
use cb2026::tune::{EpochLoss, TuneSettings, TuningSet, fit_k, loss, tune};
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

#[derive(Args, Debug)]
pub struct TuneArgs {
    /// The training positions (`FEN;result` lines).
    #[arg(long, default_value = "target/datagen/train.txt")]
    data: PathBuf,
    /// The held-out positions: watched, never trained on.
    #[arg(long, default_value = "data/tuning/held-out.txt")]
    held_out: PathBuf,
    /// Steps of Adam over the whole training set.
    #[arg(long, default_value_t = 1_000)]
    epochs: usize,
    /// Adam's step size, in centipawns.
    #[arg(long, default_value_t = 1.0)]
    rate: f64,
    /// Keep material and the piece-square tables as they are: tune chapter 18's terms only.
    #[arg(long)]
    terms_only: bool,
    /// Keep every weight but M13's king safety inputs as it is: tune those alone.
    #[arg(long, conflicts_with = "terms_only")]
    king_safety_only: bool,
    /// The price of a weight's drift from its hand-set value: this much loss per pawn², squared
    /// distance (L2 regularisation). 0: none.
    #[arg(long, default_value_t = 0.0)]
    l2: f64,
    /// Where the weights go.
    #[arg(long, default_value = "crates/engine/src/eval2_tuned.rs")]
    out: PathBuf,
    /// Where the losses per epoch go.
    #[arg(long, default_value = "data/tuning/loss-per-epoch.csv")]
    losses: PathBuf,
    /// Keep this `K` instead of fitting it to the training data: M10 keeps chapter 19's, so the
    /// losses of its runs and chapter 19's weights are on one scale.
    #[arg(long)]
    k: Option<f64>,
    /// With `--set eval3`, `eval4` or `eval5`: keep that milestone's new terms at zero and tune
    /// every other weight, to measure what the terms add (write the result elsewhere with
    /// `--out` and `--losses`).
    #[arg(long)]
    without_new_terms: bool,
    /// Which weight set the file defines: chapter 19's `tuned` or M10's `teacher`.
    #[arg(long, value_enum, default_value_t = Set::Tuned)]
    set: Set,
}

/// The weight sets this command writes: each is a constant of its own file, chosen by a switch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Set {
    /// Chapter 19: `TUNED_WEIGHTS`, the switch `tuned`.
    Tuned,
    /// M10: `TEACHER_WEIGHTS`, the switch `teacher`.
    Teacher,
    /// M13: `KING_SAFETY_WEIGHTS`, the switch `kingsafety`: M10's weights tuned again, from
    /// where they are, with M13's king safety in the evaluation.
    KingSafety,
    /// M14: `EVAL3_WEIGHTS`, the switch `eval3`: M13's weights and M14's new terms, every
    /// weight tuned again together.
    Eval3,
    /// M15: `EVAL4_WEIGHTS`, the switch `eval4`: M14's weights and M15's new terms, every
    /// weight tuned again together.
    Eval4,
    /// M20: `EVAL5_WEIGHTS`, the switch `complexity`: M15's weights and M20's complexity, every
    /// weight tuned again together.
    Eval5,
}

impl Set {
    fn constant(self) -> &'static str {
        match self {
            Set::Tuned => "TUNED_WEIGHTS",
            Set::Teacher => "TEACHER_WEIGHTS",
            Set::KingSafety => "KING_SAFETY_WEIGHTS",
            Set::Eval3 => "EVAL3_WEIGHTS",
            Set::Eval4 => "EVAL4_WEIGHTS",
            Set::Eval5 => "EVAL5_WEIGHTS",
        }
    }

    fn title(self) -> &'static str {
        match self {
            Set::Tuned => {
                "Evaluation II's weights tuned by Texel's method (chapter 19): the switch `tuned`."
            }
            Set::Teacher => {
                "Evaluation II's weights tuned by Texel's method on labels blended with a \
                 teacher's verdict (M10): the switch `teacher`."
            }
            Set::KingSafety => {
                "M10's weights tuned again with M13's king safety, whose inputs are weights \
                 too: the switch `kingsafety`."
            }
            Set::Eval3 => {
                "M13's weights tuned again, every one, with M14's new terms (Evaluation III): \
                 the switch `eval3`."
            }
            Set::Eval4 => {
                "M14's weights tuned again, every one, with M15's new terms (Evaluation IV): \
                 the switch `eval4`."
            }
            Set::Eval5 => {
                "M15's weights tuned again, every one, with M20's complexity: the switch \
                 `complexity`."
            }
        }
    }

    /// Where the tuning starts (and what the drift penalty pulls towards): the hand-set
    /// weights, or for M13 the weights M10 shipped (whose king safety slots hold the hand-set
    /// start, as nothing counted them before).
    fn start(self) -> &'static EvalWeights {
        match self {
            Set::Tuned | Set::Teacher => &eval2::WEIGHTS,
            Set::KingSafety => eval2::WeightSet::Teacher.weights(),
            Set::Eval3 => eval2::WeightSet::KingSafety.weights(),
            Set::Eval4 => eval2::WeightSet::Eval3.weights(),
            Set::Eval5 => eval2::WeightSet::Eval4.weights(),
        }
    }

    /// The weights it starts from, as the generated file's header names them.
    fn start_name(self) -> &'static str {
        match self {
            Set::Tuned | Set::Teacher => "the hand-set weights",
            Set::KingSafety => "M10's weights",
            Set::Eval3 => "M13's weights",
            Set::Eval4 => "M14's weights",
            Set::Eval5 => "M15's weights",
        }
    }

    /// The king danger the evaluation is tuned with: M13's set has its own.
    fn king_danger(self) -> &'static KingDanger {
        match self {
            Set::Tuned | Set::Teacher => &eval2::KING_DANGER,
            Set::KingSafety | Set::Eval3 | Set::Eval4 | Set::Eval5 => &eval2::KING_SAFETY_LEARNT,
        }
    }

    /// The weights of terms added after this set was made, kept at zero when it is tuned
    /// again, so that running the command again writes the same file. With
    /// `without_new_terms`, this set's own new terms are kept at zero too.
    fn kept(self, without_new_terms: bool) -> Vec<std::ops::Range<usize>> {
        let complexity = eval2::COMPLEXITY..eval2::NUM_WEIGHTS;
        let first_new = match self {
            Set::Tuned | Set::Teacher | Set::KingSafety => eval2::EVAL3_TERMS,
            Set::Eval3 if without_new_terms => eval2::EVAL3_TERMS,
            Set::Eval3 => eval2::EVAL4_TERMS,
            Set::Eval4 if without_new_terms => eval2::EVAL4_TERMS,
            Set::Eval4 => return vec![complexity],
            Set::Eval5 if without_new_terms => return vec![complexity],
            Set::Eval5 => return Vec::new(),
        };
        vec![first_new..eval2::KING_SAFETY, complexity]
    }
}

/// How often the rounded weights' losses are computed and recorded.
const REPORT_EVERY: usize = 10;

pub fn run(args: TuneArgs, root: &Path) -> Result<(), String> {
    let read = |path: &Path| {
        std::fs::read_to_string(root.join(path)).map_err(|e| {
            format!(
                "cannot read {}: {e} (run cargo xtask datagen)",
                path.display()
            )
        })
    };
    let train_text = read(&args.data)?;
    let held_text = read(&args.held_out)?;
    let data_command = std::fs::read_to_string(root.join(args.data.with_extension("command")))
        .unwrap_or_else(|_| "unknown".into());
    let danger = args.set.king_danger();
    let train = TuningSet::parse_with(&train_text, danger)
        .map_err(|e| format!("{}: {e}", args.data.display()))?;
    let held_out = TuningSet::parse_with(&held_text, danger)
        .map_err(|e| format!("{}: {e}", args.held_out.display()))?;
    println!(
        "{} training positions, {} held out",
        train.len(),
        held_out.len()
    );
    let start = args.set.start();
    let k = args.k.unwrap_or_else(|| fit_k(&train, start));
    let before = (loss(&train, start, k), loss(&held_out, start, k));
    println!(
        "K = {k}; loss with {}: train {:.6}, held out {:.6}",
        args.set.start_name(),
        before.0,
        before.1
    );
    let bar = ProgressBar::new(args.epochs as u64).with_style(
        ProgressStyle::with_template("{bar:40} epoch {pos}/{len}, eta {eta}  {msg}")
            .expect("a valid template"),
    );
    let mut epochs = vec![EpochLoss {
        epoch: 0,
        train: before.0,
        held_out: before.1,
    }];
    let settings = TuneSettings {
        k,
        epochs: args.epochs,
        rate: args.rate,
        report_every: REPORT_EVERY,
        first_tuned: if args.king_safety_only {
            eval2::KING_SAFETY
        } else if args.terms_only {
            eval2::PASSED_RANK
        } else {
            0
        },
        kept: args.set.kept(args.without_new_terms),
        l2: args.l2,
    };
    let tuned = tune(&train, &held_out, start, settings.clone(), &mut |epoch| {
        bar.set_position(epoch.epoch as u64);
        bar.set_message(format!(
            "train {:.6}, held out {:.6}",
            epoch.train, epoch.held_out
        ));
        epochs.push(epoch);
    });
    bar.finish();
    let after = epochs
        .last()
        .map(|e| (e.train, e.held_out))
        .expect("one epoch at least");
    println!(
        "loss with the tuned weights: train {:.6}, held out {:.6}",
        after.0, after.1
    );
    let header = Header {
        data: format!(
            "{} ({} positions, fnv64 {:016x})",
            args.data.display(),
            train.len(),
            fnv64(train_text.as_bytes())
        ),
        data_command: data_command.trim().to_string(),
        command: format!(
            "cargo xtask tune{}{} --epochs {} --rate {}{}{}",
            match args.set {
                Set::Tuned => String::new(),
                Set::Teacher | Set::KingSafety | Set::Eval3 | Set::Eval4 | Set::Eval5 => format!(
                    " --set {} --data {} --held-out {} --out {} --losses {}",
                    match args.set {
                        Set::KingSafety => "king-safety",
                        Set::Eval3 => "eval3",
                        Set::Eval4 => "eval4",
                        Set::Eval5 => "eval5",
                        _ => "teacher",
                    },
                    args.data.display(),
                    args.held_out.display(),
                    args.out.display(),
                    args.losses.display()
                ),
            },
            args.k.map(|k| format!(" --k {k}")).unwrap_or_default(),
            args.epochs,
            args.rate,
            if args.l2 > 0.0 {
                format!(" --l2 {}", args.l2)
            } else {
                String::new()
            },
            if args.terms_only { " --terms-only" } else { "" },
        ) + if args.king_safety_only {
            " --king-safety-only"
        } else {
            ""
        } + if args.without_new_terms {
            " --without-new-terms"
        } else {
            ""
        },
        held_out: format!(
            "{} ({} positions, fnv64 {:016x})",
            args.held_out.display(),
            held_out.len(),
            fnv64(held_text.as_bytes())
        ),
        k,
        before,
        after,
        positions: train.len(),
        epochs: args.epochs,
        rate: args.rate,
        l2: args.l2,
        first_tuned: settings.first_tuned,
        set: args.set,
    };
    let out = root.join(&args.out);
    std::fs::write(&out, weights_source(&header, &tuned))
        .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    rustfmt(&out)?;
    let mut csv = String::from("epoch,train,held_out\n");
    for e in &epochs {
        let _ = writeln!(csv, "{},{:.6},{:.6}", e.epoch, e.train, e.held_out);
    }
    std::fs::write(root.join(&args.losses), csv)
        .map_err(|e| format!("cannot write {}: {e}", args.losses.display()))?;
    println!("wrote {} and {}", args.out.display(), args.losses.display());
    Ok(())
}

/// Where the weights came from, for the generated file's header.
struct Header {
    data: String,
    data_command: String,
    command: String,
    held_out: String,
    k: f64,
    before: (f64, f64),
    after: (f64, f64),
    positions: usize,
    epochs: usize,
    rate: f64,
    l2: f64,
    first_tuned: usize,
    set: Set,
}

/// The generated Rust source: the header, then the weights term by term.
fn weights_source(header: &Header, weights: &EvalWeights) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "//! {}\n\
         //! Generated by `cargo xtask tune`; do not edit, run it again.\n\
         //!\n\
         //! - Training data: {}, made by `{}`.\n\
         //! - Held out: {}.\n\
         //! - Tuned by: `{}`.\n\
         //! - K = {}.\n\
         //! - Loss with {}: train {:.6}, held out {:.6}.\n\
         //! - Loss with these weights: train {:.6}, held out {:.6}.\n",
        header.set.title(),
        header.data,
        header.data_command,
        header.held_out,
        header.command,
        header.k,
        header.set.start_name(),
        header.before.0,
        header.before.1,
        header.after.0,
        header.after.1,
    );
    let _ = writeln!(
        out,
        "use crate::eval::Tapered;\nuse crate::eval2::{{EvalWeights, NUM_WEIGHTS}};\n\n\
         /// The `K` the losses above were measured with.\n\
         pub const K: f64 = {:?};\n\n\
         /// The held-out loss of these weights (a test measures it again).\n\
         pub const HELD_OUT_LOSS: f64 = {:.6};\n\n\
         /// How many training positions there were, and the command that made them.\n\
         pub const TRAINING_POSITIONS: usize = {};\n\
         pub const DATA_COMMAND: &str = {:?};\n\n\
         /// How the weights were tuned: steps of Adam over the whole set, and its step size.\n\
         pub const EPOCHS: usize = {};\n\
         pub const RATE: f64 = {:?};\n\n\
         /// The price of a weight's drift from its hand-set value, per pawn² (0: none).\n\
         pub const L2: f64 = {:?};\n\n\
         /// The weights below this index kept their hand-set values (0: all were tuned).\n\
         pub const FIRST_TUNED: usize = {};\n\n\
         const fn s(mg: i32, eg: i32) -> Tapered {{\n    Tapered {{ mg, eg }}\n}}\n\n\
         /// The tuned weights, in the layout of [`crate::eval2`].\n\
         pub const {}: EvalWeights = EvalWeights {{\n    pairs: PAIRS,\n}};\n\n\
         #[rustfmt::skip]\n\
         const PAIRS: [Tapered; NUM_WEIGHTS] = [",
        header.k,
        header.after.1,
        header.positions,
        header.data_command,
        header.epochs,
        header.rate,
        header.l2,
        header.first_tuned,
        header.set.constant()
    );
    for term in &TERMS {
        let _ = writeln!(out, "    // {}", term.name);
        let pairs = &weights.pairs[term.start..term.start + term.len];
        for row in pairs.chunks(8) {
            let cells: Vec<String> = row
                .iter()
                .map(|p| format!("s({}, {})", p.mg, p.eg))
                .collect();
            let _ = writeln!(out, "    {},", cells.join(", "));
        }
    }
    out.push_str("];\n");
    out
}

/// Formats the generated file as `cargo fmt` would, so `cargo fmt --check` stays clean.
fn rustfmt(path: &Path) -> Result<(), String> {
    let status = Command::new("rustfmt")
        .args(["--edition", "2024"])
        .arg(path)
        .status()
        .map_err(|e| format!("cannot run rustfmt: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("rustfmt failed on {}", path.display()))
    }
}
