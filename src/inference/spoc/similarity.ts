/**
 * Cosine similarity of CLIP embeddings, the S in SPOC's Eq. 1.
 *
 * S_act and S_trf are RAW cosines of L2-normalised embeddings, not softmax probabilities: a softmax
 * over the two prompts always sums to 1, which would make Eq. 1's first rule (S_act + S_trf < tau
 * -> background) either never or always fire. With raw cosines the sum measures "is this the object
 * at all" — CLIP ViT-B/32 image-text cosines sit around 0.2-0.35, so tau = 0.5 separates object
 * crops (both prompts fairly similar) from background crops — and delta = 0.01 is a plausible
 * margin on a cosine difference. Both observations match the paper's defaults.
 */

export function l2Normalize(v: Float32Array): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  const n = Math.sqrt(s);
  const out = new Float32Array(v.length);
  if (n === 0) return out; // a zero vector stays zero: its cosine with anything is 0
  for (let i = 0; i < v.length; i++) out[i] = v[i] / n;
  return out;
}

/** Cosine of two embeddings (normalised here); 0 when either is the zero vector. */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new RangeError(`embedding sizes differ: ${a.length} vs ${b.length}`);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

export interface StateScores {
  sAct: number;
  sTrf: number;
}

/** S_act and S_trf of one crop embedding against the actionable and transformed text embeddings. */
export function stateScores(image: Float32Array, actionableText: Float32Array, transformedText: Float32Array): StateScores {
  return { sAct: cosine(image, actionableText), sTrf: cosine(image, transformedText) };
}
