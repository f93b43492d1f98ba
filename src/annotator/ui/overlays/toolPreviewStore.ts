/**
 * The paint tool's preview as the pointer last left it (brush outline, lasso or polygon path): CanvasHost
 * writes it after each pointer event, ToolPreviewOverlay draws it. One store per session, an external
 * store as React's useSyncExternalStore reads it.
 */
import type { EditorSession } from '../../session/editorSession';
import type { ToolPreview } from '../../tools/types';

export interface ShownToolPreview {
  preview: ToolPreview | null;
  activeClass: number;
}

const NONE: ShownToolPreview = { preview: null, activeClass: 0 };

export class ToolPreviewStore {
  private value = NONE;
  private readonly listeners = new Set<() => void>();

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  get = (): ShownToolPreview => this.value;

  set(preview: ToolPreview | null, activeClass: number): void {
    if (preview === this.value.preview && activeClass === this.value.activeClass) return;
    this.value = preview ? { preview, activeClass } : NONE;
    for (const fn of this.listeners) fn();
  }
}

const stores = new WeakMap<EditorSession, ToolPreviewStore>();

export function toolPreviewOf(session: EditorSession): ToolPreviewStore {
  let store = stores.get(session);
  if (!store) {
    store = new ToolPreviewStore();
    stores.set(session, store);
  }
  return store;
}
