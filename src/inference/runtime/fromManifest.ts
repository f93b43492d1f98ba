/**
 * From a manifest entry to a `load` request: file paths become absolute URLs (resolved against the
 * manifest's own URL, so a manifest can live in any folder), fetched by the worker with progress;
 * the entry's goldens become the load-time self-test.
 */
import { resolveModelUrl, type ManifestEntry } from '../models/manifest';
import type { LoadParams } from './protocol';

export function loadParamsFromManifest(entry: ManifestEntry, manifestUrl: string): LoadParams {
  const files: LoadParams['files'] = {};
  for (const [role, path] of Object.entries(entry.files)) files[role] = { url: resolveModelUrl(manifestUrl, path) };
  return { modelId: entry.id, family: entry.family, files, selfTest: entry.selfTest };
}
