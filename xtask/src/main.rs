//! `cargo xtask`: the project's automation, in Rust so it runs wherever cargo does
//! (the pattern is matklad's, <https://github.com/matklad/cargo-xtask>).
//!
//! Each subcommand lives in its own module; this file only parses the command line.

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

mod datagen;
mod magics;
mod matches;
mod perf_bench;
mod perf_cpu;
mod perf_eval;
mod perf_perft;
mod perf_threads;
mod perf_touch;
mod perf_tt;
mod perft;
mod soak;
mod suite;
mod tools;
mod tune;

#[derive(Parser, Debug)]
#[command(name = "cargo xtask", about = "cb2026's project commands")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print the workspace root (where every command runs from).
    Root,
    /// Build the book into book/build (mdBook as a library, with our figure preprocessor).
    Book,
    /// Serve the book on 127.0.0.1, rebuilding and reloading when a source changes; build the
    /// release engine, which the pages' Run it here panels run.
    Serve {
        #[arg(long, default_value_t = 3000)]
        port: u16,
    },
    /// Build the book strictly and check includes, anchors, figures, numbers, links, diagrams.
    Verify,
    /// Run chapter programs and show each figure against its snapshot; or, with --rewrite ID,
    /// rewrite that chapter's quoted figures to the stored values and print each sentence touched.
    Figures {
        /// A chapter id (ch01); all chapters when omitted.
        chapter: Option<String>,
        /// Rewrite every quote `[literal]{key}` of this chapter's pages (ch11: ch11-*.md) whose
        /// literal differs from the stored value, in the old literal's style.
        #[arg(long, value_name = "ID", conflicts_with = "chapter")]
        rewrite: Option<String>,
    },
    /// Run a chapter's heavy figures in release and store them in snapshots/measured/<id>.yaml.
    Measure { chapter: String },
    /// Compute the chapters' deep figures again (slow, machine-independent) and check them
    /// against snapshots/measured/ (CI runs this).
    Recheck {
        /// A chapter id (m5); every chapter with deep figures when omitted.
        chapter: Option<String>,
    },
    /// Open every page of the built book in headless Chromium: diagrams, console, raw directives;
    /// then serve the book and press chapter 11's Run it here panel (the live book).
    Browser,
    /// Save screenshots of one page (1280 x 900) to
    /// book/build/screenshots/<page>[-<theme>][-<selector>].png.
    Screenshot {
        /// The page, e.g. ch01-squares-and-bitboards.
        page: String,
        /// mdBook's themes, one picture each: light, rust, coal, navy, ayu (`--theme light,coal`);
        /// the default theme when omitted.
        #[arg(long, value_delimiter = ',')]
        theme: Vec<String>,
        /// Start the page's text at the first element this CSS selector finds (`#the-tables`,
        /// `figure.board`): what comes before is left out of the picture.
        #[arg(long)]
        at: Option<String>,
    },
    /// Chapter 19's training data: cb2026 plays itself at a fixed node count (resumable), and
    /// the quiet positions of its games are labelled with their results.
    Datagen(datagen::DatagenArgs),
    /// Run chapter 2's magic search and write the numbers it finds to
    /// crates/engine/src/magic_numbers.rs, which the engine fills its tables from.
    Magics,
    /// Play UCI engines against each other (SPRT, Elo); store the record in snapshots/games/.
    Match(Box<matches::MatchArgs>),
    /// Measure what a part of the engine costs the machine (cache misses, time).
    Perf {
        #[command(subcommand)]
        target: PerfTarget,
    },
    /// Check perft counts against data/perft-standard.epd (small ones; every one with --full).
    Perft(perft::PerftArgs),
    /// Many short games against ourselves and Debian's engines, counting every fault of the
    /// protocol (records snapshots/games/soak-*); fails if cb2026 has any.
    Soak(soak::SoakArgs),
    /// Chapter 19's Texel tuning: fit Evaluation II's weights to `cargo xtask datagen`'s
    /// positions and write crates/engine/src/eval2_tuned.rs and the losses per epoch.
    Tune(tune::TuneArgs),
    /// Search a test suite (wac, bk or an EPD file) at `go movetime N`; count the solved.
    Suite(suite::SuiteArgs),
}

/// What `cargo xtask perf` measures.
#[derive(Subcommand, Debug)]
enum PerfTarget {
    /// Perft speed, ours against Stockfish's: startpos depth 6 and Kiwipete depth 5.
    Perft(perf_perft::PerfPerftArgs),
    /// Bench speed, ours against Ethereal's (Debian): nodes per CPU second and their ratio.
    Bench(perf_bench::PerfBenchArgs),
    /// M16: the same engine built for x86-64-v2 (with POPCNT) and for the x86-64 baseline:
    /// bench's nodes per CPU second in each, and the speed-up.
    Cpu(perf_cpu::PerfCpuArgs),
    /// Threads (chapter 17): time to depth and nodes per second with 1, 2 and 4 threads, how
    /// fast `stop` reaches 8 threads, what starting helpers costs a `go`.
    Threads(perf_threads::PerfThreadsArgs),
    /// Chapter 18's cost: one evaluation with chapter 6's evaluation and with Evaluation II
    /// (running sum and pawn table, or from scratch), and bench searches' nodes per second with
    /// each (criterion).
    Eval {
        /// Write the medians to snapshots/measured/ch18-eval-cost.yaml for the book.
        #[arg(long)]
        store: bool,
    },
    /// M5's `tttouch`: the search's time with the child's table slots touched after each move
    /// and without (criterion, 256 MB table).
    Touch {
        /// Write the medians to snapshots/measured/m5-touch.yaml for the book.
        #[arg(long)]
        store: bool,
    },
    /// The transposition table: cache misses per probe and store, buckets on and off
    /// (cachegrind), and their time on this machine.
    Tt {
        /// The table's size in MB.
        #[arg(long, default_value_t = 256)]
        mb: usize,
        /// Simulate only this cache line size (64 or 128); both when omitted.
        #[arg(long)]
        line: Option<u32>,
        /// Also run criterion (`cargo bench -p cb2026 --bench tt`) and write all three to
        /// snapshots/measured/m5-tt-cost.yaml for the book (256 MB, both line sizes).
        #[arg(long)]
        store: bool,
    },
}

/// The workspace root: the folder above `xtask/`.
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask sits inside the workspace")
        .to_path_buf()
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result: Result<(), String> = match cli.command {
        Command::Root => {
            println!("{}", workspace_root().display());
            Ok(())
        }
        Command::Book => xtask::book::run(&workspace_root()),
        Command::Serve { port } => xtask::serve::run(&workspace_root(), port),
        Command::Verify => xtask::verify::run(&workspace_root()),
        Command::Figures {
            rewrite: Some(id), ..
        } => xtask::figures::rewrite::run(&workspace_root(), &id),
        Command::Figures { chapter, .. } => {
            xtask::figures::show(&workspace_root(), chapter.as_deref())
        }
        Command::Measure { chapter } => xtask::figures::measure(&workspace_root(), &chapter),
        Command::Recheck { chapter } => {
            xtask::figures::recheck(&workspace_root(), chapter.as_deref())
        }
        Command::Browser => xtask::browser::run(&workspace_root()),
        Command::Screenshot { page, theme, at } => {
            xtask::browser::screenshot(&workspace_root(), &page, &theme, at.as_deref()).map(drop)
        }
        Command::Datagen(args) => datagen::run(args, &workspace_root()),
        Command::Magics => magics::run(&workspace_root()),
        Command::Match(args) => matches::run(*args, &workspace_root()),
        Command::Soak(args) => soak::run(args, &workspace_root()),
        Command::Perf { target } => match target {
            PerfTarget::Tt { mb, line, store } => perf_tt::run(&workspace_root(), mb, line, store),
            PerfTarget::Perft(args) => perf_perft::run(&workspace_root(), &args),
            PerfTarget::Bench(args) => perf_bench::run(&workspace_root(), &args),
            PerfTarget::Cpu(args) => perf_cpu::run(&workspace_root(), &args),
            PerfTarget::Threads(args) => perf_threads::run(&workspace_root(), &args),
            PerfTarget::Touch { store } => perf_touch::run(&workspace_root(), store),
            PerfTarget::Eval { store } => perf_eval::run(&workspace_root(), store),
        },
        Command::Perft(args) => perft::run(&workspace_root(), &args),
        Command::Suite(args) => suite::run(args, &workspace_root()),
        Command::Tune(args) => tune::run(args, &workspace_root()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}
