/**
 * Which kind of model a file is, decided from its declared inputs/outputs (session.inputNames /
 * outputNames) rather than from file names, which users rename freely. Each family adapter asks
 * for the roles it needs with `expectRole`, which refuses anything else with a message that says
 * what was expected, what the file has, and — when the file is a model of another known kind —
 * what it looks like.
 */
import type { ModelSession } from './session';

export type ModelRole =
  | 'sam-official-encoder'
  | 'sam-official-decoder'
  | 'sam-tjs-encoder'
  | 'sam-tjs-decoder'
  | 'clip-vision'
  | 'clip-text';

interface RoleSignature {
  role: ModelRole;
  title: string;
  required: readonly string[];
  /** Inputs the adapter can feed when present. Anything else is refused: ORT insists on every declared input. */
  optional: readonly string[];
  outputs: readonly string[];
  /** Encoders are matched by output; their single input may have one of several names. */
  inputAnyOf?: readonly string[];
}

/** Names real SAM encoder exports give their image input (segment-anything forks, MobileSAM, EfficientSAM). */
export const SAM_ENCODER_INPUT_NAMES = ['input_image', 'x', 'images', 'image', 'input'] as const;

export const SIGNATURES: readonly RoleSignature[] = [
  {
    role: 'sam-official-decoder',
    title: 'segment-anything ONNX decoder export',
    required: ['image_embeddings', 'point_coords', 'point_labels', 'mask_input', 'has_mask_input', 'orig_im_size'],
    optional: [],
    outputs: ['masks', 'iou_predictions'],
  },
  {
    role: 'sam-official-encoder',
    title: 'SAM image encoder ([1,3,1024,1024] -> image_embeddings)',
    required: [],
    optional: [],
    inputAnyOf: SAM_ENCODER_INPUT_NAMES,
    outputs: ['image_embeddings'],
  },
  {
    role: 'sam-tjs-decoder',
    title: 'transformers.js SAM prompt_encoder_mask_decoder',
    required: ['input_points', 'input_labels', 'image_embeddings', 'image_positional_embeddings'],
    optional: ['input_boxes'],
    outputs: ['iou_scores', 'pred_masks'],
  },
  {
    role: 'sam-tjs-encoder',
    title: 'transformers.js SAM vision_encoder',
    required: ['pixel_values'],
    optional: [],
    outputs: ['image_embeddings', 'image_positional_embeddings'],
  },
  {
    role: 'clip-vision',
    title: 'CLIP vision tower (pixel_values -> image_embeds)',
    required: ['pixel_values'],
    optional: [],
    outputs: ['image_embeds'],
  },
  {
    role: 'clip-text',
    title: 'CLIP text tower (input_ids -> text_embeds)',
    required: ['input_ids'],
    optional: ['attention_mask'],
    outputs: ['text_embeds'],
  },
];

export class ModelFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelFormatError';
  }
}

interface Signature {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
}

function matches(sig: RoleSignature, s: Signature): boolean {
  const inputs = new Set(s.inputNames);
  if (!sig.outputs.every((o) => s.outputNames.includes(o))) return false;
  if (sig.inputAnyOf) {
    // An encoder: exactly one image input, and not the transformers.js layout (which also
    // returns positional embeddings).
    return s.inputNames.length === 1 && sig.inputAnyOf.includes(s.inputNames[0]) && !s.outputNames.includes('image_positional_embeddings');
  }
  if (!sig.required.every((r) => inputs.has(r))) return false;
  return s.inputNames.every((n) => sig.required.includes(n) || sig.optional.includes(n));
}

/** The role a model signature matches, or null. */
export function detectRole(s: Signature): ModelRole | null {
  return SIGNATURES.find((sig) => matches(sig, s))?.role ?? null;
}

function describe(s: Signature): string {
  return `inputs [${s.inputNames.join(', ')}] and outputs [${s.outputNames.join(', ')}]`;
}

function hint(s: Signature): string {
  const ins = new Set(s.inputNames);
  if (ins.has('input_ids') && ins.has('pixel_values')) {
    return ' It looks like a combined CLIP model; export the vision and text towers as separate files (transformers.js vision_model.onnx and text_model.onnx).';
  }
  if (s.outputNames.includes('image_embeddings') && s.inputNames.length === 1 && !s.outputNames.includes('image_positional_embeddings')) {
    return ` Its single input "${s.inputNames[0]}" is not a known SAM encoder input name (${SAM_ENCODER_INPUT_NAMES.join(', ')}).`;
  }
  return '';
}

/**
 * Checks that `session` is a model of `role`; `file` names it in the message.
 * Also checks declared input shapes where a wrong export would otherwise fail deep inside ORT.
 */
export function expectRole(session: ModelSession, role: ModelRole, file: string): void {
  const sig = SIGNATURES.find((s) => s.role === role);
  if (!sig) throw new ModelFormatError(`unknown model role ${role}`);
  if (!matches(sig, session)) {
    const actual = detectRole(session);
    const seen = actual ? ` It looks like a ${SIGNATURES.find((s) => s.role === actual)?.title}; check the model family in the manifest.` : hint(session);
    const needs = sig.inputAnyOf
      ? `one input named ${sig.inputAnyOf.join(' | ')} and outputs [${sig.outputs.join(', ')}]`
      : `inputs [${sig.required.join(', ')}${sig.optional.length ? `; optional ${sig.optional.join(', ')}` : ''}] and outputs [${sig.outputs.join(', ')}]`;
    throw new ModelFormatError(`${file}: expected a ${sig.title} with ${needs}; this file has ${describe(session)}.${seen}`);
  }
  if (role === 'sam-official-encoder' || role === 'sam-tjs-encoder') {
    const name = session.inputNames[0];
    const shape = session.inputMetadata?.find((m) => m.name === name)?.shape;
    if (shape && shape.length > 0) {
      const ok = shape.length === 4 && (shape[1] === 3 || typeof shape[1] === 'string');
      if (!ok) {
        throw new ModelFormatError(
          `${file}: the encoder input "${name}" has shape [${shape.join(',')}]; expected [1,3,1024,1024] (NCHW, normalised). Exports that take raw HWC pixels are not supported.`,
        );
      }
    }
  }
}
