/**
 * The one database interface the server uses. Two implementations (./pgDb for a PostgreSQL server,
 * ./pgliteDb for the embedded default) behave the same for everything the server does, and the tests
 * run against both (server/testing/backends.ts).
 *
 * Queries are always parameterised ($1, $2, …): no SQL is ever built from user text.
 */

export type Row = Record<string, unknown>;

/** What a query runs on: the database itself, or one transaction. */
export interface Queryable {
  query<T extends object = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a script of several statements without parameters (migration files only). */
  exec(sql: string): Promise<void>;
}

export interface Db extends Queryable {
  /** Which implementation (shown by /api/health and the serve banner). */
  readonly kind: 'postgres' | 'pglite';
  /** Runs fn in one transaction on one connection: committed when fn resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Calls onPayload for every NOTIFY on channel (several server processes sharing one PostgreSQL
   * fan out live changes this way). Resolves once listening; the returned function stops it. A
   * listening connection that drops is replaced; onReconnect is then called, since payloads sent
   * while it was gone are lost (listeners catch up by other means).
   */
  listen(channel: string, onPayload: (payload: string) => void, onReconnect?: () => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  close(): Promise<void>;
}

/** Channel names go into LISTEN as identifiers (they cannot be parameters), so only plain names pass. */
export function checkChannelName(channel: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`bad channel name "${channel}"`);
  return channel;
}
