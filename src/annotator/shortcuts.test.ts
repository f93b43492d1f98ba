import { describe, expect, it } from 'vitest';
import { formatShortcut, matchShortcut, parseShortcut, shortcutMatches, type KeyInput } from './shortcuts';

const key = (k: string, mods: Partial<Omit<KeyInput, 'key'>> = {}): KeyInput => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});

describe('parseShortcut', () => {
  it('reads modifiers and the key', () => {
    expect(parseShortcut('ctrl+shift+z')).toEqual({ key: 'z', ctrl: true, shift: true, alt: false });
    expect(parseShortcut('ArrowLeft')).toEqual({ key: 'arrowleft', ctrl: false, shift: false, alt: false });
    expect(parseShortcut('ctrl++').key).toBe('+');
    expect(parseShortcut('+').key).toBe('+');
    expect(parseShortcut('Esc').key).toBe('escape');
  });

  it('refuses unknown modifiers and empty shortcuts', () => {
    expect(() => parseShortcut('hyper+z')).toThrow(/unknown modifier/);
    expect(() => parseShortcut('')).toThrow(/no key/);
  });
});

describe('shortcutMatches', () => {
  it('letters: case-insensitive, Shift must match', () => {
    expect(shortcutMatches('b', key('b'))).toBe(true);
    expect(shortcutMatches('b', key('B', { shiftKey: true }))).toBe(false);
    expect(shortcutMatches('ctrl+z', key('z', { ctrlKey: true }))).toBe(true);
    expect(shortcutMatches('ctrl+z', key('Z', { ctrlKey: true, shiftKey: true }))).toBe(false);
    expect(shortcutMatches('ctrl+shift+z', key('Z', { ctrlKey: true, shiftKey: true }))).toBe(true);
    expect(shortcutMatches('b', key('b', { ctrlKey: true }))).toBe(false);
    expect(shortcutMatches('b', key('b', { altKey: true }))).toBe(false);
  });

  it('symbols and digits ignore Shift (layouts need it to type them)', () => {
    expect(shortcutMatches('?', key('?', { shiftKey: true }))).toBe(true);
    expect(shortcutMatches('?', key('?'))).toBe(true);
    expect(shortcutMatches('1', key('1', { shiftKey: true }))).toBe(true); // AZERTY
    expect(shortcutMatches('[', key('[', { ctrlKey: true, altKey: true }))).toBe(true); // AltGr
    expect(shortcutMatches('[', key('[', { ctrlKey: true }))).toBe(false);
  });

  it('Shift+digit compares the physical key (code): a US keyboard types "!" for Shift+1', () => {
    const usShift1 = key('!', { shiftKey: true, code: 'Digit1' });
    const usShift2 = key('@', { shiftKey: true, code: 'Digit2' });
    expect(shortcutMatches('shift+1', usShift1)).toBe(true);
    expect(shortcutMatches('shift+2', usShift2)).toBe(true);
    expect(shortcutMatches('shift+1', usShift2)).toBe(false);
    expect(shortcutMatches('shift+1', key('1', { code: 'Digit1' }))).toBe(false); // Shift still has to be down
    expect(shortcutMatches('1', usShift1)).toBe(false); // "!" is not the class key
    expect(shortcutMatches('shift+1', key('!', { shiftKey: true, code: 'Numpad1' }))).toBe(false);
  });

  it('named keys: Shift must match', () => {
    expect(shortcutMatches('ArrowLeft', key('ArrowLeft'))).toBe(true);
    expect(shortcutMatches('ArrowLeft', key('ArrowLeft', { shiftKey: true }))).toBe(false);
    expect(shortcutMatches('shift+Delete', key('Delete', { shiftKey: true }))).toBe(true);
  });

  it('Cmd is Ctrl on macOS only; Meta elsewhere never matches', () => {
    const cmdZ = key('z', { metaKey: true });
    expect(shortcutMatches('ctrl+z', cmdZ, { mac: true })).toBe(true);
    expect(shortcutMatches('ctrl+z', cmdZ)).toBe(false);
    expect(shortcutMatches('z', cmdZ)).toBe(false);
    expect(shortcutMatches('ctrl+z', key('z', { ctrlKey: true }), { mac: true })).toBe(true);
  });
});

describe('matchShortcut', () => {
  it('finds the first entry with a matching shortcut', () => {
    const registry = [
      { id: 'undo', shortcuts: ['ctrl+z'] },
      { id: 'redo', shortcuts: ['ctrl+shift+z', 'ctrl+y'] },
    ];
    expect(matchShortcut(key('y', { ctrlKey: true }), registry)?.id).toBe('redo');
    expect(matchShortcut(key('Z', { metaKey: true, shiftKey: true }), registry, { mac: true })?.id).toBe('redo');
    expect(matchShortcut(key('q'), registry)).toBeNull();
  });
});

describe('formatShortcut', () => {
  it('formats for each platform', () => {
    expect(formatShortcut('ctrl+shift+z')).toBe('Ctrl+Shift+Z');
    expect(formatShortcut('ctrl+shift+z', { mac: true })).toBe('⌘⇧Z');
    expect(formatShortcut('ArrowLeft')).toBe('←');
    expect(formatShortcut('shift+Delete')).toBe('Shift+Del');
    expect(formatShortcut('?')).toBe('?');
  });
});
