#!/usr/bin/env node
/**
 * Bundles the command-line program (cli/spoc-studio.ts and everything it imports from cli/, src/ and
 * server/) into plain JavaScript under dist-cli/, so the "spoc-studio" bin starts without tsx or any
 * devDependency (docs/cli.md "Installing"). Packages stay external: they are the "dependencies" of
 * package.json, installed next to the bundle. Run by `npm run build` and `npm pack` (prepack).
 * Plain .mjs so it runs on a bare Node; esbuild is the one Vite and tsx already bring.
 */
import { rm } from 'node:fs/promises';
import console from 'node:console';
import process from 'node:process';
import { builtinModules } from 'node:module';
import { URL, fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
export const OUT_DIR = 'dist-cli';

const pkgName = (spec) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);

/** Builds dist-cli/; returns the packages the bundle imports (to check them against "dependencies"). */
export async function buildCli({ quiet = false } = {}) {
  await rm(`${root}${OUT_DIR}`, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: { 'spoc-studio': 'cli/spoc-studio.ts', 'eval-worker': 'cli/evalWorker.ts' },
    outdir: OUT_DIR,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // Commands load their modules on first use (main.ts), so `eval` never parses the server's.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    metafile: true,
    legalComments: 'none',
    logLevel: quiet ? 'error' : 'warning',
  });
  const builtins = new Set(builtinModules);
  const packages = new Set();
  for (const out of Object.values(result.metafile.outputs)) {
    for (const i of out.imports) {
      if (!i.external || i.path.startsWith('node:') || builtins.has(i.path)) continue;
      packages.add(pkgName(i.path));
    }
  }
  return { packages: [...packages].sort() };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { packages } = await buildCli();
  // One line the packaging test parses: every package the bundle imports must be a "dependency".
  console.log(`${OUT_DIR}/spoc-studio.mjs built; imports: ${packages.join(' ')}`);
}
