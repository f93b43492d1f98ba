/**
 * The optical-flow fallback used when no SAM model is loaded: OpenCV's Farneback flow in the
 * classical worker (src/inference/classical). The worker (and OpenCV inside it) starts on the first
 * call only, so a session that has SAM never starts it for propagation.
 */
import { classicalClient } from '../../classical/classicalClient';
import type { FlowPropagationBackend } from '../../propagate/propagateFrame';

export function flowEngine(): Promise<FlowPropagationBackend> {
  return classicalClient();
}
