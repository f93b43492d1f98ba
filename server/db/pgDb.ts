/** Db on a PostgreSQL server through a pg connection pool (DATABASE_URL). */
import pg from 'pg';
import { checkChannelName, type Db, type Queryable } from './db';

export interface PgDbOptions {
  connectionString: string;
  /** Connections per server process (default 10). */
  max?: number;
}

export function openPgDb(options: PgDbOptions): Db {
  // A bounded connect time: with the database down, /api/health must answer 503, not hang.
  const pool = new pg.Pool({ connectionString: options.connectionString, max: options.max ?? 10, connectionTimeoutMillis: 5000 });
  // An idle connection dropped by the server (restart, network) is replaced on the next query;
  // without a listener the pool's 'error' event would crash the process.
  pool.on('error', () => {});

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
    async listen(channel, onPayload) {
      // LISTEN belongs to one connection, so each listener holds its own client out of the pool.
      checkChannelName(channel);
      const client = await pool.connect();
      const onNotification = (msg: pg.Notification) => {
        if (msg.channel === channel) onPayload(msg.payload ?? '');
      };
      client.on('notification', onNotification);
      try {
        await client.query(`LISTEN ${channel}`);
      } catch (err) {
        client.release(true);
        throw err;
      }
      return async () => {
        client.off('notification', onNotification);
        await client.query(`UNLISTEN ${channel}`).catch(() => {});
        client.release();
      };
    },
    async notify(channel, payload) {
      await pool.query('SELECT pg_notify($1, $2)', [checkChannelName(channel), payload]);
    },
    close: () => pool.end(),
  };
}
