/**
 * What the command palette lists for a query, as pure logic: every action whose label or id holds
 * all the typed words, disabled ones included (greyed, with the reason, never run), and "go to
 * frame N" for queries like "go 12", "go to frame 12", "frame 12" or ":12" (frame numbers as the
 * editor shows them, from 1).
 */
import { runAction, whyDisabled, type Action, type ActionContext } from './actions';

export interface PaletteEntry {
  /** The action id, or `frame.goTo:<index>` for a frame jump. */
  id: string;
  label: string;
  /** The shortcut shown (the action's first), if any. */
  shortcut: string | null;
  /** Null when it can run; else why not. */
  disabled: string | null;
  run(ctx: ActionContext): void;
}

const FRAME_QUERY = /^\s*(?::\s*|(?:go(?:\s+to)?(?:\s+frame)?|frame)\s*)(\d+)\s*$/i;
/** "go", "go to", "go to frame", "frame", ":" with no number yet. */
const FRAME_PREFIX = /^\s*(?::|go(?:\s+to)?(?:\s+frame)?|go\s+to\s+f\w*|frame)\s*$/i;

/** The 1-based frame number a query asks to go to, or null. */
export function frameQuery(query: string): number | null {
  const m = FRAME_QUERY.exec(query);
  return m ? Number(m[1]) : null;
}

function frameJump(n: number, ctx: ActionContext): PaletteEntry {
  const count = ctx.state.frameCount;
  const disabled = n < 1 || n > count ? `the clip has frames 1–${count}` : n - 1 === ctx.state.frameIndex ? 'already on this frame' : null;
  return { id: `frame.goTo:${n - 1}`, label: `Go to frame ${n}`, shortcut: null, disabled, run: ({ commands }) => commands.goToFrame(n - 1) };
}

const GO_HINT: Omit<PaletteEntry, 'run'> = { id: 'frame.goTo', label: 'Go to frame…', shortcut: null, disabled: 'type its number: "go 12" or ":12"' };

export function paletteEntries(query: string, registry: readonly Action[], ctx: ActionContext): PaletteEntry[] {
  const n = frameQuery(query);
  if (n !== null) return [frameJump(n, ctx)];
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const out: PaletteEntry[] = [];
  const hint = FRAME_PREFIX.test(query) || (words.length > 0 && words.every((w) => GO_HINT.label.toLowerCase().includes(w)));
  if (hint) out.push({ ...GO_HINT, run: () => undefined });
  for (const a of registry) {
    const text = `${a.label} ${a.id}`.toLowerCase();
    if (!words.every((w) => text.includes(w))) continue;
    out.push({ id: a.id, label: a.label, shortcut: a.shortcuts[0] ?? null, disabled: whyDisabled(a, ctx), run: (c) => void runAction(a, c) });
  }
  return out;
}

/** The entry Enter runs first: the first one that can run, else the first (which then says why not). */
export function firstRunnable(entries: readonly PaletteEntry[]): number {
  const i = entries.findIndex((e) => e.disabled === null);
  return i < 0 ? 0 : i;
}

/** Runs an entry if it can run (a disabled entry never runs); returns whether it ran. */
export function runEntry(entry: PaletteEntry | undefined, ctx: ActionContext): boolean {
  if (!entry || entry.disabled !== null) return false;
  entry.run(ctx);
  return true;
}
