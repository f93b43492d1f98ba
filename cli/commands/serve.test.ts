/**
 * The server commands on a real embedded database folder: accounts made by `user add`, a password
 * reset, disabling and enabling, a CLI token and a blob sweep, then `serve` as a child process
 * (signing in with them over HTTP) stopped by SIGTERM. Every command opens PGlite anew (seconds
 * each), so this is one long story.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../main';
import { tempDir } from '../testing';

const SHIM = fileURLToPath(new URL('../spoc-studio.mjs', import.meta.url));

async function run(argv: string[], stdinText?: string) {
  let stdout = '';
  let stderr = '';
  async function* stdin() {
    if (stdinText !== undefined) yield stdinText;
  }
  const code = await main(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, stdin: stdin(), env: {} });
  return { code, stdout, stderr };
}

describe('spoc-studio user, token and serve', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => ({ dir, cleanup } = await tempDir('spoc-serve-cli-')));
  afterAll(() => cleanup());

  it('refuses incomplete commands with usage errors, before opening any database', async () => {
    expect(await run(['user'])).toMatchObject({ code: 2, stderr: expect.stringContaining('expected "add", "reset-password", "disable" or "enable" after "user"') });
    expect(await run(['user', 'disable', 'ana', '--password-stdin'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--password-stdin is for "add" and "reset-password"') });
    expect(await run(['user', 'add'])).toMatchObject({ code: 2, stderr: expect.stringContaining('a username is required') });
    expect(await run(['token', 'revoke', 'ana'])).toMatchObject({ code: 2, stderr: expect.stringContaining('expected "create" after "token"; got "revoke"') });
    expect(await run(['serve', '--port', '70000'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--port must be between 0 and 65535') });
    expect((await run(['help', 'serve'])).stdout).toContain('Usage: spoc-studio serve');
    expect(await run(['blobs'])).toMatchObject({ code: 2, stderr: expect.stringContaining('expected "gc" after "blobs"') });
    expect(await run(['blobs', 'gc', '--grace-hours', 'soon'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--grace-hours must be a number between 0 and 8760; got "soon"') });
  });

  it('creates accounts and tokens, and serves them until SIGTERM', { timeout: 300_000 }, async () => {
    const data = ['--data', dir];
    expect(await run(['user', 'add', 'ana', '--password-stdin', ...data], 'first password\n')).toMatchObject({ code: 0, stdout: 'created user ana\n' });
    expect(await run(['user', 'add', 'ANA', '--password-stdin', ...data], 'other password\n')).toMatchObject({ code: 1, stderr: 'spoc-studio user: error: the username "ANA" is taken\n' });
    expect(await run(['user', 'reset-password', 'ana', '--password-stdin', ...data], 'second password\n')).toMatchObject({ code: 0 });
    expect(await run(['user', 'disable', 'ana', ...data])).toMatchObject({ code: 0, stdout: 'disabled ana: signed out of 0 sessions, 0 tokens revoked; everything they wrote stays\n' });
    expect(await run(['token', 'create', 'ana', ...data])).toMatchObject({ code: 1, stderr: expect.stringContaining('the account "ana" is disabled; enable it first') });
    expect(await run(['user', 'enable', 'ana', ...data])).toMatchObject({ code: 0, stdout: expect.stringContaining('enabled ana') });
    const tokenRun = await run(['token', 'create', 'ana', ...data]);
    expect(await run(['blobs', 'gc', '--dry-run', '--grace-hours', '0', ...data])).toMatchObject({
      code: 0,
      stdout: 'would drop 0 project references to images no frame shows, would delete 0 images no project references (0.0 MiB) last uploaded over 0 h ago; nothing was deleted (dry run)\n',
    });
    expect(tokenRun.code).toBe(0);
    const token = tokenRun.stdout.trim();
    expect(token).toMatch(/^spoc_[A-Za-z0-9_-]{43}$/);

    const child = spawn(process.execPath, [SHIM, 'serve', '--port', '0', '--dist', dir, ...data], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const base = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', () => {
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]);
      });
      void exited.then(() => reject(new Error(`serve exited early:\n${out}`)));
    });
    expect(out).toContain(`database: embedded PostgreSQL (PGlite) in ${dir}`);

    const signIn = (password: string) =>
      fetch(`${base}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json', origin: base }, body: JSON.stringify({ username: 'ana', password }) });
    expect((await signIn('first password')).status).toBe(401);
    expect((await signIn('second password')).status).toBe(200);
    const me = await fetch(`${base}/api/me`, { headers: { authorization: `Bearer ${token}` } });
    expect((await me.json()).user.username).toBe('ana');

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(out).toMatch(/SIGTERM: stopping\nstopped\n$/);
  });
});
