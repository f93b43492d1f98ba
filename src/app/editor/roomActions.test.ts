import { describe, expect, it, vi } from 'vitest';
import { ACTIONS, handleShortcut, type Action, type ActionContext, type EditorState } from '../../annotator/actions';
import { useRunners } from '../../annotator/ui/roomActions';
import { paletteEntries } from '../../annotator/palette';
import { parseShortcut } from '../../annotator/shortcuts';
import { REVIEW_ACTIONS, REVIEWER_ACTION_IDS } from '../../review/ui/reviewActions';
import { ASSIST_ACTIONS } from '../../inference/ui/assistActions';

const registry: readonly Action[] = [...ACTIONS, ...REVIEW_ACTIONS, ...ASSIST_ACTIONS];
const state: EditorState = { tool: 'brush', instanceId: 1, activeClass: 1, protect: false, masksVisible: true, brushSize: 16, frameIndex: 0, frameCount: 20, canUndo: false, canRedo: false, busy: false, readOnly: false };
const ctx = { state, commands: {} } as unknown as ActionContext;
const key = (k: string, shiftKey = false) => ({ key: k, shiftKey, ctrlKey: false, metaKey: false, altKey: false });

describe("the rooms' actions in the editor's table", () => {
  it('have unique ids and share no shortcut with the editor or each other', () => {
    expect(new Set(registry.map((a) => a.id)).size).toBe(registry.length);
    const seen = new Map<string, string>();
    for (const a of registry) {
      for (const s of a.shortcuts) {
        const p = JSON.stringify(parseShortcut(s));
        expect(seen.get(p), `${s} of ${a.id}`).toBeUndefined();
        seen.set(p, a.id);
      }
    }
  });

  it('carry the reviewer keys J, Shift+J, A, R, V, D, W, Shift+W and Shift+A', () => {
    const keys = new Map(registry.flatMap((a) => a.shortcuts.map((s) => [s, a.id] as const)));
    for (const s of ['j', 'shift+j', 'a', 'r', 'v', 'd', 'w', 'shift+w', 'shift+a']) expect(keys.has(s), s).toBe(true);
  });

  it('are listed disabled with the room\'s reason while nothing publishes them, and the key does nothing', () => {
    useRunners.setState({ runners: {} });
    const accept = paletteEntries('accept frame', registry, ctx);
    expect(accept.map((e) => [e.id, e.disabled])).toEqual([[REVIEWER_ACTION_IDS.accept, 'reviewer mode is off']]);
    expect(handleShortcut(key('a'), ctx, {}, registry)?.id).toBe(REVIEWER_ACTION_IDS.accept);
  });

  it('run what the owning component published, by key and from the palette alike', () => {
    const run = vi.fn();
    useRunners.setState({ runners: { [REVIEWER_ACTION_IDS.accept]: { disabled: null, run } } });
    handleShortcut(key('A'), ctx, {}, registry);
    expect(run).toHaveBeenCalledTimes(1);
    const [entry] = paletteEntries('accept frame', registry, ctx);
    expect(entry.disabled).toBeNull();
    entry.run(ctx);
    expect(run).toHaveBeenCalledTimes(2);
    useRunners.setState({ runners: { [REVIEWER_ACTION_IDS.accept]: { disabled: 'a verdict is being saved', run } } });
    expect(paletteEntries('accept frame', registry, ctx)[0].disabled).toBe('a verdict is being saved');
    handleShortcut(key('a'), ctx, {}, registry);
    expect(run).toHaveBeenCalledTimes(2);
  });
});
