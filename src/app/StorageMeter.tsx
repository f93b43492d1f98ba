/**
 * Shows how much of the browser's storage the project uses, asks once for persistent storage (so
 * the browser does not evict hours of painting under pressure), and warns before space runs out.
 */
import { useEffect, useState } from 'react';
import { formatBytes, quotaWarning, readQuota, requestPersistence, type QuotaInfo } from '../store/quota';
import { notify } from '../workspace/notices';

const REFRESH_MS = 15_000;

export function StorageMeter() {
  const [info, setInfo] = useState<QuotaInfo | null>(null);

  useEffect(() => {
    let alive = true;
    let warned: string | null = null;
    const refresh = async () => {
      const q = await readQuota();
      if (!alive) return;
      setInfo(q);
      const w = q.known ? quotaWarning(q.usage, q.quota) : null;
      if (w && w.level !== warned) notify(w.level === 'critical' ? 'error' : 'warn', w.message);
      warned = w?.level ?? null;
    };
    void requestPersistence().then(refresh);
    const timer = setInterval(refresh, REFRESH_MS);
    window.addEventListener('spoc:storage-changed', refresh);
    return () => {
      alive = false;
      clearInterval(timer);
      window.removeEventListener('spoc:storage-changed', refresh);
    };
  }, []);

  if (!info) return null;
  if (!info.known) return <span className="text-xs text-zinc-500">storage: unknown</span>;
  const share = info.quota > 0 ? info.usage / info.quota : 0;
  const tone = share > 0.95 ? 'bg-red-500' : share > 0.8 ? 'bg-amber-500' : 'bg-emerald-500';
  return (
    <div
      className="flex items-center gap-2 text-xs text-zinc-400"
      data-testid="storage-meter"
      title={info.persisted ? 'Persistent storage granted: the browser will not evict this data.' : 'Storage is best-effort: the browser may evict it under pressure. Export bundles regularly.'}
    >
      <span>{formatBytes(info.usage)} of {formatBytes(info.quota)}</span>
      <span className="h-1.5 w-20 overflow-hidden rounded bg-zinc-800">
        <span className={`block h-full ${tone}`} style={{ width: `${Math.max(2, share * 100).toFixed(1)}%` }} />
      </span>
      <span>{info.persisted ? 'persistent' : 'best-effort'}</span>
    </div>
  );
}

/** Import and delete paths call this so the meter refreshes without waiting for its timer. */
export function storageChanged(): void {
  window.dispatchEvent(new Event('spoc:storage-changed'));
}
