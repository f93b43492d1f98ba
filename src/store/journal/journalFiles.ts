/**
 * Where the journal's files live: the Origin Private File System in the app (a storage backend
 * separate from IndexedDB, so a damaged or deleted database leaves it intact), a Map in unit tests.
 * Files are written whole and atomically: to `<name>.tmp`, then renamed, so a crash mid-write leaves
 * a `.tmp` that is ignored, never a half file under a real name.
 */
export interface JournalFiles {
  /** Names of the whole files in `dir` (unsorted); `.tmp` leftovers are not listed. */
  list(dir: string): Promise<string[]>;
  read(dir: string, name: string): Promise<Blob | null>;
  write(dir: string, name: string, data: Blob): Promise<void>;
  remove(dir: string, name: string): Promise<void>;
  /** Removes leftovers of interrupted writes. */
  sweep(dir: string): Promise<void>;
}

const ROOT = 'spoc-journal';
const TMP = '.tmp';

/** The OPFS journal, or null where the browser has none (plain http outside localhost, old browsers). */
export async function openOpfsFiles(): Promise<JournalFiles | null> {
  if (typeof navigator === 'undefined' || !navigator.storage?.getDirectory) return null;
  let root: FileSystemDirectoryHandle;
  try {
    root = await (await navigator.storage.getDirectory()).getDirectoryHandle(ROOT, { create: true });
  } catch {
    return null;
  }
  const dirs = new Map<string, Promise<FileSystemDirectoryHandle>>();
  const dirOf = (dir: string) => {
    let d = dirs.get(dir);
    if (!d) {
      d = root.getDirectoryHandle(dir, { create: true });
      dirs.set(dir, d);
    }
    return d;
  };
  const entries = async (dir: string): Promise<string[]> => {
    const out: string[] = [];
    // keys() is in every browser that has OPFS; TypeScript's DOM types lack the async iterator.
    const handle = (await dirOf(dir)) as unknown as { keys(): AsyncIterable<string> };
    for await (const name of handle.keys()) out.push(name);
    return out;
  };
  return {
    list: async (dir) => (await entries(dir)).filter((n) => !n.endsWith(TMP) && !n.endsWith('.crswap')),
    read: async (dir, name) => {
      // A File from OPFS is a live view: if the file is replaced (a compaction in another tab)
      // before it is read, reading fails. Take the bytes at once, and try again if that raced.
      for (let attempt = 1; ; attempt++) {
        try {
          const file = await (await (await dirOf(dir)).getFileHandle(name)).getFile();
          return new Blob([await file.arrayBuffer()], { type: file.type });
        } catch (err) {
          if (err instanceof DOMException && err.name === 'NotFoundError') return null;
          if (!(err instanceof DOMException && err.name === 'NotReadableError') || attempt >= 3) throw err;
        }
      }
    },
    write: async (dir, name, data) => {
      const d = await dirOf(dir);
      const tmp = await d.getFileHandle(name + TMP, { create: true });
      const w = await tmp.createWritable();
      try {
        await w.write(data);
        await w.close();
      } catch (err) {
        await w.abort().catch(() => undefined);
        await d.removeEntry(name + TMP).catch(() => undefined);
        throw err;
      }
      const movable = tmp as FileSystemFileHandle & { move?(name: string): Promise<void> };
      if (movable.move) {
        await d.removeEntry(name).catch(() => undefined);
        await movable.move(name);
      } else {
        // No rename (older engines): createWritable's own swap file keeps this write whole too.
        const fh = await d.getFileHandle(name, { create: true });
        const w2 = await fh.createWritable();
        await w2.write(data);
        await w2.close();
        await d.removeEntry(name + TMP).catch(() => undefined);
      }
    },
    remove: async (dir, name) => {
      await (await dirOf(dir)).removeEntry(name).catch((err: unknown) => {
        if (!(err instanceof DOMException && err.name === 'NotFoundError')) throw err;
      });
    },
    sweep: async (dir) => {
      const d = await dirOf(dir);
      for (const n of await entries(dir)) if (n.endsWith(TMP) || n.endsWith('.crswap')) await d.removeEntry(n).catch(() => undefined);
    },
  };
}

/** In-memory journal files for unit tests; `fail` makes the next writes throw (a full disk). */
export class MemoryFiles implements JournalFiles {
  readonly dirs = new Map<string, Map<string, Blob>>();
  failWrites: Error | null = null;
  private dir(d: string): Map<string, Blob> {
    let m = this.dirs.get(d);
    if (!m) this.dirs.set(d, (m = new Map()));
    return m;
  }
  async list(dir: string): Promise<string[]> {
    return [...this.dir(dir).keys()];
  }
  async read(dir: string, name: string): Promise<Blob | null> {
    return this.dir(dir).get(name) ?? null;
  }
  async write(dir: string, name: string, data: Blob): Promise<void> {
    if (this.failWrites) throw this.failWrites;
    // Copy the bytes, as a real file would: the caller's Blob may be backed by something that goes away.
    this.dir(dir).set(name, new Blob([await data.arrayBuffer()], { type: data.type }));
  }
  async remove(dir: string, name: string): Promise<void> {
    this.dir(dir).delete(name);
  }
  async sweep(): Promise<void> {}
}
