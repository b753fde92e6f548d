//! Milestone M5, buckets: one cache line per key. What eight-slot buckets change in the
//! transposition table (`set ttbuckets on|off`), measured on the six positions of chapters 10 to
//! 14, on bench, and on what a probe costs the machine.
//!
//! - [`figures`] (pinned by `cargo test`): the table's geometry, the floor-of-floor property
//!   checked through the public API (switching buckets on loses no entry), and bench's node
//!   count with buckets off and on.
//! - [`measured`] (`cargo xtask measure m5`, heavy): the six positions at depths 12 and 15 in
//!   tables of 1 to 64 MB and bench's speed off and on. It also draws the plot
//!   `book/src/m5-hit-share.svg` from the searches it has just run, so the plot and the stored
//!   figures always agree.
//!
//! What a probe costs the machine is measured by tools outside this program, so `cargo xtask
//! perf tt --store` runs them and stores their figures (`snapshots/measured/m5-tt-cost.yaml`):
//! criterion's probe timings (`cargo bench -p cb2026 --bench tt`), cachegrind's misses per
//! probe and the driver's own timing (`m5.measured.criterion.*`, `.cachegrind.*`, `.driver.*`).
//!
//! Every search is single-threaded, at a fixed depth, from an empty table with cleared
//! histories, as bench is: its node counts are the same on every machine and every run.

use crate::ch01::position;
use crate::ch02::{clock_name, load_average, time_medians};
use crate::ch07::{comment_depths, median_depth};
use crate::{Chapter, Figure, Figures};
use cb2026::bench::{self, SixPosition};
use cb2026::magic::SplitMix64;
use cb2026::search::{SearchStats, Searcher};
use cb2026::switches::{Stage, Switches};
use cb2026::tt::{
    BUCKET_SLOTS, Bound, CACHE_LINE_BYTES, Geometry, LINE64_SLOTS, TranspositionTable,
};
use std::fmt::Write as _;
use std::hint::black_box;

/// Milestone M5 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "m5",
    title: "Buckets: one cache line per key",
    bin: "m5-buckets",
    figures,
    measured: Some(measured),
    deep: Some(deep),
    print_tables,
};

/// The depths of the chapter's tables: 12 as in bench, and 15.
const DEPTHS: [u32; 2] = [12, 15];

/// The table sizes of the plot, in MB (UCI's `Hash`; 1 MB is the smallest it allows).
const SIZES_MB: [usize; 6] = [1, 2, 4, 8, 16, 64];

/// The two sizes of the chapter's tables: a table under pressure and the default.
const TABLE_SIZES_MB: [usize; 2] = [1, 16];

/// Where the plot goes, relative to the repository.
const PLOT: &str = "book/src/m5-hit-share.svg";

/// A table the chapter compares: a geometry, and the same-position rule of chapter 8 or of
/// `ttkeepdeep`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Config {
    geometry: Geometry,
    keep_deeper: bool,
}

impl Config {
    /// Chapter 8's table: one slot per key.
    const OFF: Config = Config::of(Geometry::OneSlot, false);
    /// Eight slots per key (`ttbuckets`).
    const ON: Config = Config::of(Geometry::EightSlots, false);
    /// Four slots per key (`ttbuckets64`).
    const LINE64: Config = Config::of(Geometry::FourSlots, false);
    /// One slot per key that keeps a deeper result for its position (`ttkeepdeep`).
    const KEEPDEEP: Config = Config::of(Geometry::OneSlot, true);

    const fn of(geometry: Geometry, keep_deeper: bool) -> Config {
        Config {
            geometry,
            keep_deeper,
        }
    }

    /// `off`, `on` or `line64`, or `keepdeep`, as keys and tables say it.
    fn mode(self) -> &'static str {
        match (self.geometry, self.keep_deeper) {
            (_, true) => "keepdeep",
            (Geometry::OneSlot, false) => "off",
            (Geometry::FourSlots, false) => "line64",
            (Geometry::EightSlots, false) => "on",
        }
    }

    /// Sets the table's three switches in `switches` (stage M5's has them all on).
    fn set(self, switches: &mut Switches) {
        switches.ttbuckets = self.geometry == Geometry::EightSlots;
        switches.ttbuckets64 = self.geometry == Geometry::FourSlots;
        switches.ttkeepdeep = self.keep_deeper;
    }
}

/// The configuration of `set ttbuckets on|off`.
fn eight_or_one(buckets: bool) -> Config {
    if buckets { Config::ON } else { Config::OFF }
}

/// What one configuration did on the six positions.
#[derive(Clone, Debug)]
struct SixRun {
    depth: u32,
    mb: usize,
    config: Config,
    /// The search's counters, one per position, in file order.
    per_position: Vec<SearchStats>,
    /// The table's own counters, summed over the positions: its probes and hits (quiescence
    /// nodes probe too, and the search's counters leave them out), stores and refusals.
    probes: u64,
    hits: u64,
    stores: u64,
    refused: u64,
    /// The thread's CPU time (or the wall clock, see [`clock_name`]) for the six, in seconds.
    seconds: f64,
}

impl SixRun {
    /// The counters summed over the six positions.
    fn total(&self) -> SearchStats {
        let mut total = SearchStats::default();
        for stats in &self.per_position {
            total.add(stats);
        }
        total
    }

    /// The start of this run's keys: `m5.d12.1mb.on` (or `m5.measured.d12...`).
    fn key(&self, prefix: &str) -> String {
        format!(
            "{prefix}.d{}.{}mb.{}",
            self.depth,
            self.mb,
            self.config.mode()
        )
    }

    /// The share of the search's probes (one at every alpha-beta node, as chapter 8 counts
    /// them) that found an entry.
    fn hit_pct(&self) -> Figure {
        let total = self.total();
        Figure::percent(total.tt_hits, total.tt_probes.max(1), 1)
    }

    /// The share of results the table turned away (chapter 8's rule kept the old entry).
    fn refused_pct(&self) -> Figure {
        Figure::percent(self.refused, (self.stores + self.refused).max(1), 1)
    }

    /// Adds each position's nodes and share of probes that found an entry under `prefix`.
    fn add_position_figures(&self, f: &mut Figures, prefix: &str) {
        let key = self.key(prefix);
        for (six, stats) in bench::six_positions().iter().zip(&self.per_position) {
            f.add(&format!("{key}.{}.nodes", six.id), stats.nodes).add(
                &format!("{key}.{}.hit_pct", six.id),
                Figure::percent(stats.tt_hits, stats.tt_probes.max(1), 1),
            );
        }
    }

    /// Adds this run's figures under `prefix`.
    fn add_figures(&self, f: &mut Figures, prefix: &str) {
        let key = self.key(prefix);
        let total = self.total();
        f.add(&format!("{key}.nodes"), total.nodes)
            .add(&format!("{key}.hit_pct"), self.hit_pct())
            .add(
                &format!("{key}.all_hit_pct"),
                Figure::percent(self.hits, self.probes.max(1), 1),
            )
            .add(&format!("{key}.refused_pct"), self.refused_pct())
            .add(&format!("{key}.singular_searches"), total.singular_searches)
            .add(&format!("{key}.extensions"), total.singular_extensions);
    }
}

/// Searches each of the six positions to `depth` in a table of `mb` megabytes with one, four
/// or eight slots per key, from an empty table and cleared histories each time.
fn search_six(depth: u32, mb: usize, config: Config) -> SixRun {
    // At stage M5: every feature of the book on (singular extensions included, which the
    // engine ships off), buckets as asked.
    let mut searcher = Searcher::new(mb);
    let mut switches = Stage::Milestone(5).switches();
    config.set(&mut switches);
    searcher.set_switches(switches);
    let mut run = SixRun {
        depth,
        mb,
        config,
        per_position: Vec::new(),
        probes: 0,
        hits: 0,
        stores: 0,
        refused: 0,
        seconds: 0.0,
    };
    for six in bench::six_positions() {
        let pos = position(six.fen);
        searcher.clear();
        let mut stats = SearchStats::default();
        let time = time_medians(
            1,
            &mut [&mut || {
                stats = searcher.search_depth(&pos, depth).stats;
            }],
        );
        let counters = searcher.tt().counters();
        run.per_position.push(stats);
        run.probes += counters.probes;
        run.hits += counters.hits;
        run.stores += counters.stores;
        run.refused += counters.refused;
        run.seconds += time[0].as_secs_f64();
    }
    run
}

/// Change from `before` to `after` in percent, to one decimal.
fn change_pct(before: u64, after: u64) -> Figure {
    Figure::fixed(100.0 * (after as f64 - before as f64) / before as f64, 1)
}

// -------------------------------------------------------------------------------------------
// The pinned figures

/// Tables of every bucket count up to this are checked for the floor-of-floor property.
const FLOOR_TABLES: usize = 256;
/// Keys stored in each of those tables, per bucket: enough to fill and overfill it.
const FLOOR_KEYS_PER_BUCKET: usize = 12;

/// What switching buckets on and then off again does to the entries of small tables.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct SwitchCheck {
    tables: usize,
    /// Keys stored with buckets off and found there.
    found_off: u64,
    /// Of those, how many a probe no longer finds once buckets are on (the property: none).
    lost_switching_on: u64,
    /// Keys stored with buckets on and found there.
    found_on: u64,
    /// Of those, how many a probe still finds once buckets are off.
    kept_switching_off: u64,
}

/// Checks, through the table's public API only, that a key's own slot lies in its bucket:
/// every entry stored with buckets off is found again with buckets on. (The unit tests in
/// `tt.rs` check the same of `slots_for` itself.) Then measures the other direction.
fn switch_check() -> SwitchCheck {
    let mut check = SwitchCheck::default();
    let mut keys = SplitMix64::new(5);
    for count in 1..=FLOOR_TABLES {
        check.tables += 1;
        let batch: Vec<u64> = (0..count * FLOOR_KEYS_PER_BUCKET)
            .map(|_| keys.next_u64())
            .collect();
        for buckets_first in [false, true] {
            let mut table = TranspositionTable::with_bucket_count(count);
            table.set_buckets(buckets_first);
            for &key in &batch {
                table.store(key, None, 0, 1, Bound::Exact);
            }
            let found: Vec<u64> = batch
                .iter()
                .copied()
                .filter(|&key| table.probe(key).is_some())
                .collect();
            table.set_buckets(!buckets_first);
            let still = found.iter().filter(|&&k| table.probe(k).is_some()).count() as u64;
            if buckets_first {
                check.found_on += found.len() as u64;
                check.kept_switching_off += still;
            } else {
                check.found_off += found.len() as u64;
                check.lost_switching_on += found.len() as u64 - still;
            }
        }
    }
    check
}

/// Milestone M5's cheap figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("m5");
    let one_mb = TranspositionTable::new(1);
    f.add("m5.line_bytes", CACHE_LINE_BYTES)
        .add("m5.bucket_slots", BUCKET_SLOTS)
        .add("m5.slot_bytes", CACHE_LINE_BYTES / BUCKET_SLOTS)
        .add("m5.line64.slots", LINE64_SLOTS)
        .add("m5.line64.bytes", Geometry::FourSlots.bytes())
        .add("m5.mb1.slots", one_mb.slot_count())
        .add("m5.mb1.buckets", one_mb.bucket_count());

    let check = switch_check();
    f.add("m5.switch.tables", check.tables)
        .add("m5.switch.on.found", check.found_off)
        .add("m5.switch.on.lost", check.lost_switching_on)
        .add(
            "m5.switch.off.kept_pct",
            Figure::percent(check.kept_switching_off, check.found_on, 1),
        );

    let (off, on) = (bench_nodes(Config::OFF), bench_nodes(Config::ON));
    let four = bench_nodes(Config::LINE64);
    let keep = bench_nodes(Config::KEEPDEEP);
    f.add("m5.bench.off.nodes", off)
        .add("m5.bench.on.nodes", on)
        .add("m5.bench.nodes_change_pct", change_pct(off, on))
        .add("m5.bench.line64.nodes", four)
        .add("m5.bench.line64.nodes_change_pct", change_pct(off, four))
        .add("m5.bench.keepdeep.nodes", keep)
        .add("m5.bench.keepdeep.nodes_change_pct", change_pct(off, keep));

    for record in GAME_RECORDS {
        let depths = move_depths(&crate::records::pgn(record));
        f.add(&format!("m5.games.{record}.moves"), depths.len())
            .add(
                &format!("m5.games.{record}.median_depth"),
                median_depth(&depths),
            );
    }
    f
}

/// The match records the chapter quotes (`snapshots/games/<name>.json` and `.pgn`).
const GAME_RECORDS: [&str; 3] = ["m5-stc", "m5-ltc", "m5-hash1"];

/// The depth of every move in a match record's PGN, read from the comment the arena writes after
/// each move, `{+0.12/9 0.157s}`: the engine's score, a slash, the depth it finished. How deep
/// the games searched says which of the chapter's fixed-depth measurements they resemble.
fn move_depths(pgn: &str) -> Vec<u32> {
    comment_depths(pgn).collect()
}

// -------------------------------------------------------------------------------------------
// The measured figures

/// Bench runs per mode for its speed; the median is kept.
const BENCH_RUNS: usize = 5;

/// Milestone M5's heavy figures: bench's speed, then the searches, whose figures are [`deep`]'s
/// plus their times, then the plot. (The probe's cost is `cargo xtask perf tt --store`'s.)
pub fn measured() -> Figures {
    let mut f = Figures::new("m5");
    let root = crate::repository_root();
    // The timings below are only as good as the machine is quiet: its load is recorded before
    // and after.
    f.add("m5.measured.load_before", load_average());
    eprintln!("m5: bench off and on, {BENCH_RUNS} runs each");
    add_bench_speed(&mut f);

    let runs = search_every_configuration();
    add_search_figures(&mut f, &runs);
    for run in &runs {
        if TABLE_SIZES_MB.contains(&run.mb) && run.config == Config::OFF {
            let key = run.key("m5.measured");
            f.add(&format!("{key}.seconds"), Figure::fixed(run.seconds, 1));
        }
    }
    f.add("m5.measured.clock", clock_name())
        .add("m5.measured.load_after", load_average());

    let plot = root.join(PLOT);
    if let Err(error) = std::fs::write(&plot, hit_share_svg(&runs)) {
        panic!("cannot write {}: {error}", plot.display());
    }
    eprintln!("m5: wrote {}", plot.display());
    f
}

/// Milestone M5's deep figures: what the searches count at depths 12 and 15 in every table
/// size, the same on every machine. `cargo xtask recheck` computes them again in CI and
/// compares them with the stored ones. The plot is drawn from the same numbers, so it is
/// checked too: this panics if the plot it would draw differs from the one in the book.
pub fn deep() -> Figures {
    let runs = search_every_configuration();
    let mut f = Figures::new("m5");
    add_search_figures(&mut f, &runs);
    let plot = crate::repository_root().join(PLOT);
    let drawn = std::fs::read_to_string(&plot).unwrap_or_default();
    assert!(
        drawn == hit_share_svg(&runs),
        "{} is not the plot of these searches: redraw it with `cargo xtask measure m5`",
        plot.display()
    );
    f
}

/// The six positions at every depth of [`DEPTHS`] and size of [`SIZES_MB`], buckets off and on,
/// and at the chapter's two sizes with four-slot buckets too.
fn search_every_configuration() -> Vec<SixRun> {
    let mut runs = Vec::new();
    for depth in DEPTHS {
        for mb in SIZES_MB {
            for config in [Config::OFF, Config::ON, Config::LINE64, Config::KEEPDEEP] {
                // Four slots and the keep-deeper rule at the chapter's two sizes only.
                let every_size = [Config::OFF, Config::ON].contains(&config);
                if !every_size && !TABLE_SIZES_MB.contains(&mb) {
                    continue;
                }
                eprintln!(
                    "m5: six positions, depth {depth}, {mb} MB, table {}",
                    config.mode()
                );
                runs.push(search_six(depth, mb, config));
            }
        }
    }
    runs
}

/// The searches' figures, all but their times: the chapter's two sizes in full, every size's
/// share of nodes that find an entry (the plot's points), and the comparisons.
fn add_search_figures(f: &mut Figures, runs: &[SixRun]) {
    for run in runs {
        if TABLE_SIZES_MB.contains(&run.mb) {
            run.add_figures(f, "m5.measured");
            run.add_position_figures(f, "m5.measured");
        } else {
            let key = run.key("m5.measured");
            f.add(&format!("{key}.hit_pct"), run.hit_pct());
        }
    }
    add_comparisons(f, runs);
}

/// The run of `depth`, `mb` and `config` among `runs`.
fn find(runs: &[SixRun], depth: u32, mb: usize, config: Config) -> &SixRun {
    runs.iter()
        .find(|r| r.depth == depth && r.mb == mb && r.config == config)
        .expect("every configuration was run")
}

/// The comparisons the prose makes: buckets on against off at each size and depth, and the
/// 1 MB table with buckets against the 16 MB one.
fn add_comparisons(f: &mut Figures, runs: &[SixRun]) {
    for depth in DEPTHS {
        for mb in TABLE_SIZES_MB {
            let off = find(runs, depth, mb, Config::OFF).total();
            let four = find(runs, depth, mb, Config::LINE64).total();
            let on = find(runs, depth, mb, Config::ON).total();
            let keep = find(runs, depth, mb, Config::KEEPDEEP).total();
            let key = format!("m5.measured.d{depth}.{mb}mb");
            f.add(
                &format!("{key}.nodes_change_pct"),
                change_pct(off.nodes, on.nodes),
            )
            .add(
                &format!("{key}.line64.nodes_change_pct"),
                change_pct(off.nodes, four.nodes),
            )
            .add(
                &format!("{key}.line64_vs_on.nodes_change_pct"),
                change_pct(on.nodes, four.nodes),
            )
            .add(
                &format!("{key}.keepdeep.nodes_change_pct"),
                change_pct(off.nodes, keep.nodes),
            )
            .add(
                &format!("{key}.singular_change_pct"),
                change_pct(off.singular_searches, on.singular_searches),
            )
            .add(
                &format!("{key}.extensions_change_pct"),
                change_pct(off.singular_extensions, on.singular_extensions),
            );
        }
        // The small table with buckets against the large one, with buckets and without.
        let small = find(runs, depth, 1, Config::ON);
        for buckets in [false, true] {
            let large = find(runs, depth, 16, eight_or_one(buckets));
            let key = format!(
                "m5.measured.d{depth}.1mb_on_vs_16mb_{}",
                eight_or_one(buckets).mode()
            );
            f.add(
                &format!("{key}.nodes_change_pct"),
                change_pct(large.total().nodes, small.total().nodes),
            )
            .add(
                &format!("{key}.max_hit_pct_gap"),
                Figure::fixed(max_hit_gap(small, large), 1),
            );
        }
    }
}

/// The largest difference, over the six positions, between two runs' shares of probes that
/// found an entry, in percentage points.
fn max_hit_gap(a: &SixRun, b: &SixRun) -> f64 {
    let share = |s: &SearchStats| 100.0 * s.tt_hits as f64 / s.tt_probes.max(1) as f64;
    a.per_position
        .iter()
        .zip(&b.per_position)
        .map(|(x, y)| (share(x) - share(y)).abs())
        .fold(0.0, f64::max)
}

/// bench's node count (the 50 positions at its depth, 16 MB, each from an empty table) with
/// buckets on or off.
fn bench_nodes(config: Config) -> u64 {
    let mut switches = crate::engine_before_m12();
    config.set(&mut switches);
    bench::run(bench::DEFAULT_DEPTH, switches, &mut std::io::sink())
        .expect("writing to a sink cannot fail")
        .nodes
}

/// bench's speed with buckets off and on: the median of [`BENCH_RUNS`] runs each, taken in
/// turns, in thousands of nodes per second of the thread's CPU time.
fn add_bench_speed(f: &mut Figures) {
    let mut nodes = [0u64; 2];
    let [off_nodes, on_nodes] = &mut nodes;
    let times = time_medians(
        BENCH_RUNS,
        &mut [
            &mut || *off_nodes = black_box(bench_nodes(Config::OFF)),
            &mut || *on_nodes = black_box(bench_nodes(Config::ON)),
        ],
    );
    let knps = |i: usize| nodes[i] as f64 / times[i].as_secs_f64() / 1e3;
    f.add("m5.measured.bench.off.knps", Figure::fixed(knps(0), 0))
        .add("m5.measured.bench.on.knps", Figure::fixed(knps(1), 0))
        .add(
            "m5.measured.bench.nps_change_pct",
            Figure::fixed(100.0 * (knps(1) / knps(0) - 1.0), 1),
        );
}

// -------------------------------------------------------------------------------------------
// The plot

/// One line of the plot.
struct Series {
    label: String,
    colour: &'static str,
    dashed: bool,
    /// (table size in MB, share of probes that found an entry in percent).
    points: Vec<(usize, f64)>,
}

/// The plot's lines: for each depth, buckets off and on, the share of probes that found an
/// entry against the table's size.
fn plot_series(runs: &[SixRun]) -> Vec<Series> {
    let mut series = Vec::new();
    for depth in DEPTHS {
        for buckets in [false, true] {
            let points = SIZES_MB
                .iter()
                .map(|&mb| {
                    let run = find(runs, depth, mb, eight_or_one(buckets));
                    let total = run.total();
                    (
                        mb,
                        100.0 * total.tt_hits as f64 / total.tt_probes.max(1) as f64,
                    )
                })
                .collect();
            series.push(Series {
                label: format!("depth {depth}, buckets {}", eight_or_one(buckets).mode()),
                colour: if buckets { "#d95f02" } else { "#1b9e77" },
                dashed: depth == DEPTHS[0],
                points,
            });
        }
    }
    series
}

/// The plot as a self-contained SVG: table size on a base-2 logarithmic axis, share of probes
/// that found an entry on the other, one line per series. Written by hand (a few lines of
/// text, no plotting library) and deterministic: the same figures give the same bytes.
fn hit_share_svg(runs: &[SixRun]) -> String {
    render_svg(&plot_series(runs))
}

fn render_svg(series: &[Series]) -> String {
    const WIDTH: f64 = 640.0;
    const HEIGHT: f64 = 400.0;
    const LEFT: f64 = 70.0;
    const RIGHT: f64 = 200.0;
    const TOP: f64 = 40.0;
    const BOTTOM: f64 = 60.0;
    let (plot_w, plot_h) = (WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM);
    let all: Vec<(usize, f64)> = series.iter().flat_map(|s| s.points.clone()).collect();
    let low = all.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
    let high = all.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
    // The value axis in whole steps of 5 percentage points around the data.
    let (y_min, y_max) = (
        (low / 5.0).floor() * 5.0,
        ((high / 5.0).ceil() * 5.0).max(low + 5.0),
    );
    let x_max = all.iter().map(|p| p.0).max().unwrap_or(1).max(2) as f64;
    let x = |mb: usize| LEFT + plot_w * (mb as f64).log2() / x_max.log2();
    let y = |pct: f64| TOP + plot_h * (y_max - pct) / (y_max - y_min);

    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(
        svg,
        r#"<title>Share of probes that find an entry against table size, buckets off and on</title>"#
    );
    let _ = writeln!(
        svg,
        r#"<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>"#
    );
    // Grid and value axis.
    let mut pct = y_min;
    while pct <= y_max + 1e-9 {
        let at = y(pct);
        let _ = writeln!(
            svg,
            r##"<line x1="{LEFT}" y1="{at:.1}" x2="{:.1}" y2="{at:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{pct:.0} %</text>"##,
            LEFT + plot_w,
            LEFT - 6.0,
            at + 4.0
        );
        pct += 5.0;
    }
    // Size axis: one tick per size measured.
    let mut sizes: Vec<usize> = all.iter().map(|p| p.0).collect();
    sizes.sort_unstable();
    sizes.dedup();
    for mb in sizes {
        let at = x(mb);
        let _ = writeln!(
            svg,
            r##"<line x1="{at:.1}" y1="{TOP}" x2="{at:.1}" y2="{:.1}" stroke="#eee"/><text x="{at:.1}" y="{:.1}" text-anchor="middle">{mb}</text>"##,
            TOP + plot_h,
            TOP + plot_h + 18.0
        );
    }
    let _ = writeln!(
        svg,
        r##"<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#444"/>"##
    );
    let _ = writeln!(
        svg,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">table size (MB, UCI Hash)</text>"#,
        LEFT + plot_w / 2.0,
        HEIGHT - 15.0
    );
    let _ = writeln!(
        svg,
        r#"<text transform="translate(18 {:.1}) rotate(-90)" text-anchor="middle">alpha-beta probes that find an entry</text>"#,
        TOP + plot_h / 2.0
    );
    let _ = writeln!(
        svg,
        r#"<text x="{LEFT}" y="22" font-size="14">The six positions, each from an empty table</text>"#
    );
    // The lines, with a dot at each measurement, and the legend.
    for (i, s) in series.iter().enumerate() {
        let dash = if s.dashed {
            r#" stroke-dasharray="6 4""#
        } else {
            ""
        };
        let points: Vec<String> = s
            .points
            .iter()
            .map(|&(mb, pct)| format!("{:.1},{:.1}", x(mb), y(pct)))
            .collect();
        let _ = writeln!(
            svg,
            r#"<polyline fill="none" stroke="{}" stroke-width="2"{dash} points="{}"/>"#,
            s.colour,
            points.join(" ")
        );
        for &(mb, pct) in &s.points {
            let _ = writeln!(
                svg,
                r#"<circle cx="{:.1}" cy="{:.1}" r="3" fill="{}"/>"#,
                x(mb),
                y(pct),
                s.colour
            );
        }
        let legend_y = TOP + 10.0 + 22.0 * i as f64;
        let legend_x = LEFT + plot_w + 15.0;
        let _ = writeln!(
            svg,
            r#"<line x1="{legend_x:.1}" y1="{legend_y:.1}" x2="{:.1}" y2="{legend_y:.1}" stroke="{}" stroke-width="2"{dash}/><text x="{:.1}" y="{:.1}">{}</text>"#,
            legend_x + 28.0,
            s.colour,
            legend_x + 34.0,
            legend_y + 4.0,
            s.label
        );
    }
    svg.push_str("</svg>\n");
    svg
}

// -------------------------------------------------------------------------------------------
// The tables for a person

/// Prints one table: a row per position and a total, for each configuration in `runs`.
fn print_six_table(runs: &[&SixRun], positions: &[SixPosition]) {
    print!("{:<14}", "position");
    for run in runs {
        print!(" {:>22}", format!("{} MB {}", run.mb, run.config.mode()));
    }
    println!();
    let row = |name: &str, stats: &dyn Fn(&SixRun) -> SearchStats| {
        print!("{name:<14}");
        for run in runs {
            let s = stats(run);
            let hit = 100.0 * s.tt_hits as f64 / s.tt_probes.max(1) as f64;
            print!(" {:>12} {:>8.1}%", s.nodes, hit);
        }
        println!();
    };
    for (i, six) in positions.iter().enumerate() {
        row(six.id, &|run: &SixRun| run.per_position[i]);
    }
    row("total", &|run: &SixRun| run.total());
    print!("{:<14}", "singular");
    for run in runs {
        let t = run.total();
        print!(" {:>12} {:>9}", t.singular_searches, t.singular_extensions);
    }
    println!("   (searches, extensions)");
    print!("{:<14}", "all probes");
    for run in runs {
        let hit = Figure::percent(run.hits, run.probes.max(1), 1);
        print!(" {:>22}", format!("{hit}% hit"));
    }
    println!("   (quiescence included)");
    print!("{:<14}", "refused");
    for run in runs {
        print!(" {:>22}", format!("{}%", run.refused_pct()));
    }
    println!();
}

fn print_tables() {
    let positions = bench::six_positions();
    println!("M5, buckets: the six positions, each searched from an empty table, one thread.");
    println!(
        "Each cell: nodes, and the share of probes (one per alpha-beta node) that found an entry.\n"
    );
    let depth = DEPTHS[0];
    let mut runs = Vec::new();
    for mb in TABLE_SIZES_MB {
        for config in [Config::OFF, Config::ON, Config::LINE64, Config::KEEPDEEP] {
            runs.push(search_six(depth, mb, config));
        }
    }
    println!("depth {depth}");
    print_six_table(&runs.iter().collect::<Vec<_>>(), &positions);
    println!();
    println!(
        "Depth 15, the other table sizes, bench's speed and the probe timings: \
         `cargo xtask measure m5`.\n"
    );
    print!("{}", figures().to_yaml());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn switching_buckets_on_loses_no_entry_and_switching_off_loses_some() {
        let check = switch_check();
        assert_eq!(check.lost_switching_on, 0);
        assert!(check.found_off > 0);
        assert!(check.kept_switching_off > 0 && check.kept_switching_off < check.found_on);
    }

    #[test]
    fn reads_the_depth_of_every_commented_move() {
        let pgn = "[Event \"m5-ltc\"]\n[TimeControl \"8+0.08\"]\n\n\
                   9. O-O {-0.24/8 0.317s} Be6 {+0.02/11 0.423s} 10. Qh5 {+M3/5 0.01s}\n\
                   Kh8 {Black resigns (adjudication 3/3)} 1/2-1/2\n";
        assert_eq!(move_depths(pgn), vec![8, 11, 5]);
        assert_eq!(median_depth(&move_depths(pgn)), Figure::Int(8));
        assert_eq!(median_depth(&[]), Figure::Int(0));
    }

    #[test]
    fn the_plot_has_a_line_and_a_dot_per_measurement() {
        let series = vec![
            Series {
                label: "a".into(),
                colour: "#000",
                dashed: false,
                points: vec![(1, 40.0), (4, 50.0), (64, 52.5)],
            },
            Series {
                label: "b".into(),
                colour: "#111",
                dashed: true,
                points: vec![(1, 45.0), (4, 51.0), (64, 52.5)],
            },
        ];
        let svg = render_svg(&series);
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert_eq!(svg.matches("<circle").count(), 6);
        assert!(svg.contains("stroke-dasharray"));
        // 1 MB sits on the left edge, 64 MB on the right; 40 % is the axis's bottom.
        assert!(svg.contains(r#"points="70.0,340.0 "#), "{svg}");
        assert!(svg.contains("440.0,"), "{svg}");
        assert_eq!(svg, render_svg(&series), "deterministic");
    }
}
