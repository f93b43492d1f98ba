/**
 * A real `spoc-studio serve` process for the server benches: started on a free loopback port,
 * waited for until /api/health answers, stopped with SIGTERM. Run through tsx's node directly (not
 * the npx shim), so the pid is the server's own and its CPU can be read.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer as netServer } from 'node:net';

export interface ServeProcess {
  url: string;
  child: ChildProcess;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = netServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (a && typeof a === 'object' ? resolve(a.port) : reject(new Error('no port'))));
    });
  });
}

/** Starts `serve` with the built app in `dist` (a folder that need not exist for API-only benches). */
export async function startServe(dist: string, args: string[], env: NodeJS.ProcessEnv): Promise<ServeProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli/spoc-studio.ts', 'serve', '--host', '127.0.0.1', '--port', String(port), '--dist', dist, ...args], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 400; i++) {
    if (child.exitCode !== null) throw new Error(`serve exited: ${err}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { url, child };
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`serve did not start: ${err}`);
}

export async function stopServe(s: ServeProcess): Promise<void> {
  if (s.child.exitCode !== null) return;
  const exited = new Promise((r) => s.child.once('exit', r));
  s.child.kill('SIGTERM');
  await exited;
}

/** user + system CPU seconds of a process so far (Linux /proc). */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
}
