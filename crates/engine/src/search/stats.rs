//! What a search did, counted: the figures chapters 7 to 14 and M5 quote.
//!
//! Every counter is a plain `u64` bumped by the one search thread, so counting costs an add and
//! a node-limited or depth-limited search counts the same every run.

use std::fmt;

/// Counters of one search (all iterations of one `go`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Every position searched: alpha-beta nodes and quiescence nodes.
    pub nodes: u64,
    /// The quiescence share of `nodes`.
    pub qnodes: u64,
    /// The deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// Transposition-table probes at alpha-beta nodes.
    pub tt_probes: u64,
    /// Probes that found an entry for the position.
    pub tt_hits: u64,
    /// Probes whose entry ended the node at once (non-PV nodes only).
    pub tt_cutoffs: u64,
    /// Nodes where a move scored at least beta.
    pub beta_cutoffs: u64,
    /// Of those, how many cut off on the first move tried: the measure of move ordering.
    pub first_move_cutoffs: u64,
    /// Null moves tried.
    pub null_tries: u64,
    /// Null moves that proved the node would fail high.
    pub null_cutoffs: u64,
    /// Nodes cut by reverse futility pruning.
    pub rfp_cutoffs: u64,
    /// Quiet moves skipped by futility pruning.
    pub futility_prunes: u64,
    /// Captures skipped in quiescence because they lose material (SEE < 0).
    pub see_prunes: u64,
    /// Captures skipped in quiescence because even winning their victim could not reach
    /// alpha (M17's delta pruning).
    pub qs_futility_prunes: u64,
    /// Static evaluations asked of M18's evaluation cache...
    pub eval_cache_probes: u64,
    /// ...and found there instead of computed.
    pub eval_cache_hits: u64,
    /// Moves after the first at PV nodes searched with a null window (principal variation
    /// search, chapter 10).
    pub pvs_scouts: u64,
    /// Of those, how many scored inside the window and were searched again with the full one.
    pub pvs_researches: u64,
    /// Moves searched at reduced depth by late move reductions.
    pub lmr_reductions: u64,
    /// Reduced moves that beat alpha and were searched again at full depth.
    pub lmr_researches: u64,
    /// Of the reduced moves, quiet checks (M19's `lmrchecks`)...
    pub reduced_checks: u64,
    /// ...captures that lose material (M19's `lmrnoisy`)...
    pub reduced_bad_noisy: u64,
    /// ...and quiet moves reduced a ply more for a noisy hash move (M19's `ttnoisy`).
    pub tt_noisy_reductions: u64,
    /// Root searches repeated with a wider aspiration window.
    pub aspiration_researches: u64,
    /// Moves extended because they give check.
    pub check_extensions: u64,
    /// Searches that tested whether the hash move is singular.
    pub singular_searches: u64,
    /// Hash moves found singular and extended.
    pub singular_extensions: u64,
    /// Moves listed by the generator at alpha-beta nodes: every legal move with chapter 9's
    /// picker, only the stages reached with M1's staged one.
    pub moves_generated: u64,
    /// Beta cutoffs made by the hash move before the node generated any move: M1's staged
    /// picker tries it first without generating (chapter 9's generates every move first).
    pub cutoffs_before_generation: u64,
    /// Quiet moves not searched by late move pruning (M3). With M21's `skipquiets`, only the
    /// first of a node's: the picker hands out none of the others.
    pub lmp_prunes: u64,
    /// Nodes where late move pruning told the picker to hand out no more quiet moves (M21).
    pub quiet_skips: u64,
    /// Moves not searched in the main search because they lose the exchange (M3).
    pub exchange_prunes: u64,
    /// Nodes searched a ply shallower for want of a hash move (M3).
    pub iir_reductions: u64,
    /// Quiet moves not searched because of their bad history (M2).
    pub history_prunes: u64,
    /// Nodes whose prunings used the table's score instead of the static evaluation (M3).
    pub tt_evals: u64,
    /// Razoring's quiescence searches, and the nodes they failed low (M3).
    pub razor_tries: u64,
    pub razor_cutoffs: u64,
    /// ProbCut's shallow searches of a capture, and the nodes they cut (M3).
    pub probcut_tries: u64,
    pub probcut_cutoffs: u64,
    /// Nodes the singular test cut because another move also beat beta (M3's multi-cut).
    pub multicuts: u64,
    /// Nodes searched as expected cut nodes that finished their move loop, and of those the
    /// ones that did fail high (M8).
    pub cut_nodes: u64,
    pub cut_nodes_failing_high: u64,
    /// The same for expected all nodes, and the ones that did fail low (M8).
    pub all_nodes: u64,
    pub all_nodes_failing_low: u64,
    /// Late moves reduced a ply more because their node was an expected cut node (M8).
    pub cut_node_reductions: u64,
    /// Hash moves searched a ply shallower because another move also reached the singular
    /// test's bound while the hash move beats beta (M9).
    pub negative_extensions: u64,
    /// The plies by which null-move searches were reduced beyond chapter 11's reduction,
    /// because the evaluation stood well above beta (M11).
    pub null_eval_plies: u64,
}

/// `part` as a percentage of `whole`, 0 when `whole` is 0.
fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

impl SearchStats {
    /// The share of probes that found an entry, in percent.
    pub fn tt_hit_pct(&self) -> f64 {
        percent(self.tt_hits, self.tt_probes)
    }

    /// The share of beta cutoffs made by the first move, in percent.
    pub fn first_move_cutoff_pct(&self) -> f64 {
        percent(self.first_move_cutoffs, self.beta_cutoffs)
    }

    /// The quiescence share of all nodes, in percent.
    pub fn qnode_pct(&self) -> f64 {
        percent(self.qnodes, self.nodes)
    }

    /// Adds `other`'s counters to these (seldepth: the larger). `other` is taken apart field by
    /// field, so a counter added to the struct and forgotten here does not compile.
    pub fn add(&mut self, other: &SearchStats) {
        let SearchStats {
            seldepth,
            nodes,
            qnodes,
            tt_probes,
            tt_hits,
            tt_cutoffs,
            beta_cutoffs,
            first_move_cutoffs,
            null_tries,
            null_cutoffs,
            rfp_cutoffs,
            futility_prunes,
            see_prunes,
            qs_futility_prunes,
            eval_cache_probes,
            eval_cache_hits,
            pvs_scouts,
            pvs_researches,
            lmr_reductions,
            lmr_researches,
            reduced_checks,
            reduced_bad_noisy,
            tt_noisy_reductions,
            aspiration_researches,
            check_extensions,
            singular_searches,
            singular_extensions,
            moves_generated,
            cutoffs_before_generation,
            lmp_prunes,
            quiet_skips,
            exchange_prunes,
            iir_reductions,
            history_prunes,
            tt_evals,
            razor_tries,
            razor_cutoffs,
            probcut_tries,
            probcut_cutoffs,
            multicuts,
            cut_nodes,
            cut_nodes_failing_high,
            all_nodes,
            all_nodes_failing_low,
            cut_node_reductions,
            negative_extensions,
            null_eval_plies,
        } = *other;
        self.seldepth = self.seldepth.max(seldepth);
        self.nodes += nodes;
        self.qnodes += qnodes;
        self.tt_probes += tt_probes;
        self.tt_hits += tt_hits;
        self.tt_cutoffs += tt_cutoffs;
        self.beta_cutoffs += beta_cutoffs;
        self.first_move_cutoffs += first_move_cutoffs;
        self.null_tries += null_tries;
        self.null_cutoffs += null_cutoffs;
        self.rfp_cutoffs += rfp_cutoffs;
        self.futility_prunes += futility_prunes;
        self.see_prunes += see_prunes;
        self.qs_futility_prunes += qs_futility_prunes;
        self.eval_cache_probes += eval_cache_probes;
        self.eval_cache_hits += eval_cache_hits;
        self.pvs_scouts += pvs_scouts;
        self.pvs_researches += pvs_researches;
        self.lmr_reductions += lmr_reductions;
        self.lmr_researches += lmr_researches;
        self.reduced_checks += reduced_checks;
        self.reduced_bad_noisy += reduced_bad_noisy;
        self.tt_noisy_reductions += tt_noisy_reductions;
        self.aspiration_researches += aspiration_researches;
        self.check_extensions += check_extensions;
        self.singular_searches += singular_searches;
        self.singular_extensions += singular_extensions;
        self.moves_generated += moves_generated;
        self.cutoffs_before_generation += cutoffs_before_generation;
        self.lmp_prunes += lmp_prunes;
        self.quiet_skips += quiet_skips;
        self.exchange_prunes += exchange_prunes;
        self.iir_reductions += iir_reductions;
        self.history_prunes += history_prunes;
        self.tt_evals += tt_evals;
        self.razor_tries += razor_tries;
        self.razor_cutoffs += razor_cutoffs;
        self.probcut_tries += probcut_tries;
        self.probcut_cutoffs += probcut_cutoffs;
        self.multicuts += multicuts;
        self.cut_nodes += cut_nodes;
        self.cut_nodes_failing_high += cut_nodes_failing_high;
        self.all_nodes += all_nodes;
        self.all_nodes_failing_low += all_nodes_failing_low;
        self.cut_node_reductions += cut_node_reductions;
        self.negative_extensions += negative_extensions;
        self.null_eval_plies += null_eval_plies;
    }
}

impl fmt::Display for SearchStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "nodes {} (quiescence {:.1}%)",
            self.nodes,
            self.qnode_pct()
        )?;
        writeln!(f, "seldepth {}", self.seldepth)?;
        writeln!(
            f,
            "tt probes {} hits {} ({:.1}%) cutoffs {}",
            self.tt_probes,
            self.tt_hits,
            self.tt_hit_pct(),
            self.tt_cutoffs
        )?;
        writeln!(
            f,
            "beta cutoffs {} first move {} ({:.1}%)",
            self.beta_cutoffs,
            self.first_move_cutoffs,
            self.first_move_cutoff_pct()
        )?;
        writeln!(
            f,
            "null move tries {} cutoffs {}",
            self.null_tries, self.null_cutoffs
        )?;
        writeln!(
            f,
            "rfp cutoffs {} futility prunes {} see prunes {}",
            self.rfp_cutoffs, self.futility_prunes, self.see_prunes
        )?;
        writeln!(
            f,
            "pvs null-window searches {} re-searches {}",
            self.pvs_scouts, self.pvs_researches
        )?;
        writeln!(
            f,
            "lmr reductions {} re-searches {}",
            self.lmr_reductions, self.lmr_researches
        )?;
        writeln!(f, "aspiration re-searches {}", self.aspiration_researches)?;
        writeln!(f, "check extensions {}", self.check_extensions)?;
        write!(
            f,
            "singular searches {} hash-move extensions {}",
            self.singular_searches, self.singular_extensions
        )
    }
}
