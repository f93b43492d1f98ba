import { expect, it } from 'vitest';
import { onBothBackends } from '../testing/backends';

onBothBackends(
  (ctx) => {
    it('passes parameters as values, never as SQL', async () => {
      const hostile = "x'); DROP TABLE t; --";
      const rows = await ctx.db().query<{ v: string; n: number }>('SELECT $1::text AS v, $2::int AS n', [hostile, 7]);
      expect(rows).toEqual([{ v: hostile, n: 7 }]);
    });

    it('commits a transaction that resolves and rolls back one that throws', async () => {
      const db = ctx.db();
      await db.exec('CREATE TABLE tx_probe (n int)');
      await db.transaction((tx) => tx.query('INSERT INTO tx_probe VALUES (1)'));
      await expect(
        db.transaction(async (tx) => {
          await tx.query('INSERT INTO tx_probe VALUES (2)');
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      expect(await db.query('SELECT n FROM tx_probe')).toEqual([{ n: 1 }]);
    });

    it('delivers NOTIFY payloads to listeners until they stop', async () => {
      const db = ctx.db();
      const got: string[] = [];
      let arrived: () => void = () => {};
      const first = new Promise<void>((resolve) => (arrived = resolve));
      const stop = await db.listen('spoc_probe', (payload) => {
        got.push(payload);
        arrived();
      });
      await db.notify('spoc_probe', '{"clip":"c1"}');
      await first;
      await stop();
      expect(got).toEqual(['{"clip":"c1"}']);
      await expect(db.listen('bad channel; DROP', () => {})).rejects.toThrow(/bad channel name/);
    });
  },
  { migrated: false },
);
