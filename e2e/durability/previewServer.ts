/**
 * `vite preview` of a build, started and stopped by the soak runner itself (specs get theirs from
 * Playwright's webServer). Stopped by its own process group id, never by name.
 */
import { spawn } from 'node:child_process';
import { sleep } from './chromiumProcess';

export interface PreviewServer {
  baseURL: string;
  /** Why the server ended by itself (null while it runs): for error messages. */
  death(): string | null;
  stop(): Promise<void>;
}

export async function startPreview(distDir: string, port: number, timeoutMs = 60_000): Promise<PreviewServer> {
  const baseURL = `http://127.0.0.1:${port}`;
  const child = spawn('node_modules/.bin/vite', ['preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort', '--outDir', distDir], {
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let died: string | null = null;
  let stopping = false;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      if (!stopping) died = `vite preview exited (code ${code}, signal ${signal}): ${stderr.trim().slice(-1000)}`;
      resolve();
    }),
  );
  const stop = async () => {
    stopping = true;
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      return; // already gone
    }
    await Promise.race([exited, sleep(5000)]);
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // gone
    }
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`previewServer: vite preview of ${distDir} on port ${port} exited: ${stderr.trim()}`);
    try {
      if ((await fetch(baseURL)).ok) return { baseURL, death: () => died, stop };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`previewServer: vite preview of ${distDir} did not answer on ${baseURL} within ${timeoutMs} ms: ${stderr.trim()}`);
    }
    await sleep(200);
  }
}
