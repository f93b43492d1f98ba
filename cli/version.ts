/** The package version, read once from package.json next to cli/ ("unknown" when unreadable). */
import { readFileSync } from 'node:fs';

let cached: string | null = null;

export function packageVersion(): string {
  if (cached === null) {
    try {
      const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: unknown };
      cached = typeof pkg.version === 'string' ? pkg.version : 'unknown';
    } catch {
      cached = 'unknown';
    }
  }
  return cached;
}
