/** The annotator's own canvas overlays; their z among every room's: docs/architecture.md, "Canvas overlays". */
import type { CanvasOverlay } from '../canvasOverlays';
import { InstanceLabelsOverlay } from './InstanceLabelsOverlay';
import { RelationsOverlay } from './RelationsOverlay';
import { ToolPreviewOverlay } from './ToolPreviewOverlay';

export const ANNOTATOR_OVERLAYS: readonly CanvasOverlay[] = [
  { id: 'instance-labels', z: 60, Component: InstanceLabelsOverlay },
  // Hand–object contacts of an objects project (docs/objects.md "Relations in the editor").
  { id: 'relations', z: 65, Component: RelationsOverlay },
  // Topmost: what the pointer is about to do is never hidden.
  { id: 'tool-preview', z: 90, Component: ToolPreviewOverlay },
];
