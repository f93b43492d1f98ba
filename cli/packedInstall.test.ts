/**
 * The package as users get it: `npm pack`, then `npm install -g` of the tarball into a scratch
 * prefix, then the installed `spoc-studio eval` on a folder of masks, outside this checkout (no
 * devDependencies, no tsx, nothing from the repo's node_modules). npm resolves the dependencies from
 * its cache when it can (--offline) and asks the registry only for what the cache lacks (the package
 * metadata, on a fresh machine), so this test needs the npm registry once per machine.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mapOf, runCli, tempDir, writeMask } from './testing';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; version: string };

let tmp: string;
let cleanup: () => Promise<void>;

/** A child process environment without the repo's tools on PATH or modules on NODE_PATH. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { HOME: process.env.HOME, PATH: (process.env.PATH ?? '').split(path.delimiter).filter((p) => !p.includes('node_modules')).join(path.delimiter) };
  if (process.env.npm_config_cache) env.npm_config_cache = process.env.npm_config_cache;
  return env;
}

function run(cmd: string, args: readonly string[], cwd: string): SpawnSyncReturns<string> {
  return spawnSync(cmd, args, { cwd, env: cleanEnv(), encoding: 'utf8', maxBuffer: 1 << 26 });
}

describe('the packed package, installed globally', () => {
  let tarball: string;
  let bundleImports: string[];
  let prefix: string;

  beforeAll(async () => {
    ({ dir: tmp, cleanup } = await tempDir('spoc-pack-'));
    const build = run(process.execPath, ['scripts/build-cli.mjs'], repo);
    expect(build.status, build.stderr).toBe(0);
    bundleImports = /imports: (.*)$/m.exec(build.stdout)![1].split(' ').filter(Boolean);
    // The bundle was just built; prepack would also build the web app, which eval does not need.
    const pack = run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], repo);
    expect(pack.status, pack.stderr).toBe(0);
    const [info] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
    tarball = path.join(tmp, info.filename);
    expect(info.files.map((f) => f.path)).toEqual(expect.arrayContaining(['cli/spoc-studio.mjs', 'dist-cli/spoc-studio.mjs', 'package.json']));
    // No TypeScript sources: the installed bin cannot fall back to tsx.
    expect(info.files.filter((f) => f.path.endsWith('.ts'))).toEqual([]);

    prefix = path.join(tmp, 'prefix');
    const install = (mode: string): SpawnSyncReturns<string> =>
      run('npm', ['install', '--global', '--prefix', prefix, mode, '--no-audit', '--no-fund', '--ignore-scripts', tarball], tmp);
    let installed = install('--offline');
    if (installed.status !== 0 && /ENOTCACHED/.test(installed.stderr)) installed = install('--prefer-offline');
    expect(installed.status, installed.stderr).toBe(0);

    for (const [video, frames] of [
      ['cup', [['0011', '0022'], ['0111', '0222']]],
      ['pan', [['1100', '2200'], ['1000', '2000']]],
    ] as const) {
      for (let i = 0; i < frames.length; i++) {
        await writeMask(path.join(tmp, 'data', 'gt', video, `${i}.png`), mapOf(frames[i]));
        await writeMask(path.join(tmp, 'data', 'pred', video, `${i}.png`), mapOf(i === 0 ? frames[i] : ['0001', '0022']));
      }
    }
  }, 600_000);
  afterAll(() => cleanup?.());

  it('imports only packages that are runtime "dependencies"', () => {
    expect(bundleImports.length).toBeGreaterThan(0);
    expect(bundleImports.filter((p) => !(p in pkg.dependencies))).toEqual([]);
  });

  it('installs without devDependencies and runs `spoc-studio eval` with the same numbers as the sources', async () => {
    const installedPkg = path.join(prefix, 'lib', 'node_modules', 'spoc-studio');
    expect(existsSync(path.join(installedPkg, 'dist-cli', 'spoc-studio.mjs'))).toBe(true);
    expect(existsSync(path.join(installedPkg, 'node_modules', 'tsx'))).toBe(false);
    expect(existsSync(path.join(installedPkg, 'node_modules', 'typescript'))).toBe(false);

    const bin = path.join(prefix, 'bin', 'spoc-studio');
    const version = run(bin, ['--version'], tmp);
    expect(version.stdout.trim()).toBe(`spoc-studio ${pkg.version}`);

    const data = path.join(tmp, 'data');
    const installed = run(bin, ['eval', '--gt', 'gt', '--pred', 'pred', '--boundary', '--json', '-'], data);
    expect(installed.status, installed.stderr).toBe(0);
    const sources = await runCli(['eval', '--gt', 'gt', '--pred', 'pred', '--boundary', '--json', '-'], data);
    expect(sources.code, sources.stderr).toBe(0);
    expect(JSON.parse(installed.stdout)).toEqual(JSON.parse(sources.stdout));
    const doc = JSON.parse(installed.stdout) as { clips: unknown[] };
    expect(doc.clips.length).toBe(2);
  });
});
