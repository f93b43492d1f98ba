import { describe, expect, it, vi } from 'vitest';
import { ACTIONS, BRUSH_SIZES, findAction, handleShortcut, nextBrushSize, whyDisabled, type ActionContext, type EditorCommands, type EditorState } from './actions';
import { parseShortcut, type KeyInput } from './shortcuts';

function context(state: Partial<EditorState> = {}): ActionContext & { commands: { [K in keyof EditorCommands]: ReturnType<typeof vi.fn> } } {
  const commands = {
    setClass: vi.fn(),
    setTool: vi.fn(),
    setBrushSize: vi.fn(),
    toggleProtect: vi.fn(),
    toggleMasks: vi.fn(),
    undo: vi.fn(),
    redo: vi.fn(),
    goToFrame: vi.fn(),
    nextUnannotated: vi.fn(),
    copyPreviousFrame: vi.fn(),
    toggleIgnoreFrame: vi.fn(),
    clearFrame: vi.fn(),
    showShortcuts: vi.fn(),
    toggleOnion: vi.fn(),
    toggleOutline: vi.fn(),
    fitView: vi.fn(),
    actualSize: vi.fn(),
    openPalette: vi.fn(),
    toggleWatch: vi.fn(),
    playPauseWatch: vi.fn(),
    setInstanceId: vi.fn(),
    setPhase: vi.fn(),
  };
  return {
    commands,
    state: {
      tool: 'brush',
      instanceId: 1,
      activeClass: 1,
      protect: false,
      masksVisible: true,
      brushSize: 10,
      frameIndex: 3,
      frameCount: 10,
      canUndo: true,
      canRedo: true,
      busy: false,
      readOnly: false,
      ...state,
    },
  };
}

const key = (k: string, mods: Partial<Omit<KeyInput, 'key'>> = {}): KeyInput => ({ key: k, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods });

describe('ACTIONS', () => {
  it('Shift+1 / Shift+2 fit and show 1:1 on a US keyboard (keys "!" and "@"), not class 1 / 2', () => {
    const ctx = context();
    expect(handleShortcut(key('!', { shiftKey: true, code: 'Digit1' }), ctx)?.id).toBe('view.fit');
    expect(handleShortcut(key('@', { shiftKey: true, code: 'Digit2' }), ctx)?.id).toBe('view.actualSize');
    expect(ctx.commands.fitView).toHaveBeenCalledOnce();
    expect(ctx.commands.actualSize).toHaveBeenCalledOnce();
    expect(ctx.commands.setClass).not.toHaveBeenCalled();
    // The plain digit still picks the class.
    expect(handleShortcut(key('1', { code: 'Digit1' }), ctx)?.id).toBe('class.1');
  });

  it('in an objects project, 1 and 2 pick no state (there are none) while 0 still erases', () => {
    const ctx = context({ paintsObjects: true });
    handleShortcut(key('1', { code: 'Digit1' }), ctx);
    handleShortcut(key('2', { code: 'Digit2' }), ctx);
    expect(ctx.commands.setClass).not.toHaveBeenCalled();
    expect(whyDisabled(findAction('class.1')!, ctx)).toMatch(/pick one in the object list/);
    handleShortcut(key('0', { code: 'Digit0' }), ctx);
    expect(ctx.commands.setClass).toHaveBeenCalledWith(0);
  });

  it('have unique ids and no two share a shortcut', () => {
    expect(new Set(ACTIONS.map((a) => a.id)).size).toBe(ACTIONS.length);
    const seen = new Map<string, string>();
    for (const a of ACTIONS) {
      for (const s of a.shortcuts) {
        const p = JSON.stringify(parseShortcut(s));
        expect(seen.get(p), `${s} of ${a.id}`).toBeUndefined();
        seen.set(p, a.id);
      }
    }
  });

  it('cover the annotator’s keys', () => {
    const keys = ACTIONS.flatMap((a) => a.shortcuts);
    for (const k of ['1', '2', '0', 'b', 'e', 'p', 'l', 'f', 'm', '[', ']', 'ctrl+z', 'ctrl+shift+z', 'ctrl+y', 'x', 'h', 'ArrowLeft', 'ArrowRight', 'n', 'c', 'i', '?']) {
      expect(keys).toContain(k);
    }
  });

  it('keys run the right commands', () => {
    const ctx = context();
    handleShortcut(key('2'), ctx);
    expect(ctx.commands.setClass).toHaveBeenCalledWith(2);
    handleShortcut(key('l'), ctx);
    expect(ctx.commands.setTool).toHaveBeenCalledWith('lasso');
    handleShortcut(key('e'), ctx);
    expect(ctx.commands.setTool).toHaveBeenCalledWith('eraser');
    handleShortcut(key(']'), ctx);
    expect(ctx.commands.setBrushSize).toHaveBeenCalledWith(12);
    handleShortcut(key('z', { ctrlKey: true }), ctx);
    expect(ctx.commands.undo).toHaveBeenCalledOnce();
    handleShortcut(key('y', { ctrlKey: true }), ctx);
    handleShortcut(key('Z', { metaKey: true, shiftKey: true }), ctx, { mac: true });
    expect(ctx.commands.redo).toHaveBeenCalledTimes(2);
    handleShortcut(key('ArrowLeft'), ctx);
    expect(ctx.commands.goToFrame).toHaveBeenCalledWith(2);
    handleShortcut(key('ArrowRight'), ctx);
    expect(ctx.commands.goToFrame).toHaveBeenCalledWith(4);
    for (const [k, cmd] of [['x', 'toggleProtect'], ['h', 'toggleMasks'], ['n', 'nextUnannotated'], ['c', 'copyPreviousFrame'], ['i', 'toggleIgnoreFrame'], ['?', 'showShortcuts']] as const) {
      handleShortcut(key(k, { shiftKey: k === '?' }), ctx);
      expect(ctx.commands[cmd], k).toHaveBeenCalledOnce();
    }
  });

  it('disabled actions match (so the browser default is suppressed) but do not run', () => {
    const ctx = context({ canUndo: false, frameIndex: 0, readOnly: false });
    expect(handleShortcut(key('z', { ctrlKey: true }), ctx)?.id).toBe('edit.undo');
    expect(ctx.commands.undo).not.toHaveBeenCalled();
    handleShortcut(key('ArrowLeft'), ctx);
    handleShortcut(key('c'), ctx);
    expect(ctx.commands.goToFrame).not.toHaveBeenCalled();
    expect(ctx.commands.copyPreviousFrame).not.toHaveBeenCalled();
  });

  it('read-only disables edits but not navigation; a gesture in progress blocks undo', () => {
    const ro = context({ readOnly: true });
    for (const k of ['1', 'b', 'c', 'i']) handleShortcut(key(k), ro);
    handleShortcut(key('z', { ctrlKey: true }), ro);
    handleShortcut(key('ArrowRight'), ro);
    expect(ro.commands.setClass).not.toHaveBeenCalled();
    expect(ro.commands.setTool).not.toHaveBeenCalled();
    expect(ro.commands.undo).not.toHaveBeenCalled();
    expect(ro.commands.goToFrame).toHaveBeenCalledWith(4);
    const busy = context({ busy: true });
    handleShortcut(key('z', { ctrlKey: true }), busy);
    expect(busy.commands.undo).not.toHaveBeenCalled();
    expect(findAction('edit.clearFrame')?.enabled(context())).toBe(true);
  });
});

describe('nextBrushSize', () => {
  it('steps through the list from any size and stops at the ends', () => {
    expect(nextBrushSize(10, 1)).toBe(12);
    expect(nextBrushSize(10, -1)).toBe(8);
    expect(nextBrushSize(11, 1)).toBe(12);
    expect(nextBrushSize(11, -1)).toBe(10);
    expect(nextBrushSize(1, -1)).toBe(1);
    expect(nextBrushSize(256, 1)).toBe(256);
    expect(BRUSH_SIZES[0]).toBe(1);
  });
});
