/**
 * Reviewer mode's image over the frame: the annotator's version (V) or the diff of what the reviewer
 * added and removed (D), for the frame whose review diff the reviewer panel loaded (reviewerState.ts).
 */
import { useMemo } from 'react';
import { Image } from 'react-konva';
import type { CanvasOverlayProps } from '../../../annotator/ui/canvasOverlays';
import { useStageData } from '../../../annotator/ui/useStageData';
import { DIFF_BITS } from '../../errorMap';
import { DIFF_LABELS, paintDiff, paintVersion } from '../diffImage';
import { useReviewer } from '../reviewerState';

export function ReviewerImageOverlay({ clip, frameIndex, stage }: CanvasOverlayProps) {
  const on = useReviewer((r) => r.on);
  const review = useReviewer((r) => r.review);
  const showAnnotator = useReviewer((r) => r.showAnnotator);
  const showDiff = useReviewer((r) => r.showDiff);
  const diffHidden = useReviewer((r) => r.diffHidden);
  const shown = on && review && review.frameIndex === frameIndex ? review : null;
  const what = shown ? (showAnnotator ? 'annotator' : showDiff ? 'diff' : null) : null;
  const { width, height } = clip;
  const canvas = useMemo(() => {
    if (!shown || !what) return null;
    const shownBits = DIFF_LABELS.reduce((m, [k]) => (diffHidden.includes(k) ? m : m | DIFF_BITS[k]), 0);
    const c = document.createElement('canvas');
    c.width = width;
    c.height = height;
    const ctx = c.getContext('2d')!;
    const img = ctx.createImageData(width, height);
    if (what === 'annotator') paintVersion(shown.annotator, img);
    else paintDiff(shown.diff, img, shownBits);
    ctx.putImageData(img, 0, 0);
    return c;
  }, [shown, what, diffHidden, width, height]);
  useStageData(stage, 'data-reviewer-overlay', what ?? undefined);
  return canvas && <Image image={canvas} x={0} y={0} />;
}
