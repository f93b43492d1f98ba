/**
 * Watch mode: the clip's source video over the canvas, played and scrubbed at its native rate,
 * with the current time and the nearest sampled frame; "go to this frame" takes the editor there.
 * Watching adds no annotation targets: only the sampled frames are annotated. Opened and played
 * with the editor's actions `view.watch` (Shift+K) and `view.watchPlay` (K).
 *
 * When the video is not in this browser (OPFS cleared, a clip from a bundle or another browser, an
 * insecure context without OPFS, a clip imported before videos were kept) it offers to link the
 * file: the pick is checked against the clip (io/video/sourceVideoFile.ts) and kept.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { SpocDb } from '../../store/db';
import type { Clip, Frame } from '../../store/types';
import { useWatchMode } from '../../annotator/ui/watchMode';
import { LinkRefused, linkSourceVideo, sourceVideoFile } from '../../io/video/sourceVideoFile';
import { formatFps } from '../../io/video/sampling';
import { notify, messageOf } from '../../workspace/notices';
import { FilePick } from '../import/FilePick';
import { formatSeconds, nearestFrameIndex } from './watchTime';

interface Props {
  db: SpocDb;
  clip: Clip;
  frames: readonly Frame[];
  goToFrame: (k: number) => void;
}

export function WatchPanel(props: Props) {
  const open = useWatchMode((s) => s.open);
  if (!open) return null;
  return <Watch {...props} />;
}

function Watch({ db, clip, frames, goToFrame }: Props) {
  const close = useWatchMode((s) => s.close);
  // undefined: still looking; null: missing.
  const [file, setFile] = useState<File | null | undefined>(undefined);
  const [linking, setLinking] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [looked, setLooked] = useState(0);
  const ref = clip.source.video;

  useEffect(() => {
    let alive = true;
    sourceVideoFile(clip).then(
      (f) => alive && setFile(f),
      () => alive && setFile(null),
    );
    return () => {
      alive = false;
    };
  }, [clip, looked]);

  const link = async (files: File[]) => {
    const picked = files[0];
    if (!picked) return;
    setLinking(true);
    setProblem(null);
    try {
      const outcome = await linkSourceVideo(db, clip, picked);
      notify('info', `Linked ${picked.name} as the source video of "${clip.name}".`);
      if (outcome.remark) notify('warn', outcome.remark);
      setLooked((n) => n + 1);
    } catch (err) {
      const message = err instanceof LinkRefused ? err.message : `Could not link ${picked.name}: ${messageOf(err)}`;
      setProblem(message);
      notify('error', message);
    } finally {
      setLinking(false);
    }
  };

  return (
    <div className="absolute inset-0 z-30 flex flex-col bg-black" data-testid="watch-panel" role="region" aria-label="Watch the source video">
      <div className="flex items-center gap-2 border-b border-zinc-800 bg-zinc-900 px-2 py-1 text-xs text-zinc-300">
        <span className="font-medium">Watch</span>
        <span className="min-w-0 truncate text-zinc-500">
          {ref ? `${ref.fileName}${ref.nativeFps ? ` · ${formatFps(ref.nativeFps)} fps` : ''}` : clip.source.fileName} · annotated at {formatFps(clip.sampleFps)} fps
        </span>
        <span className="flex-1" />
        <button className="rounded px-2 py-0.5 hover:bg-zinc-800" onClick={close} aria-label="Close watch mode" title="Close (Shift+K)">
          ✕ close
        </button>
      </div>
      {file === undefined ? (
        <p className="p-4 text-sm text-zinc-500">Looking for the source video…</p>
      ) : file === null ? (
        <div className="flex flex-col items-start gap-3 p-4 text-sm text-zinc-300" data-testid="watch-missing">
          <p>
            {ref
              ? `The source video "${ref.fileName}" is not in this browser (its storage was cleared, or the clip came from a bundle or another browser).`
              : "This clip has no kept source video (it was imported before videos were kept, from frames, or where the browser could not keep files)."}{' '}
            Link the file to watch the clip at its native rate{ref ? '; it must be the same file (size and SHA-256 are checked).' : '; a video whose duration matches the clip within one sample interval is accepted.'}
          </p>
          <FilePick label={linking ? 'Checking…' : 'Link the source video…'} testId="watch-link" accept="video/*,.mp4,.webm,.mkv,.mov" disabled={linking} onFiles={(f) => void link(f)} />
          {problem && (
            <p className="text-red-400" data-testid="watch-link-problem">
              {problem}
            </p>
          )}
        </div>
      ) : (
        <Player file={file} clip={clip} frames={frames} goToFrame={goToFrame} />
      )}
    </div>
  );
}

function Player({ file, clip, frames, goToFrame }: { file: File; clip: Clip; frames: readonly Frame[]; goToFrame: (k: number) => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const url = useMemo(() => URL.createObjectURL(file), [file]);
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(clip.source.video?.durationSec ?? clip.source.durationSec ?? 0);
  const [playing, setPlaying] = useState(false);
  const startSec = clip.source.video?.startSec ?? 0;
  const nativeFps = clip.source.video?.nativeFps ?? null;
  const step = nativeFps ? 1 / nativeFps : 0.01;
  const times = useMemo(() => frames.map((f) => f.timestampSec), [frames]);
  // The clip time shown: video time from the first frame (sampling.ts), never before it.
  const clipSec = Math.max(0, time - startSec);
  const nearest = nearestFrameIndex(times, clipSec);

  // Follow the video: every painted frame while playing, and after each seek.
  useEffect(() => {
    const v = video.current!;
    let raf = 0;
    const read = () => setTime(v.currentTime);
    const tick = () => {
      read();
      raf = requestAnimationFrame(tick);
    };
    const onPlay = () => {
      setPlaying(true);
      cancelAnimationFrame(raf);
      raf = requestAnimationFrame(tick);
    };
    const onPause = () => {
      setPlaying(false);
      cancelAnimationFrame(raf);
      read();
    };
    const onMeta = () => Number.isFinite(v.duration) && setDuration(v.duration);
    // One signal removes every listener at once.
    const listening = new AbortController();
    const on = { signal: listening.signal };
    v.addEventListener('play', onPlay, on);
    v.addEventListener('pause', onPause, on);
    v.addEventListener('ended', onPause, on);
    v.addEventListener('seeked', read, on);
    v.addEventListener('timeupdate', read, on);
    v.addEventListener('loadedmetadata', onMeta, on);
    return () => {
      cancelAnimationFrame(raf);
      listening.abort();
    };
  }, [url]);

  const toggle = () => {
    const v = video.current;
    if (!v) return;
    if (v.paused || v.ended) v.play().catch((err: unknown) => notify('error', `The video cannot play here: ${messageOf(err)}`));
    else v.pause();
  };
  // The K action (view.watchPlay) asks through the watch-mode store.
  const playRequests = useWatchMode((s) => s.playRequests);
  const seen = useRef(playRequests);
  useEffect(() => {
    if (playRequests === seen.current) return;
    seen.current = playRequests;
    toggle();
  }, [playRequests]);

  const seek = (sec: number) => {
    const v = video.current;
    if (v) v.currentTime = Math.max(0, Math.min(duration || sec, sec));
  };

  return (
    <>
      <video ref={video} src={url} className="min-h-0 flex-1 object-contain" muted playsInline preload="auto" data-testid="watch-video" onClick={toggle} />
      <div className="flex items-center gap-2 border-t border-zinc-800 bg-zinc-900 px-2 py-1 text-xs text-zinc-300">
        <button className="w-16 rounded px-2 py-0.5 hover:bg-zinc-800" onClick={toggle} aria-label={playing ? 'Pause' : 'Play'} data-testid="watch-play" title="Play / pause (K)">
          {playing ? '❚❚ pause' : '▶ play'}
        </button>
        <button className="rounded px-1 hover:bg-zinc-800" onClick={() => seek(time - step)} aria-label="Previous native frame">
          ‹
        </button>
        <input
          type="range"
          className="min-w-0 flex-1"
          min={0}
          max={duration || 0}
          step={step}
          value={Math.min(time, duration || time)}
          aria-label="Source video position"
          data-testid="watch-scrub"
          onChange={(e) => seek(Number(e.target.value))}
        />
        <button className="rounded px-1 hover:bg-zinc-800" onClick={() => seek(time + step)} aria-label="Next native frame">
          ›
        </button>
        <span className="w-28 text-right tabular-nums" data-testid="watch-time" data-time={clipSec.toFixed(3)}>
          {formatSeconds(clipSec)} / {formatSeconds(Math.max(0, duration - startSec))}
        </span>
        <span className="tabular-nums text-zinc-400" data-testid="watch-nearest" data-frame={nearest}>
          nearest frame {nearest + 1} ({formatSeconds(times[nearest] ?? 0)})
        </span>
        <button className="rounded bg-sky-800 px-2 py-0.5 hover:bg-sky-700 disabled:opacity-50" disabled={nearest < 0} onClick={() => {
            goToFrame(nearest);
            useWatchMode.getState().close();
          }}
          data-testid="watch-go">
          go to this frame
        </button>
      </div>
    </>
  );
}
