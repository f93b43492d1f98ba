/**
 * Shows how much of the browser's storage the app uses and whether the browser keeps it for sure
 * (persistent) or may evict it (best-effort, said plainly when the browser refused our request), and
 * warns before space runs out: at 80 % / 95 % full, and when free space is below what the next hour
 * is expected to write at this session's pace (store/quota.ts expectedHourlyWrites has the rule).
 */
import { useEffect, useRef, useState } from 'react';
import { getDb } from '../workspace/db';
import { expectedHourlyWrites, formatBytes, lowSpaceWarning, quotaWarning, readQuota, type QuotaInfo, type QuotaWarning, type UsageSample } from '../store/quota';
import { notify } from '../workspace/notices';
import { STORAGE_CHANGED_EVENT, askPersistenceOnce, persistenceAnswer, type PersistenceAnswer } from './storagePersistence';

const REFRESH_MS = 15_000;
/** An hour of readings at the refresh rate: the pace estimate looks back at most that far. */
const MAX_SAMPLES = 240;

interface MeterState {
  info: QuotaInfo;
  answer: PersistenceAnswer;
  lowSpace: QuotaWarning | null;
}

export function StorageMeter() {
  const [state, setState] = useState<MeterState | null>(null);
  const samples = useRef<UsageSample[]>([]);

  useEffect(() => {
    let alive = true;
    let warned: string | null = null;
    const refresh = async () => {
      const q = await readQuota();
      if (!alive) return;
      let lowSpace: QuotaWarning | null = null;
      if (q.known) {
        samples.current = [...samples.current, { at: Date.now(), usage: q.usage }].slice(-MAX_SAMPLES);
        lowSpace = lowSpaceWarning(q.usage, q.quota, expectedHourlyWrites(samples.current));
      }
      setState({ info: q, answer: persistenceAnswer(), lowSpace });
      const w = q.known ? quotaWarning(q.usage, q.quota) : null;
      if (w && w.level !== warned) notify(w.level === 'critical' ? 'error' : 'warn', w.message, { appWide: true });
      warned = w?.level ?? null;
    };
    const afterWrite = () => {
      // A write happened (import, project, demo, bundle): the moment to ask, if not asked yet.
      void askPersistenceOnce();
      void refresh();
    };
    void refresh();
    // Data from earlier sessions is worth keeping now; an empty store waits for its first write.
    void getDb()
      .then((db) => db.projects.count())
      .then((n) => {
        if (alive && n > 0) void askPersistenceOnce();
      })
      .catch(() => undefined);
    const timer = setInterval(refresh, REFRESH_MS);
    window.addEventListener(STORAGE_CHANGED_EVENT, afterWrite);
    return () => {
      alive = false;
      clearInterval(timer);
      window.removeEventListener(STORAGE_CHANGED_EVENT, afterWrite);
    };
  }, []);

  if (!state) return null;
  const { info, answer, lowSpace } = state;
  if (!info.known) return <span className="text-xs text-zinc-500">storage: unknown</span>;
  const share = info.quota > 0 ? info.usage / info.quota : 0;
  const tone = share > 0.95 ? 'bg-red-500' : share > 0.8 ? 'bg-amber-500' : 'bg-emerald-500';
  const refused = !info.persisted && answer === 'refused';
  return (
    <div className="flex flex-col items-end text-xs text-zinc-400" data-testid="storage-meter">
      <div
        className="flex items-center gap-2"
        title={info.persisted ? 'Persistent storage granted: the browser will not evict this data.' : 'Storage is best-effort: the browser may evict it under pressure. Export bundles regularly.'}
      >
        <span>
          {formatBytes(info.usage)} of {formatBytes(info.quota)}
        </span>
        <span className="h-1.5 w-20 overflow-hidden rounded bg-zinc-800">
          <span className={`block h-full ${tone}`} style={{ width: `${Math.max(2, share * 100).toFixed(1)}%` }} />
        </span>
        <span data-testid="storage-persistence">{info.persisted ? 'persistent' : 'best-effort'}</span>
      </div>
      {refused && (
        <p className="max-w-md text-right text-amber-400" data-testid="storage-not-persistent">
          The browser refused persistent storage: it may evict this data under storage pressure; export bundles regularly.
        </p>
      )}
      {lowSpace && (
        <p className={`max-w-md text-right ${lowSpace.level === 'critical' ? 'text-red-400' : 'text-amber-400'}`} data-testid="storage-warning" role="status">
          {lowSpace.message}
        </p>
      )}
    </div>
  );
}

/** Import and delete paths call this so the meter refreshes without waiting for its timer. */
export function storageChanged(): void {
  window.dispatchEvent(new Event(STORAGE_CHANGED_EVENT));
}
