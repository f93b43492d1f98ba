/**
 * Served over plain http from a LAN address, the page is not a secure context: the browser withholds
 * Web Locks (one editing tab per clip), the Origin Private File System (the crash journal) and more.
 * The app still works there (ids, and tab claims over a BroadcastChannel, have fallbacks), but the
 * person must know what is missing. The banner can be folded to one line, never hidden for good:
 * it comes back on every load, as long as the address stays insecure.
 */
import { useState } from 'react';

export function insecureContextText(host: string): string {
  return (
    `This page is served over plain http from ${host}: the browser withholds tab locks and the crash journal here, ` +
    'so two tabs could overwrite each other and a browser crash could lose work. Open it at https:// or http://localhost.'
  );
}

export function InsecureContextBanner() {
  const [folded, setFolded] = useState(false);
  if (typeof window === 'undefined' || window.isSecureContext) return null;
  const host = window.location.host;
  if (folded) {
    return (
      <button
        type="button"
        data-testid="insecure-context-folded"
        className="w-full border-b border-amber-700 bg-amber-950 px-4 py-0.5 text-left text-xs text-amber-200 hover:bg-amber-900"
        onClick={() => setFolded(false)}
      >
        Plain http from {host}: tab locks and the crash journal are unavailable (details)
      </button>
    );
  }
  return (
    <div role="region" aria-label="Insecure connection" data-testid="insecure-context" className="flex items-start gap-3 border-b border-amber-600 bg-amber-950 px-4 py-2 text-sm text-amber-100">
      <p className="flex-1">{insecureContextText(host)}</p>
      <button type="button" className="rounded border border-amber-700 px-2 py-0.5 text-xs hover:bg-amber-900" onClick={() => setFolded(true)}>
        Fold
      </button>
    </div>
  );
}
