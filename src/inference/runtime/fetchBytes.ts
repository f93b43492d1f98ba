/**
 * Downloads a model file with progress. Large SAM encoders are hundreds of MB, so the UI needs
 * numbers; progress is throttled (every 100 ms, plus the final chunk) to keep the message rate sane.
 */
export type ProgressFn = (loaded: number, total: number | undefined) => void;

export async function fetchBytes(url: string, onProgress: ProgressFn, isCancelled: () => boolean = () => false): Promise<Uint8Array> {
  let res: Response;
  try {
    res = await fetch(url);
  } catch (e) {
    throw new Error(`${url}: download failed (${e instanceof Error ? e.message : String(e)})`, { cause: e });
  }
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status} ${res.statusText}`.trim());
  const header = res.headers.get('content-length');
  const total = header !== null && /^\d+$/.test(header) ? Number(header) : undefined;
  if (!res.body) {
    const buf = new Uint8Array(await res.arrayBuffer());
    onProgress(buf.length, total ?? buf.length);
    return buf;
  }
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  let last = 0;
  for (;;) {
    if (isCancelled()) {
      await reader.cancel();
      throw Object.assign(new Error(`${url}: download cancelled`), { name: 'AbortError' });
    }
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.length;
    const now = Date.now();
    if (now - last >= 100) {
      last = now;
      onProgress(loaded, total);
    }
  }
  onProgress(loaded, total ?? loaded);
  const out = new Uint8Array(loaded);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
