/**
 * `npm run soak`: the long durability runs the CI specs only sample. Builds the app (unless
 * --no-build), serves it with its own `vite preview`, then runs ≥ 100 SIGKILLs, 40 reloads and
 * 40 tab closes right after pointer-up, and the quota-full run; prints one table and exits 1 if
 * any finished stroke was lost. See docs/durability.md.
 *
 *   npm run soak -- --kills 100 --reloads 40 --closes 40 --quota 1 --seed 1234 --port 4390
 *   npm run soak -- --only kill --kills 300 --no-build --dist dist
 *   npm run soak -- --only reload,close --page-max-delay 60   (leave 0–60 ms after pointer-up, not at once)
 */
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { startPreview, type PreviewServer } from './previewServer';
import { runKills } from './killCycles';
import { runPageCycles } from './pageCycles';
import { runQuotaFull, type QuotaResult } from './quotaRun';
import { seedFromEnv } from './seededRandom';
import { describeLost, formatTable, lossByDelay, type RunMode, type RunResult } from './runResult';

const { values } = parseArgs({
  options: {
    kills: { type: 'string', default: '100' },
    reloads: { type: 'string', default: '40' },
    closes: { type: 'string', default: '40' },
    quota: { type: 'string', default: '1' },
    seed: { type: 'string' },
    port: { type: 'string', default: process.env.SPOC_SOAK_PORT ?? '4390' },
    dist: { type: 'string', default: 'dist-soak' },
    'no-build': { type: 'boolean', default: false },
    only: { type: 'string' },
    'max-delay': { type: 'string', default: '60' },
    'page-max-delay': { type: 'string', default: '0' },
  },
});

function count(name: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) throw new Error(`soak: --${name} must be a whole number, not "${text}"`);
  return n;
}

async function main(): Promise<number> {
  const seed = values.seed !== undefined ? seedFromEnv({ SPOC_DURABILITY_SEED: values.seed }) : seedFromEnv();
  const only = values.only?.split(',').map((m) => m.trim()) as RunMode[] | undefined;
  const wanted = (mode: RunMode) => !only || only.includes(mode);
  const kills = wanted('kill') ? count('kills', values.kills) : 0;
  const reloads = wanted('reload') ? count('reloads', values.reloads) : 0;
  const closes = wanted('close') ? count('closes', values.closes) : 0;
  const quotaRuns = wanted('quota') ? count('quota', values.quota) : 0;
  const maxDelayMs = count('max-delay', values['max-delay']);
  const pageMaxDelayMs = count('page-max-delay', values['page-max-delay']);
  console.log(`soak: seed ${seed} (rerun with --seed ${seed}); ${kills} kills, ${reloads} reloads, ${closes} closes, ${quotaRuns} quota run(s)`);

  if (!values['no-build']) {
    console.log(`soak: building the app into ${values.dist}`);
    const build = spawnSync('node_modules/.bin/vite', ['build', '--outDir', values.dist, '--logLevel', 'error'], { stdio: 'inherit' });
    if (build.status !== 0) throw new Error(`soak: vite build into ${values.dist} failed (exit ${build.status})`);
  }
  const server: PreviewServer = await startPreview(values.dist, count('port', values.port));
  const stopOnSignal = () => void server.stop().finally(() => process.exit(130));
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  const results: RunResult[] = [];
  const quota: QuotaResult[] = [];
  const started = Date.now();
  const log = (line: string) => console.log(`  [${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);
  try {
    const { baseURL } = server;
    if (kills > 0) results.push(await runKills({ baseURL, kills, seed, maxDelayMs, log }));
    if (reloads > 0) results.push(await runPageCycles({ baseURL, mode: 'reload', cycles: reloads, seed, maxDelayMs: pageMaxDelayMs, log }));
    if (closes > 0) results.push(await runPageCycles({ baseURL, mode: 'close', cycles: closes, seed, maxDelayMs: pageMaxDelayMs, log }));
    for (let i = 0; i < quotaRuns; i++) {
      const q = await runQuotaFull({ baseURL, seed, log });
      quota.push(q);
      results.push(q);
    }
  } catch (err) {
    const death = server.death();
    throw death ? new Error(`soak: the preview server died mid-run; ${death}`, { cause: err }) : err;
  } finally {
    await server.stop();
  }

  console.log('');
  console.log(formatTable(results));
  for (const r of results) if (r.mode !== 'quota') console.log(lossByDelay(r));
  const lost = results.flatMap(describeLost);
  if (lost.length > 0) console.log(['', 'lost strokes:', ...lost].join('\n'));
  const notes = results.flatMap((r) => r.notes.map((n) => `  ${r.mode}: ${n}`));
  if (notes.length > 0) console.log(['', 'notes:', ...notes].join('\n'));
  const quotaProblems = quota.flatMap((q) => [
    ...(q.saveFailed ? [] : ['saving never failed with the quota full (the run proves nothing)']),
    ...(q.failedSteadily ? [] : ['saving did not fail steadily with the quota filled (the prompt went untested)']),
    ...(q.reloadDialogs.includes('beforeunload') ? [] : ['a reload while a save was failing raised no beforeunload prompt']),
    ...(q.stayed ? [] : ['answering "stay" to the prompt did not keep the page']),
    ...(q.savedAfterRoom ? [] : ['once there was room again, the page that stayed did not save every edit']),
  ]);
  for (const p of quotaProblems) console.log(`quota: ${p}`);
  const failed = lost.length > 0 || quotaProblems.length > 0;
  console.log(`\nsoak: ${failed ? 'FAILED' : 'passed'} in ${((Date.now() - started) / 1000).toFixed(0)} s (seed ${seed})`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.stack ?? err.message : String(err));
    process.exit(2);
  },
);
