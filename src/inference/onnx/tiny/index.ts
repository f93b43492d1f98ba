/**
 * The complete set of tiny test models: file bytes by relative path, and manifest entries whose
 * golden self-tests are computed by actually running the models (see computeTinyManifest). Used by
 * scripts/make-tiny-models.ts (writes public/models/tiny/) and by tests (keep it in memory or a
 * temp dir). Nothing here is random: the same code always produces the same bytes.
 */
import { goldenInputs, summariseOutput, type GoldenInput, type GoldenSpec } from '../../models/golden';
import type { Manifest, ManifestEntry, ModelFamily } from '../../models/manifest';
import type { ModelSession } from '../../models/session';
import { buildTinyClipText, buildTinyClipVision } from './clip';
import { buildTinyClipTokenizer, CLIP_BOS, CLIP_EOS } from './clipTokenizer';
import { buildTinySamDecoder, buildTinySamEncoder } from './samOfficial';
import { buildTinyTjsSamDecoder, buildTinyTjsSamEncoder } from './samTransformersJs';

export interface TinyEntry {
  id: string;
  family: ModelFamily;
  label: string;
  files: Record<string, string>;
  /** role -> golden input spec (outputs are computed). */
  goldenInputs: Record<string, Record<string, GoldenInput>>;
}

export interface TinyModelSet {
  /** relative path -> bytes. */
  files: Record<string, Uint8Array>;
  entries: TinyEntry[];
}

const wave = (amplitude: number, frequency: number, offset = 0) => ({ kind: 'wave' as const, amplitude, frequency, offset });
const values = (v: number[]) => ({ kind: 'values' as const, values: v });
const constant = (value: number) => ({ kind: 'constant' as const, value });

export function makeTinyModelSet(): TinyModelSet {
  const tok = buildTinyClipTokenizer();
  const files: Record<string, Uint8Array> = {
    'sam_encoder.onnx': buildTinySamEncoder(),
    'sam_decoder.onnx': buildTinySamDecoder(),
    'tjs_vision_encoder.onnx': buildTinyTjsSamEncoder(),
    'tjs_prompt_encoder_mask_decoder.onnx': buildTinyTjsSamDecoder(),
    'clip_vision.onnx': buildTinyClipVision(),
    'clip_text.onnx': buildTinyClipText(tok.vocab),
    'clip_tokenizer.json': new TextEncoder().encode(`${JSON.stringify(tok.tokenizer, null, 1)}\n`),
  };
  const embedding = { type: 'float32' as const, dims: [1, 256, 64, 64], fill: wave(0.5, 0.01) };
  const image1024 = { type: 'float32' as const, dims: [1, 3, 1024, 1024], fill: wave(1, 0.001) };
  const entries: TinyEntry[] = [
    {
      id: 'tiny-sam',
      family: 'sam-official',
      label: 'Tiny SAM (test model, official export signature)',
      files: { encoder: 'sam_encoder.onnx', decoder: 'sam_decoder.onnx' },
      goldenInputs: {
        encoder: { input_image: image1024 },
        decoder: {
          image_embeddings: embedding,
          point_coords: { type: 'float32', dims: [1, 2, 2], fill: values([400, 300, 0, 0]) },
          point_labels: { type: 'float32', dims: [1, 2], fill: values([1, -1]) },
          mask_input: { type: 'float32', dims: [1, 1, 256, 256], fill: constant(0) },
          has_mask_input: { type: 'float32', dims: [1], fill: constant(0) },
          orig_im_size: { type: 'float32', dims: [2], fill: values([96, 128]) },
        },
      },
    },
    {
      id: 'tiny-sam-tjs',
      family: 'sam-transformersjs',
      label: 'Tiny SAM (test model, transformers.js layout)',
      files: { encoder: 'tjs_vision_encoder.onnx', decoder: 'tjs_prompt_encoder_mask_decoder.onnx' },
      goldenInputs: {
        encoder: { pixel_values: image1024 },
        decoder: {
          input_points: { type: 'float32', dims: [1, 1, 1, 2], fill: values([300, 200]) },
          input_labels: { type: 'int64', dims: [1, 1, 1], fill: values([1]) },
          image_embeddings: embedding,
          image_positional_embeddings: { ...embedding, fill: wave(0.1, 0.02) },
        },
      },
    },
    {
      id: 'tiny-clip',
      family: 'clip',
      label: 'Tiny CLIP (test model, transformers.js towers)',
      files: { vision: 'clip_vision.onnx', text: 'clip_text.onnx', tokenizer: 'clip_tokenizer.json' },
      goldenInputs: {
        vision: { pixel_values: { type: 'float32', dims: [2, 3, 224, 224], fill: wave(1.5, 0.003) } },
        text: { input_ids: { type: 'int64', dims: [2, 77], fill: values([CLIP_BOS, 26, 53, 121, CLIP_EOS, CLIP_EOS, CLIP_EOS]) } },
      },
    },
  ];
  return { files, entries };
}

/** Runs each golden input through its model and returns the manifest (paths relative to it). */
export async function computeTinyManifest(set: TinyModelSet, open: (bytes: Uint8Array) => Promise<ModelSession>): Promise<Manifest> {
  const models: ManifestEntry[] = [];
  for (const e of set.entries) {
    const selfTest: Record<string, GoldenSpec> = {};
    for (const [role, inputs] of Object.entries(e.goldenInputs)) {
      const session = await open(set.files[e.files[role]]);
      try {
        const spec: GoldenSpec = { inputs, outputs: {} };
        const outputs = await session.run(goldenInputs(spec));
        for (const name of session.outputNames) spec.outputs[name] = summariseOutput(outputs[name], 16);
        selfTest[role] = spec;
      } finally {
        await session.release?.();
      }
    }
    models.push({ id: e.id, family: e.family, label: e.label, files: e.files, selfTest });
  }
  return { version: 1, models };
}
