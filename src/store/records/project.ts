/** A project row (types.ts Project): its name and settings (sample rate, per-verb thresholds). */
import { checkLabelSchema, LabelSchemaError } from '../../objects/labelSchema';
import type { Project, ProjectSettings } from '../types';
import { hasOwn, type RecordCheck } from './check';
import type { RowMode } from './masks';

const PROJECT_FIELDS = new Set(['id', 'name', 'createdAt', 'updatedAt', 'settings', 'labels']);
const SETTINGS_FIELDS = new Set(['sampleFps', 'thresholds']);
const THRESHOLD_FIELDS = new Set(['tau', 'delta']);

export function checkProject(c: RecordCheck, v: unknown, path: string, mode: RowMode): Project {
  const o = c.object(v, path);
  if (mode === 'stored') c.strictFields(o, PROJECT_FIELDS, path);
  const name = c.required(o, 'name', path);
  if (typeof name === 'string' && !name.trim()) c.fail(c.at(path, 'name'), 'must not be empty: a project needs a name');
  const project: Project = {
    id: c.nonEmptyString(c.required(o, 'id', path), c.at(path, 'id'), 64),
    name: c.string(name, c.at(path, 'name'), 1000),
    createdAt: c.number(c.required(o, 'createdAt', path), c.at(path, 'createdAt')),
    updatedAt: c.number(c.required(o, 'updatedAt', path), c.at(path, 'updatedAt')),
    settings: checkSettings(c, c.required(o, 'settings', path), c.at(path, 'settings'), mode === 'stored'),
  };
  const labels = c.optional(o, 'labels');
  if (labels !== undefined) {
    try {
      project.labels = checkLabelSchema(labels);
    } catch (err) {
      if (!(err instanceof LabelSchemaError)) throw err;
      const labelsPath = c.at(path, 'labels');
      c.fail(err.path === 'schema' ? labelsPath : `${labelsPath}.${err.path}`, err.problem);
    }
  }
  if (mode === 'input' && o.deletedAt !== undefined) project.deletedAt = c.number(o.deletedAt, c.at(path, 'deletedAt'));
  return project;
}

export function checkSettings(c: RecordCheck, v: unknown, path: string, strict: boolean): ProjectSettings {
  const o = c.object(v, path);
  if (strict) c.strictFields(o, SETTINGS_FIELDS, path);
  const fpsPath = c.at(path, 'sampleFps');
  const sampleFps = c.number(c.required(o, 'sampleFps', path), fpsPath, 0, 1000);
  if (!(sampleFps > 0)) c.fail(fpsPath, 'must be positive (frames per second)');
  const th = c.object(c.required(o, 'thresholds', path), c.at(path, 'thresholds'));
  const thresholds: ProjectSettings['thresholds'] = {};
  for (const verb in th) {
    if (!hasOwn(th, verb)) continue;
    const p = `${c.at(path, 'thresholds')}[${JSON.stringify(verb)}]`;
    if (verb === '__proto__' || verb === 'constructor' || verb === 'prototype' || verb.length > 200) c.fail(p, 'is not a verb name');
    const t = c.object(th[verb], p);
    if (strict) c.strictFields(t, THRESHOLD_FIELDS, p);
    thresholds[verb] = { tau: c.number(c.required(t, 'tau', p), c.at(p, 'tau')), delta: c.number(c.required(t, 'delta', p), c.at(p, 'delta')) };
  }
  return { sampleFps, thresholds };
}
