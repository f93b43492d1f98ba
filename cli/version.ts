/** The package version, read once from the package's package.json ("unknown" when unreadable). */
import { readFileSync } from 'node:fs';
import { packageFile } from '../server/packageFile';

let cached: string | null = null;

export function packageVersion(): string {
  if (cached === null) {
    try {
      const pkg = JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version?: unknown };
      cached = typeof pkg.version === 'string' ? pkg.version : 'unknown';
    } catch {
      cached = 'unknown';
    }
  }
  return cached;
}
