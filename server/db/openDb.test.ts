import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeDb } from './openDb';

describe('the database banner', () => {
  it('names a PostgreSQL server without its password', () => {
    const text = describeDb({ databaseUrl: 'postgres://spoc:s3cret@db.lab.example:5433/spoc' });
    expect(text).toBe('PostgreSQL at db.lab.example:5433/spoc');
    expect(describeDb({ databaseUrl: 'not a url s3cret' })).toBe('PostgreSQL (DATABASE_URL)');
  });

  it('names the embedded data folder as an absolute path', () => {
    expect(describeDb({ dataDir: 'lab-data' })).toBe(`embedded PostgreSQL (PGlite) in ${path.resolve('lab-data')}`);
    expect(describeDb({})).toBe(`embedded PostgreSQL (PGlite) in ${path.resolve('spoc-server-data')}`);
  });
});
