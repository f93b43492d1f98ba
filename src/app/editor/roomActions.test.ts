import { describe, expect, it, vi } from 'vitest';
import { ACTIONS, ACTION_SCOPES, handleShortcut, type Action, type ActionContext, type EditorState } from '../../annotator/actions';
import { useRunners } from '../../annotator/ui/roomActions';
import { paletteEntries } from '../../annotator/palette';
import { parseShortcut } from '../../annotator/shortcuts';
import { REVIEW_ACTIONS, REVIEWER_ACTION_IDS } from '../../review/ui/reviewActions';
import { ASSIST_ACTIONS, PROPOSAL_ACTION_IDS } from '../../inference/ui/assistActions';
import { OBJECT_ACTIONS } from '../../objects/ui/objectActions';
import { CONTACT_ACTIONS, CONTACT_ACTION_IDS } from '../../annotator/ui/contact/contactActions';

const registry: readonly Action[] = [...ACTIONS, ...CONTACT_ACTIONS, ...REVIEW_ACTIONS, ...ASSIST_ACTIONS, ...OBJECT_ACTIONS];
const state: EditorState = { tool: 'brush', instanceId: 1, activeClass: 1, protect: false, masksVisible: true, brushSize: 16, frameIndex: 0, frameCount: 20, canUndo: false, canRedo: false, busy: false, readOnly: false };
const ctx = { state, commands: {} } as unknown as ActionContext;
const key = (k: string, shiftKey = false) => ({ key: k, shiftKey, ctrlKey: false, metaKey: false, altKey: false });

describe("the rooms' actions in the editor's table", () => {
  it('have unique ids, and no two actions of one scope (or two unscoped ones) share a shortcut', () => {
    expect(new Set(registry.map((a) => a.id)).size).toBe(registry.length);
    const seen = new Map<string, string>();
    for (const a of registry) {
      if (a.when !== undefined) expect(ACTION_SCOPES, `${a.id}'s scope`).toContain(a.when);
      for (const s of a.shortcuts) {
        // A shared key across scopes is settled by ACTION_SCOPES' order, never by registration order.
        const p = `${a.when ?? '(always)'} ${JSON.stringify(parseShortcut(s))}`;
        expect(seen.get(p), `${s} of ${a.id}`).toBeUndefined();
        seen.set(p, a.id);
      }
    }
  });

  it("'a' accepts the proposal while proposals are open, the frame in reviewer mode otherwise, and nothing when neither is on", () => {
    const acceptFrame = vi.fn();
    const acceptProposal = vi.fn();
    useRunners.setState({
      runners: { [REVIEWER_ACTION_IDS.accept]: { disabled: null, run: acceptFrame }, [PROPOSAL_ACTION_IDS.accept]: { disabled: null, run: acceptProposal } },
    });
    // Whatever order the rooms registered in: both orders of the table give the same answers.
    for (const table of [registry, [...registry].reverse()]) {
      expect(handleShortcut(key('a'), { ...ctx, scopes: ['proposals', 'reviewer'] }, {}, table)?.id).toBe(PROPOSAL_ACTION_IDS.accept);
      expect(handleShortcut(key('a'), { ...ctx, scopes: ['reviewer', 'proposals'] }, {}, table)?.id).toBe(PROPOSAL_ACTION_IDS.accept);
      expect(handleShortcut(key('a'), { ...ctx, scopes: ['reviewer'] }, {}, table)?.id).toBe(REVIEWER_ACTION_IDS.accept);
      expect(handleShortcut(key('a'), { ...ctx, scopes: [] }, {}, table)).toBeNull();
    }
    expect([acceptProposal.mock.calls.length, acceptFrame.mock.calls.length]).toEqual([4, 2]);
  });

  it('carry the reviewer keys J, Shift+J, A, R, V, D, W, Shift+W and Shift+A', () => {
    const keys = new Map(registry.flatMap((a) => a.shortcuts.map((s) => [s, a.id] as const)));
    for (const s of ['j', 'shift+j', 'a', 'r', 'v', 'd', 'w', 'shift+w', 'shift+a']) expect(keys.has(s), s).toBe(true);
  });

  it('are listed disabled with the room\'s reason while nothing publishes them, and the key does nothing', () => {
    useRunners.setState({ runners: {} });
    const accept = paletteEntries('accept frame', registry, ctx);
    expect(accept.map((e) => [e.id, e.disabled])).toEqual([[REVIEWER_ACTION_IDS.accept, 'reviewer mode is off']]);
    // Reviewer mode on but its verdict not published: the mode lets the key through, nothing runs.
    expect(handleShortcut(key('a'), { ...ctx, scopes: ['reviewer'] }, {}, registry)).toBeNull();
  });

  it('run what the owning component published, by key and from the palette alike', () => {
    const run = vi.fn();
    useRunners.setState({ runners: { [REVIEWER_ACTION_IDS.accept]: { disabled: null, run } } });
    handleShortcut(key('A'), { ...ctx, scopes: ['reviewer'] }, {}, registry);
    expect(run).toHaveBeenCalledTimes(1);
    const [entry] = paletteEntries('accept frame', registry, ctx);
    expect(entry.disabled).toBeNull();
    entry.run(ctx);
    expect(run).toHaveBeenCalledTimes(2);
    useRunners.setState({ runners: { [REVIEWER_ACTION_IDS.accept]: { disabled: 'a verdict is being saved', run } } });
    expect(paletteEntries('accept frame', registry, ctx)[0].disabled).toBe('a verdict is being saved');
    handleShortcut(key('a'), { ...ctx, scopes: ['reviewer'] }, {}, registry);
    expect(run).toHaveBeenCalledTimes(2);
  });

  it("Escape stops setting a contact while that mode is on, before proposals' Escape, and nothing claims it otherwise", () => {
    const stop = vi.fn();
    const dismiss = vi.fn();
    useRunners.setState({ runners: { [CONTACT_ACTION_IDS.cancel]: { disabled: null, run: stop }, [PROPOSAL_ACTION_IDS.leave]: { disabled: null, run: dismiss } } });
    expect(handleShortcut(key('Escape'), { ...ctx, scopes: ['setting-contact', 'proposals'] }, {}, registry)?.id).toBe(CONTACT_ACTION_IDS.cancel);
    expect(stop).toHaveBeenCalledTimes(1);
    expect(dismiss).not.toHaveBeenCalled();
    useRunners.setState({ runners: {} });
  });
});
