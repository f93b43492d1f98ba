import { useEffect, useRef } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useDb } from '../db';
import { getFrameImage } from '../../store/frames';
import { getLayer } from '../../store/layers';
import { decodeLayer, parseLayer } from '../../masks/layers';
import { paintOverlay } from '../../annotator/overlayPixels';

/** Draws frame `index` and its ground truth on one canvas at the frame's native resolution. */
export function FrameView({ clipId, index, width, height }: { clipId: string; index: number; width: number; height: number }) {
  const db = useDb();
  const image = useLiveQuery(() => getFrameImage(db, clipId, index), [db, clipId, index]);
  const layer = useLiveQuery(() => getLayer(db, clipId, 'gt', index), [db, clipId, index]);
  const canvas = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const el = canvas.current;
    if (!el || !image) return;
    let cancelled = false;
    void createImageBitmap(image.blob).then((bitmap) => {
      if (cancelled) return bitmap.close();
      const ctx = el.getContext('2d')!;
      ctx.drawImage(bitmap, 0, 0, width, height);
      bitmap.close();
      if (layer) {
        const overlay = new ImageData(width, height);
        paintOverlay(decodeLayer(parseLayer(layer)), overlay.data, 0.45);
        const tmp = new OffscreenCanvas(width, height);
        tmp.getContext('2d')!.putImageData(overlay, 0, 0);
        ctx.drawImage(tmp, 0, 0);
      }
      el.dataset.frame = String(index);
    });
    return () => {
      cancelled = true;
    };
  }, [image, layer, index, width, height]);

  return (
    <div className="flex h-full items-center justify-center bg-black p-2">
      <canvas ref={canvas} width={width} height={height} data-testid="frame-canvas" className="max-h-full max-w-full object-contain" />
    </div>
  );
}
