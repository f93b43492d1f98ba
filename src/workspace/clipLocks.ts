/**
 * Which tab may write a clip. A tab holds the lock `spoc-clip:<id>` while it edits the clip (the
 * editor, for its whole session) or while it writes the clip from outside the editor (an import, a
 * status change), so two tabs never write the same clip at once.
 *
 * Three ways to hold it, picked from what the page has:
 * - `web-locks`: the Web Locks API. Exclusive across tabs and released when a tab dies.
 * - `broadcast`: Web Locks exist only in secure contexts (https, localhost); on plain http a tab
 *   asks the others over a BroadcastChannel ("is anyone holding clip X?") and holds it when nobody
 *   says yes within a short window. Two tabs asking at the same instant are ordered by tab id.
 * - `unguarded`: neither exists (Node, very old browsers): every request is granted. The app shows
 *   the insecure-context banner then, which says two tabs could overwrite each other.
 *
 * Every lock this tab holds is counted here, so a writer can tell "held by me" (go on) from "held
 * by another tab" (refuse).
 */

export type ClipLockMode = 'web-locks' | 'broadcast' | 'unguarded';

export interface ClipHold {
  /** Gives the lock back; calling it again does nothing. */
  release(): void;
}

/** The part of the Web Locks API used here. */
export interface LockManagerLike {
  request(name: string, options: { ifAvailable: true }, callback: (lock: unknown) => Promise<void>): Promise<unknown>;
}

/** The part of BroadcastChannel used here. */
export interface ChannelLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  close(): void;
}

export interface ClipLockEnv {
  locks?: LockManagerLike | null;
  openChannel?: (() => ChannelLike) | null;
  /** Orders simultaneous broadcast claims; any unique string. */
  tabId: string;
  /** How long a broadcast claim waits for a "held" answer. */
  answerWindowMs?: number;
}

export const CLIP_CLAIM_CHANNEL = 'spoc-clip-claims';

/** A busy tab answers late; a quarter second keeps opening a clip quick while giving it time. */
const DEFAULT_ANSWER_WINDOW_MS = 250;

type ClaimMessage = { type: 'ask'; clipId: string; from: string; nonce: string } | { type: 'held'; clipId: string; to: string; nonce: string };

export function clipLockName(clipId: string): string {
  return `spoc-clip:${clipId}`;
}

export class ClipLocks {
  readonly mode: ClipLockMode;
  private readonly env: ClipLockEnv;
  private readonly held = new Map<string, number>();
  /** Broadcast claims in flight: clip id -> the refusal callback of the claim. */
  private readonly claiming = new Map<string, { nonce: string; refuse: () => void }>();
  private channel: ChannelLike | null = null;
  private nonces = 0;

  constructor(env: ClipLockEnv) {
    this.env = env;
    this.mode = env.locks ? 'web-locks' : env.openChannel ? 'broadcast' : 'unguarded';
    if (this.mode === 'broadcast') {
      this.channel = env.openChannel!();
      this.channel.addEventListener('message', (e) => this.onMessage(e.data as ClaimMessage));
    }
  }

  /** True when this tab holds the clip's lock (editing it, or writing it right now). */
  heldHere(clipId: string): boolean {
    return this.held.has(clipId);
  }

  /**
   * Takes the clip's lock if nobody holds it, without waiting; null when it is held (by another tab,
   * or already by this one: a second editor of the same clip in one tab is refused as well).
   */
  async tryAcquire(clipId: string): Promise<ClipHold | null> {
    if (this.mode === 'web-locks') return this.webLock(clipId);
    if (this.held.has(clipId) || this.claiming.has(clipId)) return null;
    if (this.mode === 'broadcast' && !(await this.claim(clipId))) return null;
    return this.count(clipId, () => undefined);
  }

  /** Stops answering other tabs (tests; a page never needs it). */
  destroy(): void {
    this.channel?.close();
    this.channel = null;
  }

  private async webLock(clipId: string): Promise<ClipHold | null> {
    let letGo: () => void = () => undefined;
    const holding = new Promise<void>((resolve) => (letGo = resolve));
    const granted = await new Promise<boolean>((answer) => {
      void this.env.locks!.request(clipLockName(clipId), { ifAvailable: true }, async (lock) => {
        answer(lock !== null);
        if (lock !== null) await holding;
      });
    });
    return granted ? this.count(clipId, letGo) : null;
  }

  private count(clipId: string, letGo: () => void): ClipHold {
    this.held.set(clipId, (this.held.get(clipId) ?? 0) + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        const n = (this.held.get(clipId) ?? 1) - 1;
        if (n > 0) this.held.set(clipId, n);
        else this.held.delete(clipId);
        letGo();
      },
    };
  }

  /** Asks the other tabs; true when none holds the clip (or wins the claim) within the window. */
  private claim(clipId: string): Promise<boolean> {
    const nonce = `${this.env.tabId}:${++this.nonces}`;
    return new Promise<boolean>((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        if (this.claiming.get(clipId)?.nonce === nonce) this.claiming.delete(clipId);
        resolve(ok);
      };
      const timer = setTimeout(() => done(true), this.env.answerWindowMs ?? DEFAULT_ANSWER_WINDOW_MS);
      this.claiming.set(clipId, { nonce, refuse: () => done(false) });
      this.post({ type: 'ask', clipId, from: this.env.tabId, nonce });
    });
  }

  private onMessage(m: ClaimMessage): void {
    if (!m || typeof m !== 'object') return;
    if (m.type === 'ask' && m.from !== this.env.tabId) {
      // Held here, or claimed here at the same instant by the tab that wins ties (smaller id).
      const contested = this.claiming.has(m.clipId) && this.env.tabId < m.from;
      if (this.held.has(m.clipId) || contested) this.post({ type: 'held', clipId: m.clipId, to: m.from, nonce: m.nonce });
    } else if (m.type === 'held' && m.to === this.env.tabId) {
      const pending = this.claiming.get(m.clipId);
      if (pending?.nonce === m.nonce) pending.refuse();
    }
  }

  private post(m: ClaimMessage): void {
    this.channel?.postMessage(m);
  }
}
