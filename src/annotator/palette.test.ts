import { describe, expect, it, vi } from 'vitest';
import { ACTIONS, whyDisabled, type ActionContext, type EditorCommands, type EditorState } from './actions';
import { firstRunnable, frameQuery, paletteEntries, runEntry } from './palette';

function context(state: Partial<EditorState> = {}): ActionContext {
  const commands = new Proxy({} as Record<string, ReturnType<typeof vi.fn>>, {
    get: (target, name: string) => (target[name] ??= vi.fn()),
  }) as unknown as EditorCommands;
  return {
    commands,
    state: { tool: 'brush', instanceId: 1, activeClass: 1, protect: false, masksVisible: true, brushSize: 16, frameIndex: 0, frameCount: 20, canUndo: false, canRedo: false, busy: false, readOnly: false, ...state },
  };
}

const ids = (q: string, ctx: ActionContext) => paletteEntries(q, ACTIONS, ctx).map((e) => e.id);

describe('the command palette', () => {
  it('lists a disabled action with its reason instead of hiding it', () => {
    const entries = paletteEntries('undo', ACTIONS, context());
    expect(entries.map((e) => [e.label, e.disabled])).toEqual([['Undo', 'nothing to undo']]);
  });

  it('says read-only and why, before anything else', () => {
    const ctx = context({ canUndo: true, readOnly: true, readOnlyReason: 'read-only: approved clip' });
    expect(paletteEntries('undo', ACTIONS, ctx)[0].disabled).toBe('read-only: approved clip');
    expect(paletteEntries('brush', ACTIONS, ctx).find((e) => e.id === 'tool.brush')?.disabled).toBe('read-only: approved clip');
    // Viewing actions stay available on a read-only clip.
    expect(paletteEntries('fit', ACTIONS, ctx).find((e) => e.id === 'view.fit')?.disabled).toBeNull();
  });

  it('never runs a disabled entry, and runs an enabled one', () => {
    const ctx = context();
    const [undo] = paletteEntries('undo', ACTIONS, ctx);
    expect(runEntry(undo, ctx)).toBe(false);
    expect(ctx.commands.undo).not.toHaveBeenCalled();
    const ready = context({ canUndo: true });
    expect(runEntry(paletteEntries('undo', ACTIONS, ready)[0], ready)).toBe(true);
    expect(ready.commands.undo).toHaveBeenCalledOnce();
  });

  it('matches every word against the label or the id', () => {
    expect(ids('phase end', context())).toEqual(['phase.end']);
    expect(ids('set phase', context())).toEqual(['phase.initial', 'phase.transitioning', 'phase.end']);
    expect(ids('zzz', context())).toEqual([]);
  });

  it('reads "go 12", "go to frame 12", "frame 12" and ":12" as frame 12', () => {
    for (const q of ['go 12', 'Go to frame 12', 'go to 12', 'frame 12', ':12', ' : 12 ']) expect(frameQuery(q), q).toBe(12);
    for (const q of ['go', '12', 'go 12 x', 'undo', ':']) expect(frameQuery(q), q).toBeNull();
    const ctx = context();
    const [jump] = paletteEntries('go 12', ACTIONS, ctx);
    expect(jump).toMatchObject({ label: 'Go to frame 12', disabled: null });
    expect(runEntry(jump, ctx)).toBe(true);
    expect(ctx.commands.goToFrame).toHaveBeenCalledWith(11);
  });

  it('refuses a frame outside the clip, and says how to type one', () => {
    expect(paletteEntries(':21', ACTIONS, context()).map((e) => e.disabled)).toEqual(['the clip has frames 1–20']);
    expect(paletteEntries(':1', ACTIONS, context()).map((e) => e.disabled)).toEqual(['already on this frame']);
    const hint = paletteEntries('go to', ACTIONS, context());
    expect(hint[0]).toMatchObject({ label: 'Go to frame…', disabled: 'type its number: "go 12" or ":12"' });
  });

  it('selects the first entry that can run', () => {
    const entries = paletteEntries('frame', ACTIONS, context());
    expect(entries[0].disabled).not.toBeNull(); // the go-to hint, or previous frame on frame 1
    expect(entries[firstRunnable(entries)].disabled).toBeNull();
  });

  it('gives every action that can be disabled a reason of its own', () => {
    const blocked = context({ frameIndex: 0, frameCount: 1, canUndo: false, canRedo: false, instanceId: 1, brushSize: 1, busy: true });
    for (const a of ACTIONS) {
      if (a.enabled(blocked)) continue;
      expect(whyDisabled(a, blocked), a.id).not.toBe('not available now');
    }
  });
});
