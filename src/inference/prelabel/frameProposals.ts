/**
 * Automatic proposals for ONE frame (the editor's "Proposals" action): SAM over a point grid in
 * one batched worker call -> minimum area + NMS (SPOC Table C: 32x32, 0.9, 50 px) -> optionally
 * CLIP S_act / S_trf of each masked crop. Labels are left to the caller (Eq. 1 with whatever
 * thresholds the annotator has set), so changing tau / delta never re-runs a model.
 * Timings separate the worker's model runs (encode, decodes, CLIP) from our own work (NMS in the
 * worker; crops and scoring here).
 */
import type { RgbaImage } from '../../masks/labelMap';
import type { InferenceClient } from '../runtime/inferenceClient';
import { ERRORS, InferenceError } from '../runtime/protocol';
import type { CroppedMask } from '../spoc/croppedMask';
import { maskedCrop } from '../spoc/maskedCrop';
import { SPOC_NMS_DEFAULTS } from '../spoc/nms';
import { pointGrid } from '../spoc/pointGrid';
import { stateScores } from '../spoc/similarity';

export interface FrameProposalOptions {
  sam: string;
  /** CLIP model and the two state prompts; omit for unlabelled proposals. */
  clip?: { modelId: string; actionable: string; transformed: string };
  gridSize?: number;
  minArea?: number;
  nmsIou?: number;
  /** Worker embedding-cache key of the frame (an existing key reuses its embedding). */
  frameKey: string;
  signal?: AbortSignal;
  /** Stage and fraction done (0..1) for a progress bar. */
  onProgress?: (stage: 'embedding' | 'decoding' | 'scoring', fraction: number) => void;
}

export interface FrameProposal {
  mask: CroppedMask;
  point: { x: number; y: number };
  samIou: number;
  sAct: number | null;
  sTrf: number | null;
}

export interface FrameProposalTimings {
  totalMs: number;
  /** Waiting on the worker: encode, the grid decode, CLIP embeddings. */
  encodeMs: number;
  decodeMs: number;
  clipMs: number;
  /** Inside the decoder's session.run, summed over points, and the worker's NMS (both part of decodeMs). */
  decoderModelMs: number;
  nmsMs: number;
  /** Ours on the UI thread: masked crops and cosine scores. */
  cropMs: number;
  ownMs: number;
}

export interface FrameProposalResult {
  width: number;
  height: number;
  points: number;
  decoded: number;
  proposals: FrameProposal[];
  timings: FrameProposalTimings;
}

const checkAbort = (signal?: AbortSignal) => {
  if (signal?.aborted) throw new InferenceError(ERRORS.abort, 'proposals cancelled');
};

export async function proposeFrame(client: InferenceClient, image: RgbaImage, options: FrameProposalOptions): Promise<FrameProposalResult> {
  const t0 = performance.now();
  const { signal, onProgress } = options;
  const call = { signal };
  checkAbort(signal);
  const { width, height } = image;
  onProgress?.('embedding', 0);
  let ts = performance.now();
  // A copy is sent: the caller's frame stays usable for the CLIP crops below.
  await client.samEncode({ modelId: options.sam, frameKey: options.frameKey, image }, call);
  const encodeMs = performance.now() - ts;
  const points = pointGrid(width, height, options.gridSize ?? 32);
  onProgress?.('decoding', 0);
  ts = performance.now();
  // Decodes, crops, the area filter and NMS all run in the worker; the kept candidates come back best first.
  const grid = await client.samDecodeGrid(
    {
      modelId: options.sam,
      frameKey: options.frameKey,
      points,
      minArea: options.minArea ?? SPOC_NMS_DEFAULTS.minArea,
      nmsIou: options.nmsIou ?? SPOC_NMS_DEFAULTS.iouThreshold,
    },
    { signal, onProgress: (p) => p.total && onProgress?.('decoding', (p.loaded ?? 0) / p.total) },
  );
  const decodeMs = performance.now() - ts;
  const proposals: FrameProposal[] = grid.candidates.map((c) => ({ mask: c.mask, point: { x: points[c.pointIndex].x, y: points[c.pointIndex].y }, samIou: c.iou, sAct: null, sTrf: null }));
  let clipMs = 0;
  let cropMs = 0;
  let scoreMs = 0;
  if (options.clip && proposals.length > 0) {
    const { modelId, actionable, transformed } = options.clip;
    onProgress?.('scoring', 0);
    ts = performance.now();
    const texts = await client.clipEmbedTexts({ modelId, texts: [actionable, transformed] }, call);
    clipMs += performance.now() - ts;
    const [actText, trfText] = texts.embeddings;
    const batch = 16;
    for (let s = 0; s < proposals.length; s += batch) {
      checkAbort(signal);
      ts = performance.now();
      const crops = proposals.slice(s, s + batch).map((p) => maskedCrop(image, p.mask));
      cropMs += performance.now() - ts;
      ts = performance.now();
      const e = await client.clipEmbedImages({ modelId, images: crops }, { signal, transfer: true });
      clipMs += performance.now() - ts;
      ts = performance.now();
      e.embeddings.forEach((emb, j) => {
        const sc = stateScores(emb, actText, trfText);
        proposals[s + j].sAct = sc.sAct;
        proposals[s + j].sTrf = sc.sTrf;
      });
      scoreMs += performance.now() - ts;
      onProgress?.('scoring', Math.min(1, (s + batch) / proposals.length));
    }
  }
  const totalMs = performance.now() - t0;
  return {
    width,
    height,
    points: points.length,
    decoded: grid.decoded,
    proposals,
    timings: { totalMs, encodeMs, decodeMs, clipMs, decoderModelMs: grid.modelMs, nmsMs: grid.nmsMs, cropMs, ownMs: cropMs + scoreMs },
  };
}
