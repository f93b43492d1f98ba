/** The annotator's own canvas overlays; their z among every room's: docs/architecture.md, "Canvas overlays". */
import type { CanvasOverlay } from '../canvasOverlays';
import { InstanceLabelsOverlay } from './InstanceLabelsOverlay';
import { ToolPreviewOverlay } from './ToolPreviewOverlay';

export const ANNOTATOR_OVERLAYS: readonly CanvasOverlay[] = [
  { id: 'instance-labels', z: 60, Component: InstanceLabelsOverlay },
  // Topmost: what the pointer is about to do is never hidden.
  { id: 'tool-preview', z: 90, Component: ToolPreviewOverlay },
];
