/** Db on a PostgreSQL server through a pg connection pool (DATABASE_URL). */
import pg from 'pg';
import { checkChannelName, type Db, type Queryable } from './db';

export interface PgDbOptions {
  connectionString: string;
  /** Connections per server process (default 10). */
  max?: number;
}

/** Pause before a dropped LISTEN connection is replaced (then doubling). */
const RELISTEN_FIRST_MS = 500;

export function openPgDb(options: PgDbOptions): Db {
  // A bounded connect time: with the database down, /api/health must answer 503, not hang.
  const pool = new pg.Pool({ connectionString: options.connectionString, max: options.max ?? 10, connectionTimeoutMillis: 5000 });
  // An idle connection dropped by the server (restart, network) is replaced on the next query;
  // without a listener the pool's 'error' event would crash the process.
  pool.on('error', () => {});
  const listeners = new Set<() => Promise<void>>();

  const queryOn = (client: pg.Pool | pg.PoolClient): Queryable['query'] =>
    async <T extends object>(sql: string, params: readonly unknown[] = []) => (await client.query(sql, params as unknown[])).rows as T[];

  // Without parameters pg sends the simple query protocol, which runs several statements.
  const execOn = (client: pg.Pool | pg.PoolClient) => async (sql: string) => {
    await client.query(sql);
  };

  return {
    kind: 'postgres',
    query: queryOn(pool),
    exec: execOn(pool),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn({ query: queryOn(client), exec: execOn(client) });
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    async listen(channel, onPayload, onReconnect) {
      // LISTEN belongs to one connection, so each listener holds its own client out of the pool,
      // and takes a new one (after a pause, doubling up to 30 s) when that connection dies.
      checkChannelName(channel);
      let client: pg.PoolClient | null = null;
      let stopped = false;
      let retry: ReturnType<typeof setTimeout> | null = null;
      const onNotification = (msg: pg.Notification) => {
        if (msg.channel === channel) onPayload(msg.payload ?? '');
      };
      const lost = () => {
        const dead = client;
        if (!dead || stopped) return;
        client = null;
        dead.off('notification', onNotification);
        dead.release(true);
        schedule(RELISTEN_FIRST_MS);
      };
      const connect = async () => {
        const c = await pool.connect();
        // Without an 'error' listener a dropped connection would crash the process.
        c.on('error', lost);
        c.on('end', lost);
        c.on('notification', onNotification);
        try {
          await c.query(`LISTEN ${channel}`);
        } catch (err) {
          c.off('notification', onNotification);
          c.release(true);
          throw err;
        }
        client = c;
      };
      const schedule = (delayMs: number) => {
        retry = setTimeout(() => {
          retry = null;
          if (stopped) return;
          connect().then(
            () => (stopped ? undefined : onReconnect?.()),
            () => schedule(Math.min(delayMs * 2, 30_000)),
          );
        }, delayMs);
        retry.unref?.();
      };
      await connect();
      const stop = async () => {
        listeners.delete(stop);
        stopped = true;
        if (retry) clearTimeout(retry);
        const c = client;
        client = null;
        if (!c) return;
        c.off('notification', onNotification);
        await c.query(`UNLISTEN ${channel}`).catch(() => {});
        c.removeListener('error', lost);
        c.removeListener('end', lost);
        c.release();
      };
      listeners.add(stop);
      return stop;
    },
    async notify(channel, payload) {
      await pool.query('SELECT pg_notify($1, $2)', [checkChannelName(channel), payload]);
    },
    async close() {
      // A listener holds a client out of the pool, and pool.end() would wait for it forever.
      await Promise.all([...listeners].map((stop) => stop()));
      await pool.end();
    },
  };
}
