/**
 * Keyboard shortcuts as strings ('b', 'ctrl+shift+z', 'ArrowLeft', '?') and a pure matcher from
 * keydown-like events, so the same table drives the key handler, the toolbar tooltips and the
 * shortcut sheet, and tests need no DOM.
 *
 * Matching rules:
 *   - letters and named keys compare case-insensitively, and Shift must match ('z' vs 'shift+z');
 *   - a digit or symbol ('1', '?', '[') ignores Shift, because some layouts need Shift to type it;
 *   - 'shift+<digit>' compares the physical key (KeyboardEvent.code 'Digit1'), because what Shift
 *     plus a digit types depends on the layout ('!' on US, '1' on AZERTY): comparing `key` alone
 *     meant Shift+1 never fired on a US keyboard;
 *     for the same reason a bare symbol also matches when typed with AltGr (Ctrl+Alt on Windows);
 *   - 'ctrl' means Ctrl on Windows/Linux and Ctrl or Cmd on macOS (Cmd+Z is undo there); a Meta
 *     (Windows/Super) key elsewhere never matches, it belongs to the OS;
 *   - Alt must match.
 */

export interface KeyInput {
  key: string;
  /** The physical key ('Digit1', 'KeyZ'), when known; used for 'shift+<digit>' shortcuts. */
  code?: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

export interface ParsedShortcut {
  /** Lower-cased key name ('z', 'arrowleft', '?'). */
  key: string;
  ctrl: boolean;
  shift: boolean;
  alt: boolean;
}

export interface ShortcutOptions {
  /** macOS: Cmd counts as Ctrl and shortcuts are shown with ⌘ ⇧ ⌥. */
  mac?: boolean;
}

const KEY_ALIASES: Record<string, string> = { esc: 'escape', del: 'delete', space: ' ', spacebar: ' ' };

export function parseShortcut(shortcut: string): ParsedShortcut {
  // The key is the last part; a shortcut for the '+' key itself ends in '++' or is just '+'.
  const plusKey = shortcut === '+' || shortcut.endsWith('++');
  const parts = (plusKey ? shortcut.slice(0, -1) : shortcut).split('+').filter((p) => p !== '');
  const key = plusKey ? '+' : (parts.pop() ?? '');
  if (key === '') throw new RangeError(`shortcut "${shortcut}" has no key`);
  const mods = new Set(parts.map((p) => p.toLowerCase()));
  for (const m of mods) {
    if (m !== 'ctrl' && m !== 'shift' && m !== 'alt') throw new RangeError(`shortcut "${shortcut}": unknown modifier "${m}"`);
  }
  return { key: normaliseKey(key), ctrl: mods.has('ctrl'), shift: mods.has('shift'), alt: mods.has('alt') };
}

export function shortcutMatches(shortcut: string | ParsedShortcut, event: KeyInput, options: ShortcutOptions = {}): boolean {
  const s = typeof shortcut === 'string' ? parseShortcut(shortcut) : shortcut;
  const physicalDigit = s.shift && /^[0-9]$/.test(s.key) && event.code === `Digit${s.key}`;
  if (normaliseKey(event.key) !== s.key && !physicalDigit) return false;
  const symbol = isSymbol(s.key);
  let ctrl = event.ctrlKey || (options.mac === true && event.metaKey);
  let alt = event.altKey;
  if (event.metaKey && !options.mac) return false;
  if (symbol && !s.ctrl && !s.alt && event.ctrlKey && event.altKey && !event.metaKey) {
    ctrl = false; // AltGr
    alt = false;
  }
  if (ctrl !== s.ctrl || alt !== s.alt) return false;
  return symbol && !s.shift ? true : event.shiftKey === s.shift;
}

/** The first entry with a shortcut matching the event, or null. */
export function matchShortcut<T extends { readonly shortcuts: readonly string[] }>(
  event: KeyInput,
  registry: readonly T[],
  options: ShortcutOptions = {},
): T | null {
  for (const entry of registry) {
    for (const shortcut of entry.shortcuts) if (shortcutMatches(shortcut, event, options)) return entry;
  }
  return null;
}

/** For tooltips and the shortcut sheet: 'Ctrl+Shift+Z' or '⌘⇧Z'. */
export function formatShortcut(shortcut: string, options: ShortcutOptions = {}): string {
  const s = parseShortcut(shortcut);
  const names: Record<string, string> = {
    arrowleft: '←',
    arrowright: '→',
    arrowup: '↑',
    arrowdown: '↓',
    ' ': 'Space',
    escape: 'Esc',
    delete: 'Del',
    backspace: '⌫',
    enter: '↵',
  };
  const key = names[s.key] ?? (s.key.length === 1 ? s.key.toUpperCase() : s.key[0].toUpperCase() + s.key.slice(1));
  if (options.mac) return `${s.ctrl ? '⌘' : ''}${s.alt ? '⌥' : ''}${s.shift ? '⇧' : ''}${key}`;
  return [s.ctrl && 'Ctrl', s.alt && 'Alt', s.shift && 'Shift', key].filter(Boolean).join('+');
}

function normaliseKey(key: string): string {
  const k = key.toLowerCase();
  return KEY_ALIASES[k] ?? k;
}

/** A single printable character that is not a letter: digits count, AZERTY types them with Shift. */
function isSymbol(key: string): boolean {
  return key.length === 1 && key !== ' ' && !/\p{L}/u.test(key);
}
