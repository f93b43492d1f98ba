/** What every route gets: the database, the options in force and the sign-in limiter. */
import type { ScryptParams } from '../auth/passwords';
import type { SignInLimiter, SignInLimits } from '../auth/signInLimiter';
import type { Db } from '../db/db';
import type { BlobStore } from '../sync/blobStore';
import type { LiveHub } from '../sync/liveHub';
import type { Presence, PresenceTiming } from '../sync/presence';
import type { PushQueue } from '../sync/pushQueue';

export interface SessionPolicy {
  /** How long a session lives (ms). */
  ttlMs: number;
  /** true: each use pushes the expiry ttlMs ahead (idle timeout); false: fixed from sign-in. */
  sliding: boolean;
}

export interface ServerOptions {
  db: Db;
  /** The built app to serve (default dist/ of this checkout); null serves the API only. */
  distDir?: string | null;
  session?: Partial<SessionPolicy>;
  passwordParams?: ScryptParams;
  signInLimits?: SignInLimits;
  /** The origin the app is reached at (e.g. https://annotate.lab.example) when behind a proxy; else taken from each request. */
  publicOrigin?: string;
  /** Trust X-Forwarded-* from a reverse proxy (set when one terminates TLS in front of the server). */
  trustProxy?: boolean;
  /** Largest JSON body accepted (bytes, default 8 MiB). */
  bodyLimit?: number;
  /** Where frame images are kept (default: the database's blobs table). */
  blobStore?: BlobStore;
  /** How often a live socket's session and membership are checked again (ms, default 30 s). */
  liveRecheckMs?: number;
  /** How often presence rows are refreshed, and when a silent process's rows expire (server/sync/presence.ts). */
  presence?: PresenceTiming;
  /** Fastify's logger (default off; `serve` logs warnings and errors). */
  logger?: boolean | { level: string };
}

export interface ResolvedOptions {
  session: SessionPolicy;
  passwordParams: ScryptParams;
  publicOrigin?: string;
  liveRecheckMs: number;
}

export interface ServerContext {
  db: Db;
  options: ResolvedOptions;
  limiter: SignInLimiter;
  blobs: BlobStore;
  /** This process's live sockets (server/sync/liveHub.ts). */
  live: LiveHub;
  /** Who has which clip open, shared with the other server processes (server/sync/presence.ts). */
  presence: Presence;
  /** Pushes, gathered per project into shared transactions (server/sync/pushQueue.ts). */
  pushes: PushQueue;
}
