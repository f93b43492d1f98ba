/**
 * A Dexie DBCore middleware that sees every committed write of the store, whoever makes it
 * (repositories, imports, bundle merges; migrations aside), so the journal cannot miss a writer.
 *
 * Every read-write transaction that changes something also replaces the one row of `journalMarks`
 * (schema v6), whose auto-incremented key is the store's change number, inside that same
 * transaction: the number then says exactly which changes the database holds, and the start-up
 * check can compare it with the journal's. The mark is written blind (clear, then add) in the same
 * tick as the transaction's first write, never after a read: a stroke's transaction must be able to
 * commit without a round trip, or a reload or closed tab right after pointer-up cuts it off
 * (docs/durability.md). Because every read-write transaction now includes `journalMarks`,
 * IndexedDB runs them one after another in creation order, across tabs too, so change numbers
 * follow commit order, and the key generator (restored when a transaction aborts) leaves no gaps.
 *
 * When the transaction completes, its operations (values cloned at request time, keys as stored)
 * go to `sink`; an aborted transaction sends nothing.
 */
import type { DBCore, DBCoreKeyRange, DBCoreMutateRequest, DBCoreMutateResponse, DBCoreTransaction, Middleware } from 'dexie';
import type { JournalOp } from './recordFormat';

export const MARKS_TABLE = 'journalMarks';
/**
 * Tables that are not work and never go to the journal: the pointer input of strokes in progress
 * (store/gestureDrafts.ts), written on every pointer move. A transaction on these alone is neither
 * numbered nor captured, so it stays one tiny write.
 */
export const UNJOURNALED_TABLES: ReadonlySet<string> = new Set(['gestureDrafts']);
/** DBCoreRangeType.Any: the whole table. */
const WHOLE_TABLE = { type: 3 } as unknown as DBCoreKeyRange;

export interface CapturedTx {
  seq: number;
  ops: JournalOp[];
}

/**
 * Transactions to leave unnumbered and uncaptured, once each, keyed by their exact store list. Only
 * for a cleanup that must succeed on a full disk: numbering writes the change-number row, and on a
 * disk over quota that one small put fails the whole transaction, deletes and all. The journal is
 * told it missed a change, so its next compaction rebuilds from the store (compact.ts).
 */
const unnumberedOnce = new Map<string, number>();
const scopeKey = (stores: readonly string[]) => [...stores].sort().join('\u0000');

export function leaveNextUnnumbered(stores: readonly string[]): void {
  const key = scopeKey(stores);
  unnumberedOnce.set(key, (unnumberedOnce.get(key) ?? 0) + 1);
}

function takeUnnumbered(stores: readonly string[]): boolean {
  const key = scopeKey(stores);
  const n = unnumberedOnce.get(key) ?? 0;
  if (n === 0) return false;
  if (n === 1) unnumberedOnce.delete(key);
  else unnumberedOnce.set(key, n - 1);
  return true;
}

export interface CaptureOptions {
  /** Receives each committed transaction's changes. */
  sink: (tx: CapturedTx) => void;
  /** A reason while writes must wait (the start-up check found the store behind the journal); null otherwise. */
  blocked: () => string | null;
  /** While true (a rebuild replaying the journal), writes are neither numbered nor captured. */
  suspended: () => boolean;
  /** A transaction was let through unnumbered (leaveNextUnnumbered): the journal lacks it. */
  missed?: () => void;
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
      const marks = down.table(MARKS_TABLE);

      /** Issues the mark's writes now (no await before them); resolves to the change number. */
      const numberTx = (trans: DBCoreTransaction, state: TxState): void => {
        if (state.seq) return;
        const cleared = marks.mutate({ trans, type: 'deleteRange', range: WHOLE_TABLE });
        const added = marks.mutate({ trans, type: 'add', values: [{ at: Date.now() }] });
        state.seq = Promise.all([cleared, added]).then(([, res]) => res.results![0] as number);
        state.seq.catch(() => undefined); // the transaction's own error reaches its caller
      };

      return {
        ...down,
        transaction(stores, mode, txOptions) {
          let capture = mode === 'readwrite' && !options.suspended() && stores.some((s) => !UNJOURNALED_TABLES.has(s));
          if (capture && takeUnnumbered(stores)) {
            capture = false;
            options.missed?.();
          }
          const scope = capture && !stores.includes(MARKS_TABLE) ? [...stores, MARKS_TABLE] : stores;
          const trans = down.transaction(scope, mode, txOptions);
          if (capture) {
            const state: TxState = { seq: null, ops: [] };
            states.set(trans, state);
            const idb = trans as unknown as Partial<IDBTransaction>;
            idb.addEventListener?.('complete', () => {
              // A numbered transaction is journaled even if none of its writes succeeded (a caller
              // caught the failure and committed the rest): numbers must stay gapless.
              if (state.seq === null) return;
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
              if (!state || name === MARKS_TABLE || UNJOURNALED_TABLES.has(name)) return table.mutate(req);
              const blocked = options.blocked();
              if (blocked) return Promise.reject(new StoreBlockedError(blocked));
              const op = describe(name, req);
              numberTx(req.trans, state);
              return table.mutate(req).then((res) => {
                if (op) state.ops.push(withResults(op, res, keyPath));
                return res;
              });
            },
          };
        },
      };
    },
  };
}

export class StoreBlockedError extends Error {
  override name = 'StoreBlockedError';
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
