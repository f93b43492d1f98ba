/**
 * The editor's AI-assist strip: a "Models" button opening the Models dialog (pick files, see the
 * backend, load progress and self-tests), the SAM tool's status, and the glue that gives the
 * editor session a SamTool once a SAM model is ready — until then the weight-free FallbackTool
 * (src/inference/classical: GrabCut / colour fill / scissors) and "Suggest states (fallback)".
 * Pixels never pass through React: the tool's preview is a canvas overlay (SamPreviewOverlay.tsx)
 * and it commits through the session.
 */
import { useEffect, useMemo, useRef, useState, useSyncExternalStore, useCallback } from 'react';
import { createPortal } from 'react-dom';
import { shownFrameRgba } from './frameSource';
import type { EditorSession } from '../../annotator/session/editorSession';
import type { FrameImageCache } from '../../annotator/session/frameImages';
import { inferenceClient, openModelsDialog, pickModelFiles, restoreModels, samModelOf, useAssist, useModelsDialog, type ModelStatus } from './assistStore';
import { PUBLIC_MODELS } from '../models/publicModels';
import { SamTool } from './samTool';
import { useAiTool } from './aiToolState';
import { FallbackTool } from './fallback/fallbackTool';
import { classicalClient } from '../classical/classicalClient';

interface Props {
  session: EditorSession;
  images: FrameImageCache;
}

export function AiAssist({ session, images }: Props) {
  const models = useAssist((s) => s.models);
  const open = useModelsDialog((s) => s.open);
  const [sam, setSam] = useState<SamTool | null>(null);
  const state = useSyncExternalStore(
    useCallback((fn: () => void) => session.onState(fn), [session]),
    () => session.snapshot,
  );
  const samModel = samModelOf(models);
  const samModelId = samModel?.id ?? null;

  useEffect(() => {
    void restoreModels();
  }, []);

  // A SamTool per (session, model).
  useEffect(() => {
    if (!samModelId) return;
    let alive = true;
    let tool: SamTool | null = null;
    void inferenceClient().then((client) => {
      if (!alive) return;
      tool = new SamTool({ backend: client, modelId: samModelId, clipId: session.clip.id, frameCount: session.clip.frameCount, getImage: (k) => shownFrameRgba(images, k) });
      session.setSamTool(tool);
      setSam(tool);
      useAiTool.setState({ sam: tool });
    });
    return () => {
      alive = false;
      if (tool) {
        session.setSamTool(null);
        tool.destroy();
      }
      setSam(null);
      useAiTool.setState({ sam: null });
    };
  }, [session, images, samModelId]);

  // Without a SAM model (none picked, or still loading) the AI tool is the weight-free fallback:
  // GrabCut / colour fill on OpenCV.js in the classical worker, started on first use.
  const fallback = useMemo(() => (samModelId ? null : new FallbackTool({ backend: classicalClient, getImage: (k) => shownFrameRgba(images, k) })), [images, samModelId]);
  useEffect(() => {
    if (!fallback) return;
    session.setSamTool(fallback);
    useAiTool.setState({ fallback });
    return () => {
      session.setSamTool(null);
      useAiTool.setState({ fallback: null });
      fallback.destroy();
    };
  }, [session, fallback]);

  // Encode the shown frame while the SAM tool is active (or fetch it for the fallback). Its preview
  // is drawn by SamPreviewOverlay (a canvas overlay).
  const active = state.tool === 'sam';
  const assist = sam ?? fallback;
  useEffect(() => {
    if (!assist || !active) return;
    void assist.setFrame(session.toolContext);
    const offFrame = session.onFrame(() => void assist.setFrame(session.toolContext));
    return () => {
      offFrame();
      assist.clear();
    };
  }, [assist, active, session]);

  // Tab / Shift+Tab, Enter / Shift+Enter and Escape reach the SAM tool through the editor's one key
  // handler (AnnotatorPage: the active tool's keys, EditorSession.toolKey), not a listener of its own.

  return (
    <>
      <button
        className="rounded px-2 py-0.5 text-xs text-zinc-300 hover:bg-zinc-800"
        data-testid="models-button"
        onClick={() => openModelsDialog()}
        title="AI assist models: pick files, backend, self-tests"
      >
        Models{models.length > 0 ? ` (${models.filter((m) => m.state === 'ready').length}/${models.length})` : ''}
      </button>
      {open && <ModelsDialog onClose={() => openModelsDialog(false)} />}
    </>
  );
}

function ModelsDialog({ onClose }: { onClose: () => void }) {
  const { runtime, runtimeError, models, problems } = useAssist();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  // A portal: the Models button sits in the editor's one-line header, whose nowrap would otherwise
  // reach the dialog's text and push it past the window. The dialog fits the window and scrolls inside.
  return createPortal(
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-black/60 p-4" onClick={onClose}>
      <div
        role="dialog"
        aria-label="AI assist models"
        className="max-h-full w-[36rem] max-w-full overflow-y-auto overflow-x-hidden whitespace-normal break-words rounded border border-zinc-700 bg-zinc-900 p-4 text-sm"
        onClick={(e) => e.stopPropagation()}
      >
        <div className="mb-2 flex items-center">
          <h2 className="flex-1 font-medium">AI assist models</h2>
          <button className="rounded px-2 py-0.5 hover:bg-zinc-800" onClick={onClose}>
            Close
          </button>
        </div>
        <p className="mb-2 text-zinc-400" data-testid="ai-backend" data-backend={runtime?.backend ?? ''}>
          {runtime
            ? `Runtime: ${runtime.backend === 'webgpu' ? 'WebGPU' : 'WASM'} · ${runtime.threads} thread${runtime.threads === 1 ? '' : 's'}${runtime.crossOriginIsolated ? ' · cross-origin isolated' : ''} (${runtime.reason})`
            : runtimeError
              ? `Runtime failed: ${runtimeError}`
              : 'Runtime: not started (starts with the first model)'}
        </p>
        <label className="mb-2 block text-zinc-300">
          Pick model files (a manifest.json with its .onnx files, or just .onnx files; CLIP also needs tokenizer.json). They are kept in this
          browser for offline use.
          <input
            ref={input}
            type="file"
            multiple
            accept=".onnx,.json"
            data-testid="pick-models"
            className="mt-1 block text-xs"
            disabled={busy}
            onChange={(e) => {
              const files = [...(e.target.files ?? [])];
              if (files.length === 0) return;
              setBusy(true);
              void pickModelFiles(files).finally(() => {
                setBusy(false);
                if (input.current) input.current.value = '';
              });
            }}
          />
        </label>
        {models.length === 0 && (
          <p className="text-zinc-500">No models loaded. Without weights the AI tool falls back to classical OpenCV assists (GrabCut box, colour fill click, state suggestions).</p>
        )}
        <PublicModelList startOpen={models.length === 0} />
        <ul className="space-y-1">
          {models.map((m) => (
            <ModelRow key={m.id} m={m} />
          ))}
        </ul>
        {problems.length > 0 && (
          <ul className="mt-2 space-y-0.5 text-xs text-amber-300" data-testid="model-problems">
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        )}
      </div>
    </div>,
    document.body,
  );
}

function ModelRow({ m }: { m: ModelStatus }) {
  const tests = m.loaded ? Object.entries(m.loaded.selfTest) : [];
  const failed = tests.filter(([, r]) => !r.ok);
  const backends = m.loaded ? [...new Set(Object.values(m.loaded.backends))].join('/') : '';
  return (
    <li className="rounded bg-zinc-800 px-2 py-1" data-testid="model-row" data-model={m.id} data-state={m.state}>
      <span className="font-medium">{m.label}</span> <span className="text-zinc-400">({m.family}, from {m.source})</span>{' '}
      {m.state === 'loading' && <span className="text-amber-300">loading… {m.progress}</span>}
      {m.state === 'error' && <span className="text-red-400">failed: {m.error}</span>}
      {m.state === 'ready' && (
        <span className="text-emerald-400">
          ready on {backends} in {Math.round(m.loaded?.ms ?? 0)} ms ·{' '}
          <span data-testid="self-test" data-ok={failed.length === 0 ? 'true' : 'false'}>
            {tests.length === 0 ? 'no self-test' : failed.length === 0 ? `self-test passed (${tests.length} file${tests.length === 1 ? '' : 's'})` : `self-test FAILED: ${failed.flatMap(([, r]) => r.failures).join('; ')}`}
          </span>
          {m.loaded && Object.keys(m.loaded.fallbacks).length > 0 && <span className="text-amber-300"> · fell back to WASM: {Object.entries(m.loaded.fallbacks).map(([f, why]) => `${f} (${why})`).join(', ')}</span>}
        </span>
      )}
    </li>
  );
}

/** Where weights come from: the public models the assists run, their size and licence, and how to get them. */
function PublicModelList({ startOpen }: { startOpen: boolean }) {
  return (
    <details className="mb-2 text-xs text-zinc-300" open={startOpen} data-testid="public-models">
      <summary className="cursor-pointer text-zinc-400">Supported public models and how to get them</summary>
      <p className="mt-1 text-zinc-400">
        Weights are not bundled with the app. Either download a model&apos;s files from its page and pick them above, or, where you run the
        app yourself, run <code>npm run models:fetch -- --only &lt;id&gt;</code>: it downloads them into <code>public/models/</code>, which the
        app then loads by itself. The dialog keeps picked files in this browser for offline use.
      </p>
      <table className="mt-1 w-full text-left">
        <thead className="text-zinc-500">
          <tr>
            <th className="pr-2 font-normal">model (id)</th>
            <th className="pr-2 font-normal">size</th>
            <th className="pr-2 font-normal">licence</th>
            <th className="font-normal">used for</th>
          </tr>
        </thead>
        <tbody>
          {PUBLIC_MODELS.map((m) => (
            <tr key={m.id} data-testid="public-model" data-model={m.id} className="align-top">
              <td className="pr-2">
                <a className="text-sky-400 underline" href={m.source} target="_blank" rel="noreferrer" title={`Files to pick: ${m.files.join(', ')}`}>
                  {m.name}
                </a>{' '}
                <span className="text-zinc-500">({m.id})</span>
              </td>
              <td className="pr-2 tabular-nums">{m.sizeMb} MB</td>
              <td className="pr-2">{m.licence}</td>
              <td>{m.role}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
