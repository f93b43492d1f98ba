/**
 * A Chromium we start and SIGKILL ourselves: Playwright's own launcher closes the browser politely,
 * which is exactly what a crash is not. The browser runs in its own process group with a persistent
 * profile, so one `kill(-pgid, SIGKILL)` takes every Chromium process down at once (as a power cut or
 * the OOM killer would) and the next launch opens the same IndexedDB files.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext } from '@playwright/test';

export const CHROMIUM_PATH = process.env.SPOC_CHROMIUM ?? '/usr/bin/chromium';

/** The quiet flags of playwright.config.ts, plus what a hand-started headless browser needs. */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-crash-reporter',
  '--disable-breakpad',
  '--remote-debugging-port=0',
  '--window-size=1400,900',
];

export interface RunningChromium {
  pid: number;
  browser: Browser;
  context: BrowserContext;
  /** Lines Chromium wrote to stderr that mention corruption or recovery of storage. */
  storageWarnings: string[];
  /** SIGKILLs the whole process group and waits until no process of it is left running. */
  kill(): Promise<void>;
  /** Polite shutdown (for the end of a run). */
  close(): Promise<void>;
}

const STORAGE_WARNING = /corrupt|checksum mismatch|recover|leveldb|indexed_?db/i;

export async function launchChromium(profileDir: string, timeoutMs = 30_000): Promise<RunningChromium> {
  const child = spawn(CHROMIUM_PATH, [...FLAGS, `--user-data-dir=${profileDir}`, 'about:blank'], {
    detached: true, // its own process group, so the kill reaches every helper process too
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`chromiumProcess: could not start ${CHROMIUM_PATH}`);
  const storageWarnings: string[] = [];
  const ws = await devtoolsUrl(child, storageWarnings, timeoutMs);
  const browser = await chromium.connectOverCDP(ws, { timeout: timeoutMs });
  const context = browser.contexts()[0];
  if (!context) throw new Error('chromiumProcess: the browser has no default context to use');
  const exited = new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
  return {
    pid,
    browser,
    context,
    storageWarnings,
    kill: async () => {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // already gone
      }
      await exited;
      await waitGroupGone(pid);
      // The CDP connection learns of the death on its own; closing it only tidies up in Node.
      await browser.close().catch(() => undefined);
    },
    close: async () => {
      await browser.close().catch(() => undefined);
      try {
        process.kill(-pid, 'SIGTERM');
      } catch {
        // already gone
      }
      await Promise.race([exited, sleep(5000)]);
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // already gone
      }
      await exited;
      await waitGroupGone(pid);
    },
  };
}

function devtoolsUrl(child: ChildProcess, warnings: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    let found = false;
    const timer = setTimeout(() => fail(`no DevTools address within ${timeoutMs} ms`), timeoutMs);
    const fail = (why: string) => {
      clearTimeout(timer);
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
      reject(new Error(`chromiumProcess: ${CHROMIUM_PATH} did not start: ${why}. Its stderr:\n${buffered.slice(-2000)}`));
    };
    child.once('error', (err) => fail(err.message));
    child.once('exit', (code, signal) => !found && fail(`exited early (code ${code}, signal ${signal})`));
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      buffered += chunk;
      for (const line of chunk.split('\n')) if (STORAGE_WARNING.test(line)) warnings.push(line.trim());
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(buffered);
      if (match && !found) {
        found = true;
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
}

/**
 * Waits until no live process of the group is left. Orphaned helpers are reparented and reaped by
 * whoever is PID 1; a zombie that PID 1 never reaps holds no files, so it counts as gone.
 */
async function waitGroupGone(pgid: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const alive = liveMembers(pgid);
    if (alive.length === 0) return;
    if (Date.now() > deadline) throw new Error(`chromiumProcess: processes ${alive.join(', ')} of group ${pgid} survived SIGKILL`);
    await sleep(20);
  }
}

function liveMembers(pgid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited while we looked
    }
    // Fields after the ")" that closes the command name: state, ppid, pgrp, ...
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z') out.push(Number(entry));
  }
  return out;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
