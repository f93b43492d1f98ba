/**
 * Switching the shown frame: one switch at a time, the latest asked for wins, and whoever must act
 * on the frame being switched to (keys pressed during the load, edits) waits for it (`afterLoad`).
 * The session says how a frame is loaded and shown; this says when.
 */
import type { LabelMap } from '../../masks/labelMap';

export interface FrameSwitchHost {
  /** The frame shown now, or -1. */
  shownIndex(): number;
  /** Frame k's map and its history, ready to show. */
  load(index: number): Promise<LabelMap>;
  loadHistory(index: number): Promise<void>;
  /** Makes frame k the shown one (the switch won). */
  show(index: number, map: LabelMap): void;
}

export class FrameSwitcher {
  private token = 0;
  /** The frame switch in progress: edits asked for meanwhile wait for it, so they land on the frame shown next. */
  private loading: Promise<void> = Promise.resolve();
  /** Frame being loaded, or -1. */
  private loadingIndex = -1;

  constructor(private readonly host: FrameSwitchHost) {}

  /** The frame being switched to, or -1 when no switch is under way. */
  get coming(): number {
    return this.loadingIndex;
  }

  /**
   * Switches to frame k unless it is shown or on its way already; `starting` runs first, only when
   * a switch starts.
   */
  go(index: number, starting: () => void): Promise<void> {
    if (index === this.loadingIndex) return this.loading; // already on its way (command, then URL)
    if (index === this.host.shownIndex() && this.loadingIndex === -1) return this.loading;
    starting();
    this.loadingIndex = index;
    this.loading = this.switchTo(index).finally(() => {
      if (this.loadingIndex === index) this.loadingIndex = -1;
    });
    return this.loading;
  }

  /** Runs `fn` once no frame switch is pending (a switch started meanwhile is waited for too). */
  async afterLoad(fn: () => void): Promise<void> {
    let current: Promise<void>;
    do {
      current = this.loading;
      await current.catch(() => undefined);
    } while (current !== this.loading);
    fn();
  }

  /** Disowns the switch under way (the clip is read again): it shows nothing when it lands. */
  abandon(): void {
    this.token++;
    this.loadingIndex = -1;
  }

  private async switchTo(index: number): Promise<void> {
    const token = ++this.token;
    const map = await this.host.load(index);
    if (token !== this.token) return;
    await this.host.loadHistory(index);
    if (token !== this.token) return; // a later switch won
    this.host.show(index, map);
  }
}
