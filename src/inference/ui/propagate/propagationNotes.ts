/**
 * What the propagation panel says about a frame it wrote ("propagated from 4 · confidence 0.82"),
 * kept only while it is true: any later edit of that frame — a stroke, a clear, an undo of the
 * propagation, a tag, another propagation onto it — makes the note describe masks that are gone, so
 * it is dropped. The session names the frame of every edit (onEdit), shown or not.
 * Plain TS over the session's state stream; the panel renders from subscribe/get.
 */
import type { EditorSession } from '../../../annotator/session/editorSession';

type SessionPort = Pick<EditorSession, 'onEdit'>;

/**
 * Below this calibrated confidence (the IoU a propagated frame is expected to have, see
 * docs/inference.md) a propagated frame is marked on the timeline for review.
 */
export const LOW_CONFIDENCE = 0.85;

/** The frames whose note says they were propagated with confidence under `threshold`, with the timeline's hover text. */
export function lowConfidenceFrames(notes: ReadonlyMap<number, { from: number; confidence: number }>, threshold = LOW_CONFIDENCE): Map<number, string> {
  const out = new Map<number, string>();
  for (const [k, n] of notes) {
    if (n.confidence < threshold) out.set(k, `propagated from ${n.from + 1} with low confidence ${n.confidence.toFixed(2)} (< ${threshold.toFixed(2)}): check it`);
  }
  return out;
}

const shared = new WeakMap<object, PropagationNotes<unknown>>();

/**
 * The one notes store of an editor session: the propagation panel writes it, the timeline's
 * low-confidence marks read it (so both see the same frames).
 */
export function propagationNotesFor<N>(session: SessionPort): PropagationNotes<N> {
  let notes = shared.get(session);
  if (!notes) {
    notes = new PropagationNotes<unknown>(session);
    shared.set(session, notes);
  }
  return notes as PropagationNotes<N>;
}

/** The timeline's view of a session's notes: frames under LOW_CONFIDENCE, as an external store for React. */
export function lowConfidenceStore(session: SessionPort): { subscribe(fn: () => void): () => void; get(): ReadonlyMap<number, string> } {
  const notes = propagationNotesFor<{ from: number; confidence: number }>(session);
  let seen: ReadonlyMap<number, unknown> | null = null;
  let flags: ReadonlyMap<number, string> = new Map();
  return {
    subscribe: (fn) => notes.subscribe(fn),
    get() {
      if (seen !== notes.all) {
        seen = notes.all;
        flags = lowConfidenceFrames(notes.all);
      }
      return flags;
    },
  };
}

export class PropagationNotes<N> {
  private readonly notes = new Map<number, N>();
  private readonly listeners = new Set<() => void>();
  /** A new object after every change, for React's useSyncExternalStore. */
  private view: ReadonlyMap<number, N> = new Map();

  constructor(private readonly session: SessionPort) {}

  /**
   * Starts following the session's edits; returns the function that stops. Separate from the
   * constructor so a React effect can attach and detach (StrictMode runs effects twice).
   */
  attach(): () => void {
    return this.session.onEdit((k) => this.forget(k));
  }

  /** The note for frame k, written by a propagation and not edited since, or undefined. */
  get(k: number): N | undefined {
    return this.notes.get(k);
  }

  get all(): ReadonlyMap<number, N> {
    return this.view;
  }

  /** Call right after the propagation's write to frame k (its own edit is then already counted). */
  record(k: number, note: N): void {
    this.notes.set(k, note);
    this.changed();
  }

  forget(k: number): void {
    if (this.notes.delete(k)) this.changed();
  }

  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private changed(): void {
    this.view = new Map(this.notes);
    for (const fn of this.listeners) fn();
  }
}
