/**
 * A file of the installed package, found from wherever this code runs: the TypeScript sources
 * (server/…, cli/…) or the bundle (dist-cli/…, docs/cli.md "Installing"), which sit at different
 * depths, so a fixed "../.." would point outside the package in one of them.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | null = null;

/** The folder holding the package.json above this module. */
export function packageRoot(): string {
  if (root === null) {
    let dir = path.dirname(fileURLToPath(import.meta.url));
    while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
    root = dir;
  }
  return root;
}

export function packageFile(...parts: string[]): string {
  return path.join(packageRoot(), ...parts);
}
