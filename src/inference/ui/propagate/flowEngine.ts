/**
 * The optical-flow fallback used when no SAM model is loaded: OpenCV's Farneback flow in the
 * classical worker (src/inference/classical). Imported on first use, so a session that has SAM
 * never loads the classical worker for propagation.
 */
import type { FlowPropagationBackend } from '../../propagate/propagateFrame';

export async function flowEngine(): Promise<FlowPropagationBackend> {
  const { classicalClient } = await import('../../classical/classicalClient');
  return classicalClient();
}
