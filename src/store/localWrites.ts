/**
 * Tells this page which rows it wrote itself, the moment IndexedDB accepts them (before their
 * transaction commits): the editor uses it to tell its own revisions from another tab's
 * (annotator/session/externalChanges.ts). A DBCore middleware rather than a Dexie `creating` hook,
 * because a hook makes Dexie issue each add only after the previous one returned, and a stroke's
 * transaction must issue all its writes at once (docs/durability.md).
 */
import type { DBCore, Dexie, Middleware } from 'dexie';

type AddListener = (keys: readonly unknown[], values: readonly unknown[]) => void;

const listeners = new WeakMap<object, Map<string, Set<AddListener>>>();

function tableListeners(db: object, table: string): Set<AddListener> {
  let byTable = listeners.get(db);
  if (!byTable) listeners.set(db, (byTable = new Map()));
  let set = byTable.get(table);
  if (!set) byTable.set(table, (set = new Set()));
  return set;
}

/** Calls `fn` with the keys and values of every row this connection adds or puts into `table`. */
export function onLocalWrites(db: Dexie, table: string, fn: AddListener): () => void {
  const set = tableListeners(db, table);
  set.add(fn);
  return () => set.delete(fn);
}

export function localWritesMiddleware(db: Dexie): Middleware<DBCore> {
  return {
    stack: 'dbcore',
    name: 'spoc-local-writes',
    create(down) {
      return {
        ...down,
        table(name) {
          const table = down.table(name);
          return {
            ...table,
            mutate(req) {
              const result = table.mutate(req);
              if (req.type !== 'add' && req.type !== 'put') return result;
              const set = listeners.get(db)?.get(name);
              if (!set || set.size === 0) return result;
              const values = req.values;
              return result.then((res) => {
                const keys = res.results ?? [];
                for (const fn of set) fn(keys, values);
                return res;
              });
            },
          };
        },
      };
    },
  };
}
