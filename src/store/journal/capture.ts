/**
 * A Dexie DBCore middleware that sees every committed write of the store, whoever makes it
 * (repositories, imports, bundle merges, migrations aside), so the journal cannot miss a writer.
 *
 * Every read-write transaction that changes something also bumps the store's change number
 * (`meta['journal.seq']`) inside that same transaction: the number then says exactly which changes
 * the database holds, and a start-up check can compare it with the journal's. Because every
 * read-write transaction now includes `meta`, IndexedDB runs them one after another in creation
 * order, across tabs too, so change numbers follow commit order.
 *
 * When the transaction completes, its operations (values cloned at request time, keys as stored)
 * go to `sink`; an aborted transaction sends nothing.
 */
import type { DBCore, DBCoreMutateRequest, DBCoreMutateResponse, DBCoreTransaction, Middleware } from 'dexie';
import type { JournalOp } from './recordFormat';

export const SEQ_KEY = 'journal.seq';
export const META_TABLE = 'meta';

export interface CapturedTx {
  seq: number;
  ops: JournalOp[];
}

export interface CaptureOptions {
  /** Receives each committed transaction's changes. */
  sink: (tx: CapturedTx) => void;
  /** Lowest number the next change may take (the journal's highest, so a lost database never reuses one). */
  floor: () => number;
  /** While true (a rebuild replaying the journal), writes are neither numbered nor captured. */
  suspended: () => boolean;
}

interface TxState {
  seq: Promise<number> | null;
  ops: JournalOp[];
}

export function captureMiddleware(options: CaptureOptions): Middleware<DBCore> {
  return {
    stack: 'dbcore',
    name: 'spoc-journal-capture',
    create(down) {
      const states = new WeakMap<DBCoreTransaction, TxState>();
      const meta = down.table(META_TABLE);

      const numberTx = (trans: DBCoreTransaction, state: TxState): Promise<number> =>
        (state.seq ??= meta.get({ trans, key: SEQ_KEY }).then(async (row: { value?: unknown } | undefined) => {
          const stored = typeof row?.value === 'number' ? row.value : 0;
          const seq = Math.max(stored, options.floor()) + 1;
          await meta.mutate({ trans, type: 'put', values: [{ key: SEQ_KEY, value: seq }] });
          return seq;
        }));

      return {
        ...down,
        transaction(stores, mode, txOptions) {
          const capture = mode === 'readwrite' && !options.suspended();
          const scope = capture && !stores.includes(META_TABLE) ? [...stores, META_TABLE] : stores;
          const trans = down.transaction(scope, mode, txOptions);
          if (capture) {
            const state: TxState = { seq: null, ops: [] };
            states.set(trans, state);
            const idb = trans as unknown as Partial<IDBTransaction>;
            idb.addEventListener?.('complete', () => {
              if (state.seq === null || state.ops.length === 0) return;
              void state.seq.then((seq) => options.sink({ seq, ops: state.ops }));
            });
          }
          return trans;
        },
        table(name) {
          const table = down.table(name);
          const keyPath = table.schema.primaryKey.keyPath;
          return {
            ...table,
            mutate(req: DBCoreMutateRequest): Promise<DBCoreMutateResponse> {
              const state = states.get(req.trans);
              if (!state) return table.mutate(req);
              const op = describe(name, req);
              return numberTx(req.trans, state).then(() =>
                table.mutate(req).then((res) => {
                  if (op) state.ops.push(withResults(op, res, keyPath));
                  return res;
                }),
              );
            },
          };
        },
      };
    },
  };
}

type PendingOp = JournalOp & { inputKeys?: unknown[] };

/** The operation as requested, values cloned now (the caller may reuse its objects after the call). */
function describe(table: string, req: DBCoreMutateRequest): PendingOp | null {
  switch (req.type) {
    case 'add':
    case 'put':
      return { table, type: 'put', values: req.values.map((v: unknown) => structuredClone(v)), inputKeys: req.keys };
    case 'delete':
      return { table, type: 'delete', keys: req.keys.slice() };
    case 'deleteRange': {
      const r = req.range;
      // Type 3 ("any") is a whole-table clear; keep it as an open range.
      return r.type === 3
        ? { table, type: 'deleteRange', range: {} }
        : { table, type: 'deleteRange', range: { lower: r.lower, upper: r.upper, lowerOpen: r.lowerOpen, upperOpen: r.upperOpen } };
    }
    default:
      return null;
  }
}

/**
 * Drops values that failed (a bulk write whose caller caught the failure) and writes generated keys
 * (auto-increment `seq`) into the journal's copies, so replaying them recreates the same rows.
 */
function withResults(op: PendingOp, res: DBCoreMutateResponse, keyPath: string | string[] | null): JournalOp {
  const { inputKeys: _keys, ...clean } = op;
  if (clean.type !== 'put') return clean;
  const failed = res.numFailures > 0 ? new Set(Object.keys(res.failures).map(Number)) : null;
  const values: unknown[] = [];
  clean.values.forEach((v, i) => {
    if (failed?.has(i)) return;
    const key = res.results?.[i];
    if (typeof keyPath === 'string' && key !== undefined && v !== null && typeof v === 'object') {
      (v as Record<string, unknown>)[keyPath] = key;
    }
    values.push(v);
  });
  return { ...clean, values };
}
