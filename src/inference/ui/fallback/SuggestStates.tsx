/**
 * The "Suggest states (fallback)" button: trains the colour/texture classifier (in the classical
 * worker) on the clip's other labelled frames, previews both states it proposes for the shown frame
 * (each in its state colour), and writes the suggestion to gt as one undoable step on Accept.
 */
import { useEffect, useState } from 'react';
import type { RgbaImage } from '../../../masks/labelMap';
import type { EditorSession } from '../../../annotator/session/editorSession';
import { classicalClient, type StateSuggestion } from '../../classical/classicalClient';
import type { FrameImageCache } from '../../../annotator/session/frameImages';
import { samModelOf, useAssist } from '../assistStore';
import { shownFrameRgba } from '../frameSource';
import { applySuggestion, objectMask, suggestionPreview, trainingFrames } from './suggestStates';
import { useSuggestionPreview } from './suggestionPreviewState';

interface Props {
  session: EditorSession;
  getImage(k: number): Promise<RgbaImage>;
}

interface Pending {
  frameIndex: number;
  suggestion: StateSuggestion;
  targetMask: Uint8Array | undefined;
  trainedOn: number[];
}

/** The button as the editor shows it: only while no SAM model is ready (with one, proposals carry CLIP labels). */
export function SuggestStatesFallback({ session, images }: Omit<Props, 'getImage'> & { images: FrameImageCache }) {
  const sam = useAssist((s) => samModelOf(s.models));
  if (sam) return null;
  return <SuggestStates session={session} getImage={(k) => shownFrameRgba(images, k)} />;
}

export function SuggestStates({ session, getImage }: Props) {
  const [busy, setBusy] = useState(false);
  const [pending, setPending] = useState<Pending | null>(null);
  const [note, setNote] = useState('');

  // A suggestion belongs to its frame: moving away drops it.
  useEffect(() => session.onFrame(() => setPending(null)), [session]);

  // Preview: the state it would give each pixel it decides, actionable and transformed alike
  // (drawn by LabelPreviewOverlay).
  useEffect(() => {
    if (!pending) return;
    useSuggestionPreview.setState({ labels: suggestionPreview(session.map, pending.suggestion, pending.targetMask) });
    return () => useSuggestionPreview.setState({ labels: null });
  }, [pending, session]);

  const suggest = async () => {
    const k = session.snapshot.frameIndex;
    // The object as painted on frame k now, before any await lets the editor move on.
    const targetMask = objectMask(session.map);
    setBusy(true);
    setNote('training on labelled frames…');
    try {
      const { frames, indices } = await trainingFrames({ frameCount: session.clip.frameCount, loadMap: (j) => session.loadMap(j), getImage }, k);
      if (frames.length === 0) throw new Error('no other frame of this clip has actionable or transformed pixels to learn from');
      const client = await classicalClient();
      const suggestion = await client.classifyStates(frames, await getImage(k), targetMask);
      if (session.snapshot.frameIndex !== k) return;
      setPending({ frameIndex: k, suggestion, targetMask, trainedOn: indices });
      setNote('');
    } catch (e) {
      setNote(`suggestion failed: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setBusy(false);
    }
  };

  const accept = async () => {
    if (!pending) return;
    // The suggestion belongs to its frame, shown or not: it is written there as one undo step.
    const { frameIndex, suggestion, targetMask } = pending;
    setPending(null);
    const outcome = await session.edit(frameIndex, 'suggest-states', (map) => applySuggestion(map, suggestion, targetMask));
    if (outcome.status === 'refused') setNote(`not applied: ${outcome.reason}`);
  };

  const count = (v: number) => (pending ? pending.suggestion.labels.reduce((n, x, i) => n + (x === v && (!pending.targetMask || pending.targetMask[i]) ? 1 : 0), 0) : 0);
  return (
    <span className="flex items-center gap-1 text-xs">
      <button
        className="rounded px-2 py-0.5 text-zinc-300 hover:bg-zinc-800 disabled:opacity-50"
        data-testid="suggest-states"
        disabled={busy || session.snapshot.readOnly}
        onClick={() => void suggest()}
        title="Fallback without weights: learn the clip's state colours/textures from its other labelled frames and suggest actionable/transformed for this frame (inside the painted object, or the whole frame when nothing is painted)"
      >
        Suggest states (fallback)
      </button>
      {note && <span className="text-amber-300" data-testid="suggest-note">{note}</span>}
      {pending && (
        <>
          <span className="text-amber-300" data-testid="suggest-result" data-act={count(1)} data-trf={count(2)}>
            {pending.targetMask ? 'inside the painted object' : 'whole frame'}: act {count(1)} px, trf {count(2)} px · confidence {Math.round(pending.suggestion.meanConfidence * 100)}% · from {pending.trainedOn.length} frame
            {pending.trainedOn.length === 1 ? '' : 's'} · {Math.round(pending.suggestion.trainMs + pending.suggestion.predictMs)} ms
          </span>
          <button className="rounded bg-zinc-700 px-2 py-0.5 hover:bg-zinc-600" data-testid="suggest-accept" onClick={() => void accept()}>
            Accept
          </button>
          <button className="rounded bg-zinc-800 px-2 py-0.5 hover:bg-zinc-700" onClick={() => setPending(null)}>
            Discard
          </button>
        </>
      )}
    </span>
  );
}
