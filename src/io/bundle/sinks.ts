/**
 * Where an exported bundle's bytes go. The exporter awaits every write, so a slow sink (a file on
 * disk) holds the export back instead of letting chunks pile up in memory.
 */
export interface BundleSink {
  write(chunk: Uint8Array): void | Promise<void>;
  /** Called once after the last chunk. */
  close?(): void | Promise<void>;
  /** Called instead of close when the export fails or is cancelled. */
  abort?(reason: unknown): void | Promise<void>;
}

/** Keeps every chunk (tests, benches). */
export class ChunkSink implements BundleSink {
  readonly chunks: Uint8Array[] = [];
  bytes = 0;
  write(chunk: Uint8Array): void {
    this.chunks.push(chunk);
    this.bytes += chunk.length;
  }
  toBlob(type = 'application/zip'): Blob {
    return new Blob(this.chunks as Uint8Array<ArrayBuffer>[], { type });
  }
}

/**
 * Builds a Blob from the chunks, folding them into Blob parts every `batchBytes`: the page then holds
 * at most one batch as JS memory, and the browser is free to keep the parts in its blob store
 * (Chromium moves large blobs to disk).
 */
export class BlobSink implements BundleSink {
  private parts: Blob[] = [];
  private batch: Uint8Array[] = [];
  private batchSize = 0;
  bytes = 0;

  constructor(
    private readonly type = 'application/zip',
    private readonly batchBytes = 8 * 2 ** 20,
  ) {}

  write(chunk: Uint8Array): void {
    this.batch.push(chunk);
    this.batchSize += chunk.length;
    this.bytes += chunk.length;
    if (this.batchSize >= this.batchBytes) this.fold();
  }

  private fold(): void {
    if (this.batch.length === 0) return;
    this.parts.push(new Blob(this.batch as Uint8Array<ArrayBuffer>[]));
    this.batch = [];
    this.batchSize = 0;
  }

  blob(): Blob {
    this.fold();
    return new Blob(this.parts, { type: this.type });
  }

  abort(): void {
    this.parts = [];
    this.batch = [];
  }
}

/**
 * A WritableStream, e.g. the File System Access API's `FileSystemWritableFileStream`. Chunks are
 * gathered into writes of about `batchBytes` (each write to a file stream is a round trip to the
 * browser process; fflate emits many small chunks: headers, data descriptors).
 */
export function writableSink(stream: WritableStream<Uint8Array>, batchBytes = 2 ** 20): BundleSink {
  const writer = stream.getWriter();
  let batch: Uint8Array[] = [];
  let size = 0;
  const flush = async () => {
    if (size === 0) return;
    const out = new Uint8Array(size);
    let at = 0;
    for (const c of batch) {
      out.set(c, at);
      at += c.length;
    }
    batch = [];
    size = 0;
    await writer.write(out);
  };
  return {
    write: async (chunk) => {
      batch.push(chunk);
      size += chunk.length;
      if (size >= batchBytes) await flush();
    },
    close: async () => {
      await flush();
      await writer.close();
    },
    abort: (reason) => writer.abort(reason),
  };
}
