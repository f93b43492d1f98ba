/** The Models dialog's list says what the download script fetches: same ids, families, files and sizes. */
import { describe, expect, it } from 'vitest';
import { CATALOG } from '../../../scripts/fetch-models';
import { PUBLIC_MODELS } from './publicModels';

describe('public model list', () => {
  it('names every catalog model, with its family', () => {
    expect(PUBLIC_MODELS.map((m) => [m.id, m.family]).sort()).toEqual(CATALOG.map((m) => [m.id, m.family]).sort());
  });

  it('gives each model the catalog size (within a megabyte) and the catalog file names', () => {
    for (const m of PUBLIC_MODELS) {
      const entry = CATALOG.find((c) => c.id === m.id)!;
      const files = Object.values(entry.files);
      const bytes = files.reduce((n, f) => n + (f.bytes ?? f.approxBytes ?? 0), 0);
      expect(Math.abs(m.sizeMb - bytes / 1e6), m.id).toBeLessThan(1);
      expect(m.files.map((f) => f.split('/').pop())).toEqual(files.map((f) => f.url.split('/').pop()));
      expect(files.every((f) => f.url.startsWith(m.source.replace('/releases/tag/', '/releases/download/')) || f.url.startsWith(`${m.source}/resolve/main/`)), m.id).toBe(true);
      expect(m.licence).toMatch(/^(Apache-2\.0|MIT)$/);
    }
  });
});
