/**
 * Propagation in either direction through time, for interpolation (src/objects/interpolation):
 * `propagateFrame` steps from t to t+1, so a backward step runs it on the clip read backwards —
 * frame v of the reversed clip is frame (n − 1 − v) of the clip — whatever the engine (SAM, the
 * weight-free tracker, the flow). Backward steps do not step through the source video's native
 * frames (they come in decoding order only); forward steps do when the source offers them.
 */
import type { LabelMap } from '../../masks/labelMap';
import type { Direction, ChainState } from '../../objects/interpolation/run';
import { propagateFrame, type PropagationEngine, type PropagationResult, type PropagationSource } from './propagateFrame';

/** The clip of `source` read backwards (frames 0..n−1 become n−1..0). */
export function reversedSource(source: PropagationSource, frameCount: number): PropagationSource {
  const real = (v: number) => frameCount - 1 - v;
  return { getImage: (v) => source.getImage(real(v)), frameKey: (v) => source.frameKey(real(v)) };
}

export interface DirectionalStepper {
  (direction: Direction, from: number, previous: LabelMap, chain: ChainState, signal?: AbortSignal): Promise<PropagationResult & { depth: number }>;
}

/** A step for interpolation's chains: from frame `from` to from ± 1, the result's `from`/`to` in the clip's own frame numbers. */
export function directionalStep(engine: PropagationEngine, source: PropagationSource, frameCount: number): DirectionalStepper {
  const backward = reversedSource(source, frameCount);
  return async (direction, from, previous, chain, signal) => {
    const options = { previous, previousConfidence: chain.confidence, previousDepth: chain.depth, signal };
    // propagateFrame always sets the depth (see PropagationResult.depth).
    if (direction === 'forward') {
      const r = await propagateFrame(engine, source, { ...options, from });
      return { ...r, depth: r.depth ?? chain.depth + 1 };
    }
    const r = await propagateFrame(engine, backward, { ...options, from: frameCount - 1 - from });
    return { ...r, from, to: from - 1, depth: r.depth ?? chain.depth + 1 };
  };
}
