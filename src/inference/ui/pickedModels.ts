/**
 * Turns files picked from disk into model sets to load. With a manifest.json among them, its
 * entries name the files (matched by file name, whatever folder they were in) and bring their
 * golden self-tests. ONNX files no entry claims are recognised by their inputs and outputs
 * (onnxSignature + detect.ts, the adapters' own format detection) and grouped by family; a CLIP
 * set takes a picked tokenizer.json (and tokenizer_config.json). Pure: no DOM, no worker.
 */
import { detectRole, type ModelRole } from '../models/detect';
import { FAMILY_FILES, parseManifestText, type ModelFamily } from '../models/manifest';
import type { GoldenSpec } from '../models/golden';
import { onnxSignature } from '../models/onnxSignature';

export interface PickedFile {
  name: string;
  bytes: Uint8Array;
}

export interface PickedModel {
  id: string;
  family: ModelFamily;
  label: string;
  /** role -> picked file. */
  files: Record<string, PickedFile>;
  selfTest?: Record<string, GoldenSpec>;
}

export interface PickResult {
  models: PickedModel[];
  /** Files that were not used, and why (shown to the user). */
  problems: string[];
}

const ROLE_OF: Record<ModelRole, { family: ModelFamily; role: string }> = {
  'sam-official-encoder': { family: 'sam-official', role: 'encoder' },
  'sam-official-decoder': { family: 'sam-official', role: 'decoder' },
  'sam-tjs-encoder': { family: 'sam-transformersjs', role: 'encoder' },
  'sam-tjs-decoder': { family: 'sam-transformersjs', role: 'decoder' },
  'clip-vision': { family: 'clip', role: 'vision' },
  'clip-text': { family: 'clip', role: 'text' },
};

const LABELS: Record<ModelFamily, string> = { 'sam-official': 'SAM', 'sam-transformersjs': 'SAM (transformers.js)', clip: 'CLIP' };

const baseName = (path: string) => path.split(/[\\/]/).pop() ?? path;

function requiredRoles(family: ModelFamily): readonly string[] {
  return FAMILY_FILES[family].required;
}

export function groupPickedFiles(files: readonly PickedFile[]): PickResult {
  const problems: string[] = [];
  const models: PickedModel[] = [];
  const used = new Set<PickedFile>();
  const byName = new Map(files.map((f) => [baseName(f.name), f]));
  const text = (f: PickedFile) => new TextDecoder().decode(f.bytes);

  // 1. Manifests.
  const jsons = files.filter((f) => f.name.toLowerCase().endsWith('.json'));
  for (const f of jsons) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text(f));
    } catch {
      problems.push(`${f.name}: not valid JSON`);
      used.add(f);
      continue;
    }
    if (!parsed || typeof parsed !== 'object' || !('models' in parsed)) continue;
    used.add(f);
    try {
      const manifest = parseManifestText(text(f));
      for (const entry of manifest.models) {
        const picked: Record<string, PickedFile> = {};
        const missing: string[] = [];
        for (const [role, path] of Object.entries(entry.files)) {
          const file = byName.get(baseName(path));
          if (file) picked[role] = file;
          else missing.push(baseName(path));
        }
        if (missing.length > 0) {
          problems.push(`${entry.id}: ${missing.join(', ')} not picked`);
          continue;
        }
        for (const file of Object.values(picked)) used.add(file);
        models.push({ id: entry.id, family: entry.family, label: entry.label ?? entry.id, files: picked, ...(entry.selfTest ? { selfTest: entry.selfTest } : {}) });
      }
    } catch (e) {
      problems.push(`${f.name}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  // 2. ONNX files no manifest entry claimed, by signature.
  const sets = new Map<ModelFamily, Record<string, PickedFile>>();
  for (const f of files) {
    if (used.has(f) || !f.name.toLowerCase().endsWith('.onnx')) continue;
    let role: ModelRole | null;
    try {
      role = detectRole(onnxSignature(f.bytes));
    } catch (e) {
      problems.push(`${f.name}: ${e instanceof Error ? e.message : String(e)}`);
      continue;
    }
    if (!role) {
      problems.push(`${f.name}: not a supported SAM or CLIP model file`);
      continue;
    }
    const { family, role: name } = ROLE_OF[role];
    const set = sets.get(family) ?? {};
    if (set[name]) problems.push(`${f.name}: a second ${LABELS[family]} ${name}; using ${set[name].name}`);
    else set[name] = f;
    sets.set(family, set);
  }
  for (const [family, set] of sets) {
    if (family === 'clip') {
      for (const f of jsons) {
        if (used.has(f)) continue;
        const n = baseName(f.name).toLowerCase();
        if (n === 'tokenizer_config.json') set.tokenizerConfig = f;
        else if (n.includes('tokenizer')) set.tokenizer = f;
      }
    }
    const missing = requiredRoles(family).filter((r) => !set[r]);
    if (missing.length > 0) {
      problems.push(`${LABELS[family]}: ${missing.join(', ')} missing (picked ${Object.values(set).map((f) => f.name).join(', ')})`);
      continue;
    }
    for (const f of Object.values(set)) used.add(f);
    const id = models.some((m) => m.id === family) ? `${family}-picked` : family;
    models.push({ id, family, label: LABELS[family], files: set });
  }
  for (const f of files) if (!used.has(f) && !problems.some((p) => p.startsWith(`${f.name}:`))) problems.push(`${f.name}: not used`);
  return { models, problems };
}
