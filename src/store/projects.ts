import type { SpocDb } from './db';
import { StoreError, notFound } from './errors';
import { defaultLabelSchema, schemaOf, type LabelSchema, type ProjectKind } from '../objects/labelSchema';
import { RecordCheck, checkProject } from './records';
import { clipTables, deleteClipRows } from './clips';
import type { Project, ProjectSettings } from './types';
import { newId } from './ids';

/** Per-verb thresholds start empty: they are calibrated per project, never guessed here. */
export const DEFAULT_PROJECT_SETTINGS: ProjectSettings = { sampleFps: 1, thresholds: {} };

export interface NewProject {
  name: string;
  settings?: Partial<ProjectSettings>;
  /** SPOC (the default: the two states) or objects (classes only); fixed at creation (docs/objects.md). */
  kind?: ProjectKind;
}

export interface ProjectPatch {
  name?: string;
  settings?: Partial<ProjectSettings>;
  /** A new label schema; its kind must stay the project's kind. */
  labels?: LabelSchema;
}

/** Most recently touched first: the dashboard opens on what was worked on last. Projects in the trash are left out. */
export async function listProjects(db: SpocDb): Promise<Project[]> {
  return (await db.projects.orderBy('updatedAt').reverse().toArray()).filter((p) => p.deletedAt === undefined);
}

export async function getProject(db: SpocDb, id: string): Promise<Project | undefined> {
  return db.projects.get(id);
}

export async function createProject(db: SpocDb, input: NewProject): Promise<Project> {
  const project = newProjectRow(input);
  await db.projects.add(project);
  return project;
}

/** A validated project row, not yet stored (for callers that add it inside a larger transaction). */
export function newProjectRow(input: NewProject): Project {
  const now = Date.now();
  const row = {
    id: newId(),
    name: trimmed(input.name),
    createdAt: now,
    updatedAt: now,
    settings: { ...DEFAULT_PROJECT_SETTINGS, ...input.settings },
    // SPOC projects made without a kind keep no schema, exactly as before schemas existed.
    ...(input.kind === undefined ? {} : { labels: defaultLabelSchema(input.kind) }),
  };
  return checkProject(new RecordCheck('The project'), row, '', 'input');
}

export async function updateProject(db: SpocDb, id: string, patch: ProjectPatch): Promise<Project> {
  return db.transaction('rw', db.projects, async () => {
    const current = await db.projects.get(id);
    if (!current) throw notFound('Project');
    if (patch.labels && patch.labels.kind !== schemaOf(current).kind) {
      throw new StoreError('invalid', `The project is a ${schemaOf(current).kind} project; its label schema cannot make it a ${patch.labels.kind} project.`);
    }
    const next = checkProject(
      new RecordCheck('The project'),
      {
        ...current,
        name: patch.name === undefined ? current.name : trimmed(patch.name),
        settings: patch.settings ? { ...current.settings, ...patch.settings } : current.settings,
        ...(patch.labels ? { labels: patch.labels } : {}),
        updatedAt: Date.now(),
      },
      '',
      'input',
    );
    await db.projects.put(next);
    return next;
  });
}

/** Deletes the project and everything under it in one transaction: all or nothing. */
export async function deleteProject(db: SpocDb, id: string): Promise<void> {
  await db.transaction('rw', [db.projects, ...clipTables(db)], async () => {
    const clipIds = await db.clips.where('projectId').equals(id).primaryKeys();
    for (const clipId of clipIds) await deleteClipRows(db, clipId);
    await db.projects.delete(id);
  });
}

function trimmed(name: unknown): unknown {
  return typeof name === 'string' ? name.trim() : name;
}
