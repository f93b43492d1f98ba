/**
 * A clip at one frame: the frame with its ground truth, the frame strip, phase and ignore state.
 * Frame k is addressed in the URL (#/c/<clip>/<k>) so reloads and links land on the same frame.
 */
import { useEffect } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useDb } from '../db';
import { navigate, parseRoute } from '../router';
import { getClip } from '../../store/clips';
import { listFrames } from '../../store/frames';
import { layerAreas } from '../../store/layers';
import { FrameView } from './FrameView';
import { FrameStrip } from './FrameStrip';

export function ClipPage({ clipId, frame }: { clipId: string; frame: number }) {
  const db = useDb();
  const clip = useLiveQuery(() => getClip(db, clipId), [db, clipId], null);
  const frames = useLiveQuery(() => listFrames(db, clipId), [db, clipId]);
  const areas = useLiveQuery(() => layerAreas(db, clipId, 'gt'), [db, clipId]);
  const count = clip?.frameCount ?? 0;
  const k = Math.min(frame, Math.max(0, count - 1));

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLSelectElement) return;
      const step = e.key === 'ArrowRight' || e.key === 'd' ? 1 : e.key === 'ArrowLeft' || e.key === 'a' ? -1 : 0;
      if (step !== 0 && count > 0) {
        e.preventDefault();
        // Read the frame from the URL, not from this render: key repeat outruns React's re-render.
        const here = parseRoute(window.location.hash);
        const current = here.name === 'clip' ? Math.min(here.frame, count - 1) : 0;
        navigate({ name: 'clip', clipId, frame: Math.min(count - 1, Math.max(0, current + step)) }, { replace: true });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [clipId, count]);

  if (clip === null) return null;
  if (clip === undefined) return <p className="p-6 text-zinc-400">This clip does not exist (it may have been deleted).</p>;
  const meta = frames?.[k];
  return (
    <div className="flex h-[calc(100vh-45px)] flex-col">
      <div className="flex items-center gap-3 border-b border-zinc-800 px-4 py-2 text-sm">
        <a href={`#/p/${clip.projectId}`} className="text-zinc-400 hover:underline">
          ← clips
        </a>
        <span className="font-medium" data-testid="clip-title">
          {clip.name}
        </span>
        <span className="text-zinc-400">
          {clip.osc.verb} {clip.osc.noun} · <span className="text-red-400">{clip.osc.actionable}</span> →{' '}
          <span className="text-emerald-400">{clip.osc.transformed}</span>
        </span>
        <span className="flex-1" />
        <span data-testid="frame-indicator" className="tabular-nums">
          frame {k + 1} / {count}
        </span>
        {meta?.phase && <span className="rounded bg-zinc-800 px-2 py-0.5 text-xs">{meta.phase}</span>}
        {meta?.ignored && <span className="rounded bg-zinc-700 px-2 py-0.5 text-xs">ignored: {meta.ignored.reason}</span>}
      </div>
      <div className="min-h-0 flex-1">
        <FrameView clipId={clipId} index={k} width={clip.width} height={clip.height} />
      </div>
      <FrameStrip clipId={clipId} frames={frames ?? []} areas={areas ?? []} current={k} />
    </div>
  );
}
