/**
 * Turns an EvalRun into the terminal report (SPOC Table 2 layout) and into the --json document.
 * No metric is computed here beyond picking and averaging what src/metrics returned.
 */
import { rowLabel, spocTableRows, type SpocTableRow } from '../src/metrics/spocTable';
import {
  type MiouScore,
  type ProgressSummary,
  type SpocColumns,
  nanMean,
  scoreClips,
  summarizeProgress,
} from '../src/metrics';
import type { ClipResult, DavisStats, EvalRun, StateKey } from './evaluate';
import { STATES } from './evaluate';
import { renderTable, type Cell } from './table';

export const JSON_SCHEMA = 'spoc-studio/eval/1';

const CONVENTION_TEXT = {
  'clip-pooled': 'per clip and state, I and U summed over its evaluated frames, clip IoU = I/U; mIoU = mean over clips',
  'per-frame': 'per clip and state, mean of the frame IoUs; mIoU = mean over clips',
  'dataset-pooled': 'per state, I and U summed over every evaluated frame of every clip; mIoU = I/U',
} as const;

/** One row of the SPOC table: the same rows the app's project panel shows (src/metrics/spocTable.ts). */
export type TableRow = SpocTableRow;

function verbsOf(run: EvalRun): string[] {
  return Object.keys(run.report.all.perVerb).sort();
}

function clipsOfVerb(run: EvalRun, verb: string): ClipResult[] {
  return run.clips.filter((c) => c.verb === verb);
}

/**
 * The rows of the SPOC table: mean over verbs, mean over clips, then one row per verb, picked by the
 * same function as the app's project panel. Without the taxonomy (DAVIS layout) seen and novel are
 * not defined.
 */
export function tableRows(run: EvalRun): TableRow[] {
  const rows = spocTableRows(run.report, run.clips);
  return run.taxonomy ? rows : rows.map((r) => ({ ...r, seen: NaN, novel: NaN }));
}

export interface ProgressRow {
  row: TableRow['row'];
  verb: string | null;
  clips: number;
  /** Kendall tau of the prediction's curve (want -1), of the GT curve for reference. */
  tau: number;
  tau_gt: number;
  end_sigma: number;
  end_l2: number;
  end_rms: number;
}

export function progressRows(run: EvalRun): ProgressRow[] {
  const summary = (clips: readonly ClipResult[]): { p: ProgressSummary; g: ProgressSummary } => ({
    p: summarizeProgress(clips.map((c) => c.progress)),
    g: summarizeProgress(clips.map((c) => c.progressGt)),
  });
  const toRow = (row: TableRow['row'], verb: string | null, clips: number, p: ProgressSummary, g: ProgressSummary): ProgressRow => ({
    row,
    verb,
    clips,
    tau: p.tau,
    tau_gt: g.tau,
    end_sigma: p.endSigma,
    end_l2: p.endL2,
    end_rms: p.endRms,
  });
  const perVerb = verbsOf(run).map((v) => {
    const clips = clipsOfVerb(run, v);
    const s = summary(clips);
    return toRow('verb', v, clips.length, s.p, s.g);
  });
  const all = summary(run.clips);
  const mean = (k: keyof ProgressRow): number => nanMean(perVerb.map((r) => r[k] as number));
  return [
    {
      row: 'mean_over_verbs',
      verb: null,
      clips: run.clips.length,
      tau: mean('tau'),
      tau_gt: mean('tau_gt'),
      end_sigma: mean('end_sigma'),
      end_l2: mean('end_l2'),
      end_rms: mean('end_rms'),
    },
    toRow('mean_over_clips', null, run.clips.length, all.p, all.g),
    ...perVerb,
  ];
}

export interface DavisRow {
  state: StateKey;
  /** Clips whose GT shows the state in at least one evaluated frame. */
  clips: number;
  JF: number;
  J_mean: number;
  J_recall: number;
  J_decay: number;
  F_mean: number;
  F_recall: number;
  F_decay: number;
}

/** DAVIS summary per state: each statistic averaged over the clips that have the state (as DAVIS averages over objects). */
export function davisRows(run: EvalRun): DavisRow[] {
  return STATES.map((state) => {
    const stats = run.clips.map((c) => c.davis?.[state]).filter((s): s is DavisStats => !!s);
    const m = (get: (s: DavisStats) => number): number => nanMean(stats.map(get));
    const jMean = m((s) => s.j.mean);
    const fMean = m((s) => s.f.mean);
    return {
      state,
      clips: stats.length,
      JF: (jMean + fMean) / 2,
      J_mean: jMean,
      J_recall: m((s) => s.j.recall),
      J_decay: m((s) => s.j.decay),
      F_mean: fMean,
      F_recall: m((s) => s.f.recall),
      F_decay: m((s) => s.f.decay),
    };
  });
}

const STATE_LABEL: Record<StateKey, string> = { act: 'actionable', trf: 'transformed', obj: 'object (w/o OSC)' };

/** The terminal report (stdout). */
export function formatReport(run: EvalRun): string {
  const cov = run.report.coverage;
  const out: string[] = [];
  out.push(
    `GT    ${run.gt.dirArg}: ${run.gt.description}; ${run.gt.videos.length} clips, ${run.gt.frameCount} frames\n`,
    `Pred  ${run.pred.dirArg}: ${run.pred.description}; ${run.pred.videos.length} clips, ${run.pred.frameCount} frames\n`,
    `Convention  ${run.convention}: ${CONVENTION_TEXT[run.convention]}\n`,
    `Frames      ${cov.evaluatedFrames} evaluated, ${cov.ignoredFrames} ignored, ${cov.missingPredictions} missing predictions (scored as empty)\n`,
  );
  if (!run.taxonomy) out.push('Verbs       DAVIS layout: no <verb>_<noun> folders, so verb "unknown" and no seen/novel split\n');
  out.push('\nSPOC mIoU (Table 2 layout): mIoU = (mIoU_act + mIoU_trf) / 2; w/o OSC = both states fused into one object mask;\n');
  out.push('seen / novel / transition = mIoU on clips of seen or novel objects and on transitioning frames; blank = not defined\n');
  const rows = tableRows(run);
  out.push(
    renderTable(
      ['verb', 'clips', 'mIoU', 'mIoU_act', 'mIoU_trf', 'w/o OSC', 'seen', 'novel', 'transition'],
      rows.map((r): Cell[] => [rowLabel(r), r.clips, r.mIoU, r.mIoU_act, r.mIoU_trf, r.wo_osc, r.seen, r.novel, r.transition]),
      { integerColumns: [1] },
    ),
  );

  const withPhases = run.clips.filter((c) => c.phasesKnown).length;
  if (withPhases > 0) {
    out.push(
      `\nProgress (${withPhases} of ${run.clips.length} clips have phases): R_t = A_act / (A_act + A_trf) of the prediction;\n`,
      'tau = Kendall tau of R_t against time (want -1; tau_GT = same for the GT curve); end_sigma, end_l2 over GT end-state frames (want 0)\n',
    );
    out.push(
      renderTable(
        ['verb', 'clips', 'tau', 'tau_GT', 'end_sigma', 'end_l2'],
        progressRows(run).map((r): Cell[] => [rowLabel(r), r.clips, r.tau, r.tau_gt, r.end_sigma, r.end_l2]),
        { integerColumns: [1], signedColumns: [2, 3] },
      ),
    );
  } else {
    out.push('\nProgress: no phase labels found (<osc>/meta/<video>.json "phases"), so no transition column and no end-state metrics;\n');
    out.push('per-clip progress curves and Kendall tau are in --json.\n');
  }

  if (run.boundary) {
    out.push(
      '\nDAVIS J&F per state: per frame J (region) and F (boundary, radius 0.008 x diagonal), GT labels 4/5/255 void;\n',
      'per clip mean / recall (> 0.5) / decay; averaged over the clips whose GT shows the state\n',
    );
    out.push(
      renderTable(
        ['state', 'clips', 'J&F', 'J_mean', 'J_recall', 'J_decay', 'F_mean', 'F_recall', 'F_decay'],
        davisRows(run).map((r): Cell[] => [STATE_LABEL[r.state], r.clips, r.JF, r.J_mean, r.J_recall, r.J_decay, r.F_mean, r.F_recall, r.F_decay]),
        { integerColumns: [1] },
      ),
    );
  }
  return out.join('');
}

/** Warnings for stderr, at most `limit` of them. */
export function formatWarnings(warnings: readonly string[], limit = 20, jsonWritten = false): string {
  if (warnings.length === 0) return '';
  const shown = warnings.slice(0, limit).map((w) => `warning: ${w}\n`);
  if (warnings.length > limit) {
    shown.push(`warning: … and ${warnings.length - limit} more${jsonWritten ? ' (all listed in the --json file)' : ' (use --json FILE to list all)'}\n`);
  }
  return shown.join('');
}

// ---------------------------------------------------------------------------------------------
// JSON

export const DEFINITIONS = {
  labels: 'GT: 0 and 3 background, 1 actionable, 2 transformed, 4 ambiguous / 5 ignore / 255 void are excluded from every score. Prediction: 1 actionable, 2 transformed, anything else background.',
  I_act: 'pixels actionable in both GT and prediction (excluded GT pixels left out); likewise I_trf, I_obj (states fused)',
  U_act: 'pixels actionable in GT or prediction (excluded GT pixels left out); likewise U_trf, U_obj',
  IoU_act: 'frame: I_act / U_act, null when U_act = 0 (state absent from both; such a unit is left out of SPOC means). Clip: under the chosen convention.',
  J_act: 'DAVIS region similarity of the actionable mask, GT labels 4/5/255 void; 1 when the state is absent from both (DAVIS convention). J_trf, J_obj likewise.',
  F_act: 'DAVIS boundary F of the actionable mask (radius ceil(0.008 x image diagonal), void removed first); only with --boundary. F_trf, F_obj likewise.',
  A_act: 'pixels labelled actionable (1) in the prediction, over the whole frame; A_trf likewise for transformed (2)',
  R: 'progress ratio of the prediction, A_act / (A_act + A_trf); null when both are 0, for a missing prediction and for ignored frames',
  R_gt: 'the same ratio computed on the GT',
  mIoU: '(mIoU_act + mIoU_trf) / 2; when one state is undefined, the other alone',
  wo_osc: 'mIoU of the fused object mask (actionable and transformed as one label), "w/o OSC"',
  mean_over_verbs: 'each field is the mean of the per-verb values (undefined verbs left out): every verb weighs the same',
  mean_over_clips: 'all clips aggregated together under the convention (clip-weighted)',
  seen_novel: 'mIoU over clips whose noun is a seen / novel object of its verb in the WhereToChange taxonomy (null for DAVIS layout)',
  transition: 'mIoU over frames whose GT phase is "transitioning" only',
  tau: 'Kendall tau of the curve against time as SPOC defines it: (increasing pairs - non-increasing pairs) / pairs, ties non-increasing, null points skipped; want -1',
  end_sigma: 'population standard deviation of R over the GT end-state frames; end_l2 its L2 norm sqrt(sum R^2); end_rms = end_l2 / sqrt(n); want 0',
  davis: 'per clip and state: mean, recall (share of frames with value > 0.5) and decay (first quarter minus last quarter) of J and F over the frames, ignored frames skipped; summary = mean over clips whose GT shows the state; JF = (J_mean + F_mean) / 2',
  missing_prediction: 'a GT frame without a prediction file is scored as an all-background prediction',
  ignored: 'frames listed in "ignored" of the metadata file are left out of every score',
  null: 'JSON null stands for an undefined value (NaN)',
} as const;

function stateBlock(stats: DavisStats | null): object | null {
  if (!stats) return null;
  return {
    J_mean: stats.j.mean,
    J_recall: stats.j.recall,
    J_decay: stats.j.decay,
    F_mean: stats.f.mean,
    F_recall: stats.f.recall,
    F_decay: stats.f.decay,
    JF: stats.jf,
  };
}

function miouBlock(s: MiouScore): object {
  return { mIoU: s.miou, mIoU_act: s.act, mIoU_trf: s.trf, wo_osc: s.object, clips_act: s.clipsAct, clips_trf: s.clipsTrf, clips_obj: s.clipsObject };
}

function columnsBlock(cols: SpocColumns): object {
  return {
    mean_over_verbs: miouBlock(cols.meanOverVerbs),
    mean_over_clips: miouBlock(cols.meanOverClips),
    per_verb: Object.fromEntries(
      Object.keys(cols.perVerb)
        .sort()
        .map((v) => [v, miouBlock(cols.perVerb[v])]),
    ),
  };
}

const ratio = (i: number, u: number): number => (u > 0 ? i / u : NaN);

/** The --json document. Key order is fixed and clips/frames are sorted, so equal inputs give equal bytes. */
export function buildJson(run: EvalRun, version: string): object {
  const { report } = run;
  const clips = run.clips.map((c) => {
    const score = scoreClips([c.counted], run.convention);
    return {
      id: c.key,
      osc: c.osc,
      video: c.video,
      verb: c.verb,
      noun: c.noun,
      subset: c.subset,
      prediction: c.predVideo,
      meta: c.metaFile,
      frames: c.frames.length,
      evaluated_frames: c.frames.filter((f) => !f.ignored).length,
      ignored_frames: c.frames.filter((f) => f.ignored).length,
      missing_predictions: c.frames.filter((f) => !f.ignored && f.predFile === null).length,
      phases_known: c.phasesKnown,
      IoU_act: score.act,
      IoU_trf: score.trf,
      mIoU: score.miou,
      IoU_obj: score.object,
      progress: {
        tau: c.progress.tau,
        tau_gt: c.progressGt.tau,
        end_n: c.progress.end.n,
        end_sigma: c.progress.end.sigma,
        end_l2: c.progress.end.l2,
        end_rms: c.progress.end.rms,
      },
      davis: c.davis ? { act: stateBlock(c.davis.act), trf: stateBlock(c.davis.trf), obj: stateBlock(c.davis.obj) } : null,
    };
  });
  const frames = run.clips.flatMap((c) =>
    c.frames.map((f, i) => {
      const k = f.counts;
      return {
        clip: c.key,
        frame: f.frame,
        gt: f.gtFile,
        pred: f.predFile,
        ignored: f.ignored,
        phase: f.phase,
        missing_pred: f.predFile === null,
        I_act: k ? k.iAct : null,
        U_act: k ? k.uAct : null,
        I_trf: k ? k.iTrf : null,
        U_trf: k ? k.uTrf : null,
        I_obj: k ? k.iObj : null,
        U_obj: k ? k.uObj : null,
        IoU_act: k ? ratio(k.iAct, k.uAct) : NaN,
        IoU_trf: k ? ratio(k.iTrf, k.uTrf) : NaN,
        IoU_obj: k ? ratio(k.iObj, k.uObj) : NaN,
        J_act: f.j.act,
        J_trf: f.j.trf,
        J_obj: f.j.obj,
        F_act: f.f.act,
        F_trf: f.f.trf,
        F_obj: f.f.obj,
        A_act: f.predAreas ? f.predAreas.act : null,
        A_trf: f.predAreas ? f.predAreas.trf : null,
        A_act_gt: f.gtAreas.act,
        A_trf_gt: f.gtAreas.trf,
        R: c.progress.curve[i],
        R_gt: c.progressGt.curve[i],
      };
    }),
  );
  const withPhases = run.clips.some((c) => c.phasesKnown);
  return {
    schema: JSON_SCHEMA,
    tool: { name: 'spoc-studio', version },
    convention: run.convention,
    convention_definition: CONVENTION_TEXT[run.convention],
    boundary: run.boundary,
    inputs: {
      gt: { dir: run.gt.dirArg, layout: run.gt.kind, description: run.gt.description, clips: run.gt.videos.length, frames: run.gt.frameCount },
      pred: { dir: run.pred.dirArg, layout: run.pred.kind, description: run.pred.description, clips: run.pred.videos.length, frames: run.pred.frameCount },
    },
    definitions: DEFINITIONS,
    summary: {
      coverage: {
        clips: report.coverage.clips,
        frames: report.coverage.frames,
        evaluated_frames: report.coverage.evaluatedFrames,
        ignored_frames: report.coverage.ignoredFrames,
        missing_predictions: report.coverage.missingPredictions,
      },
      table: tableRows(run),
      splits: {
        all: columnsBlock(report.all),
        seen: run.taxonomy ? columnsBlock(report.seen) : null,
        novel: run.taxonomy ? columnsBlock(report.novel) : null,
        transition: columnsBlock(report.transition),
      },
      progress: { phases_known: withPhases, rows: progressRows(run) },
      davis: run.boundary ? davisRows(run) : null,
    },
    clips,
    frames,
    warnings: run.warnings,
  };
}

/** JSON text: NaN and infinities become null; two-space indent; trailing newline. */
export function stringifyJson(doc: object): string {
  return JSON.stringify(doc, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 2) + '\n';
}
