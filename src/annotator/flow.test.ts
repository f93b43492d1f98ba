/**
 * The data flow of one brush stroke, end to end and headless (docs/architecture.md): pointer events -> tool ->
 * one patch -> history -> revision + layer through the write-behind queue -> a reload rebuilds the
 * frame and its undo history from what was stored.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLabelMap } from '../masks/labelMap';
import type { Revision, RevisionInput } from '../store/types';
import { decodeLayer, encodeLayer, type LayerMasks } from '../masks/layers';
import { History } from './history';
import type { LoggedRevision } from './historyReplay';
import type { Patch } from './patch';
import { PersistQueue } from './persistQueue';
import { patchToRevision, type RevisionPixels } from './revisionPatch';
import { ToolDriver } from './tools/toolDriver';

// Compile-time checks that the store's rows and the core's shapes fit together.
export const storedRowsReplay = (rows: Revision[]): LoggedRevision[] => rows;
export const toRevisionInput = (patch: Patch, meta: Pick<RevisionInput, 'clipId' | 'source' | 'author' | 'at'>): RevisionInput => ({
  ...patchToRevision(patch),
  ...meta,
});

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('stroke -> patch -> history -> storage -> reload', () => {
  it('a reloaded frame has the same pixels and the same undo steps', async () => {
    // A fake store: the layer row and the append-only revision log with auto-increment seq.
    const stored = { layer: null as LayerMasks | null, log: [] as LoggedRevision[] };
    const queue = new PersistQueue<LayerMasks, RevisionPixels>({
      write: async (batch) => {
        for (const item of batch) {
          stored.layer = item.layer;
          for (const rev of item.revisions) stored.log.push({ ...rev, seq: stored.log.length + 1 });
        }
      },
    });
    const map = createLabelMap(64, 48);
    const history = new History();
    const persist = (patch: Patch) =>
      queue.enqueue({ clipId: 'clip', source: 'gt', frameIndex: patch.frameIndex, layer: encodeLayer(map), revisions: [patchToRevision(patch)] });

    const d = new ToolDriver(map, 'brush', { brushSize: 6, frameIndex: 0 });
    const commit = (patch: Patch) => {
      history.commit(patch);
      persist(patch);
    };
    d.ctx.commit = commit;
    d.drag([[5, 5], [30, 20], [60, 40]]);
    d.use('fill');
    d.ctx.activeClass = 2;
    d.click(50, 5);
    d.key('Enter'); // the background reaches the frame's border: the fill asks, and the answer is yes
    d.use('polygon');
    d.ctx.activeClass = 1;
    d.click(2, 30).click(20, 30).click(20, 46).click(2, 46);
    d.key('Enter');
    persist(history.undo(0, map)!); // undo the polygon: stored as a revision too
    // Write-through: the first gesture's write started at its commit; the others waited behind it.
    expect(stored.log.map((r) => r.action)).toEqual(['brush']);
    await vi.advanceTimersByTimeAsync(0);
    expect(stored.log.map((r) => r.action)).toEqual(['brush', 'fill', 'polygon', 'undo:polygon']);

    // Reload.
    const reloaded = decodeLayer(stored.layer!);
    expect(reloaded.data).toEqual(map.data);
    const rebuilt = History.fromRevisions(stored.log);
    expect(rebuilt.depth(0)).toEqual(history.depth(0));
    const live = { ...map, data: map.data.slice() };
    expect(rebuilt.redo(0, reloaded)).toEqual(history.redo(0, live));
    for (let k = 0; k < 3; k++) {
      expect(rebuilt.undo(0, reloaded)).toEqual(history.undo(0, live));
      expect(reloaded.data).toEqual(live.data);
    }
    expect(reloaded.data.every((v) => v === 0)).toBe(true);
  });
});
