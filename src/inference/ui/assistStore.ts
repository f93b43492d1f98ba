/**
 * The app's one inference worker and the models loaded into it, as a small zustand store the
 * editor's AI-assist UI reads: which backend runs (WebGPU/WASM, threads), each model's load
 * progress and self-test, and problems with picked files. Models come from three places: files
 * picked in the Models dialog (then cached in `spoc-models`), that cache on the next visit, and
 * `public/models/manifest.json` when it lists models.
 */
import { create } from 'zustand';
import { createWorkerClient } from '../runtime/createWorkerClient';
import type { InferenceClient } from '../runtime/inferenceClient';
import { loadParamsFromManifest } from '../runtime/fromManifest';
import type { LoadedModel, LoadParams, Progress, RuntimeInfo } from '../runtime/protocol';
import { parseManifestText, type ModelFamily } from '../models/manifest';
import { loadCachedModels, ModelDb, saveModel } from './modelCache';
import { groupPickedFiles, type PickedFile, type PickedModel } from './pickedModels';

export type ModelSource = 'picked' | 'cache' | 'server';

export interface ModelStatus {
  id: string;
  family: ModelFamily;
  label: string;
  source: ModelSource;
  state: 'loading' | 'ready' | 'error';
  progress: string;
  loaded: LoadedModel | null;
  error: string | null;
}

export interface AssistState {
  runtime: RuntimeInfo | null;
  runtimeError: string | null;
  models: ModelStatus[];
  problems: string[];
  /** Cache and server manifest have been looked at. */
  restored: boolean;
}

export const useAssist = create<AssistState>()(() => ({ runtime: null, runtimeError: null, models: [], problems: [], restored: false }));

/** Whether the Models dialog is open: its button opens it, and so does "needs SAM" beside a disabled AI action. */
export const useModelsDialog = create<{ open: boolean }>()(() => ({ open: false }));
export const openModelsDialog = (open = true) => useModelsDialog.setState({ open });

let client: InferenceClient | null = null;
let started: Promise<InferenceClient> | null = null;
let modelDb: ModelDb | null = null;
let restoring: Promise<void> | null = null;

function db(): ModelDb {
  modelDb ??= new ModelDb();
  return modelDb;
}

/** The worker client, started (and its backend chosen) on first use. */
export function inferenceClient(): Promise<InferenceClient> {
  started ??= (async () => {
    client = createWorkerClient();
    try {
      const runtime = await client.init();
      useAssist.setState({ runtime, runtimeError: null });
      return client;
    } catch (e) {
      useAssist.setState({ runtimeError: messageOf(e) });
      started = null;
      client.destroy();
      throw e;
    }
  })();
  return started;
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function upsert(status: ModelStatus): void {
  const models = useAssist.getState().models.filter((m) => m.id !== status.id);
  useAssist.setState({ models: [...models, status] });
}

function patch(id: string, p: Partial<ModelStatus>): void {
  useAssist.setState({ models: useAssist.getState().models.map((m) => (m.id === id ? { ...m, ...p } : m)) });
}

function progressText(p: Progress): string {
  if (p.phase === 'download') return `${p.file}: downloading ${p.total ? `${Math.round((100 * (p.loaded ?? 0)) / p.total)} %` : `${Math.round((p.loaded ?? 0) / 1024)} KB`}`;
  if (p.phase === 'session') return `${p.file}: creating session`;
  return `${p.file}: self-test`;
}

async function loadModel(params: LoadParams, label: string, source: ModelSource): Promise<void> {
  upsert({ id: params.modelId, family: params.family, label, source, state: 'loading', progress: 'starting the runtime', loaded: null, error: null });
  try {
    const c = await inferenceClient();
    const loaded = await c.load(params, { onProgress: (p) => patch(params.modelId, { progress: progressText(p) }) });
    patch(params.modelId, { state: 'ready', progress: '', loaded });
  } catch (e) {
    patch(params.modelId, { state: 'error', progress: '', error: messageOf(e) });
  }
}

function pickedParams(m: PickedModel): LoadParams {
  const files: LoadParams['files'] = {};
  // Copies: the worker may keep (transfer) what it is sent; the picked bytes stay ours.
  for (const [role, f] of Object.entries(m.files)) files[role] = { bytes: f.bytes.slice() };
  return { modelId: m.id, family: m.family, files, ...(m.selfTest ? { selfTest: m.selfTest } : {}) };
}

/** Loads what the browser cache and the server manifest offer; once per page. */
export function restoreModels(): Promise<void> {
  restoring ??= (async () => {
    const problems: string[] = [];
    const jobs: Promise<void>[] = [];
    try {
      const cached = await loadCachedModels(db());
      problems.push(...cached.problems);
      for (const m of cached.models) jobs.push(loadModel(pickedParams(m), m.label, 'cache'));
    } catch (e) {
      problems.push(`browser model cache: ${messageOf(e)}`);
    }
    try {
      const url = new URL(`${import.meta.env.BASE_URL}models/manifest.json`, window.location.href).href;
      const res = await fetch(url);
      if (res.ok) {
        const manifest = parseManifestText(await res.text());
        for (const entry of manifest.models) {
          if (useAssist.getState().models.some((m) => m.id === entry.id)) continue; // the cached copy wins
          jobs.push(loadModel(loadParamsFromManifest(entry, url), entry.label ?? entry.id, 'server'));
        }
      }
    } catch (e) {
      problems.push(`models/manifest.json: ${messageOf(e)}`);
    }
    useAssist.setState({ restored: true, problems: [...useAssist.getState().problems, ...problems] });
    await Promise.all(jobs);
  })();
  return restoring;
}

/** Files picked in the Models dialog: recognised, cached in the browser, loaded. */
export async function pickModelFiles(files: readonly File[]): Promise<void> {
  const picked: PickedFile[] = await Promise.all(files.map(async (f) => ({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) })));
  const { models, problems } = groupPickedFiles(picked);
  useAssist.setState({ problems });
  if (models.length === 0 && problems.length === 0) useAssist.setState({ problems: ['no model files picked'] });
  void navigator.storage?.persist?.().catch(() => false);
  await Promise.all(
    models.map(async (m) => {
      await loadModel(pickedParams(m), m.label, 'picked');
      // Cache only what loaded: a file the runtime refuses would fail again offline.
      if (useAssist.getState().models.find((s) => s.id === m.id)?.state === 'ready') {
        await saveModel(db(), m).catch((e: unknown) => useAssist.setState({ problems: [...useAssist.getState().problems, `could not cache ${m.id}: ${messageOf(e)}`] }));
      }
    }),
  );
}

/** The SAM model the click tool uses: the first ready one, official exports first. */
export function samModelOf(models: readonly ModelStatus[]): ModelStatus | null {
  const sam = models.filter((m) => m.state === 'ready' && (m.family === 'sam-official' || m.family === 'sam-transformersjs'));
  return sam.find((m) => m.family === 'sam-official') ?? sam[0] ?? null;
}

/** The started client, if any (no worker is started just to ask). */
export function currentClient(): InferenceClient | null {
  return client;
}
