/**
 * Widths of the columns beside the canvas, in one place so they add up: each grows with the window
 * between a floor its controls fit in and the width it had before, so at 1400 px the canvas keeps
 * about two thirds of the window with the default panels open (docs/layout.md has the figures).
 * Every panel scrolls inside itself and wraps its rows, so no control is ever clipped off-screen.
 */
export const PANEL_WIDTH = {
  /** The frame panel (phase, ignore, guidelines): annotator/ui/SidePanel.tsx. */
  frame: 'w-[clamp(12.5rem,14vw,18rem)]',
  /** The metric panels: metrics/panels/MetricsDock.tsx. */
  metrics: 'w-[clamp(15rem,17vw,25rem)]',
  /** The review panel: review/ui/ReviewSidebar.tsx. */
  review: 'w-[clamp(14rem,16vw,20rem)]',
} as const;

/** The thin vertical strip a collapsed panel leaves, which opens it again. */
export const COLLAPSED_STRIP = 'w-7 shrink-0 border-l border-zinc-800 bg-zinc-950 text-xs text-zinc-400 [writing-mode:vertical-rl] hover:bg-zinc-900';
