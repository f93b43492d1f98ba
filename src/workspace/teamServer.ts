/**
 * The team server's account and project API as the app calls it (docs/server.md): same-origin
 * `fetch` with the session cookie, the CSRF token on every change, and errors turned into
 * sentences. The app is also served without a server (vite, a static host): then `/api/me`
 * answers 404 or HTML, and the app stays local-only (`probe` says "none").
 */

export type ServerRole = 'manager' | 'annotator' | 'reviewer';

export interface ServerUser {
  id: string;
  username: string;
}

export interface ServerProject {
  id: string;
  name: string;
  role: ServerRole;
}

export interface ServerMember {
  userId: string;
  username: string;
  role: ServerRole;
}

export interface Invite {
  token: string;
  path: string;
  role: ServerRole;
  expiresAt: string;
}

/** What `/api/me` told: no server behind this page, a server and nobody signed in, or a user. */
export type Probe = { kind: 'none' } | { kind: 'signed-out' } | { kind: 'signed-in'; user: ServerUser; csrfToken: string };

export class ServerError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ServerError';
  }
}

type Fetch = typeof fetch;

async function errorOf(response: Response): Promise<ServerError> {
  let text = '';
  try {
    const body = (await response.json()) as { error?: unknown };
    if (typeof body.error === 'string') text = body.error;
  } catch {
    // not JSON: a proxy's page; the status says enough
  }
  const fallback = response.status === 503 ? 'the server cannot reach its database' : `the server answered ${response.status}`;
  return new ServerError(response.status, text || fallback);
}

export class TeamServer {
  private csrf = '';

  constructor(
    /** '' for the page's own origin (the server serves the app). */
    private readonly base = '',
    private readonly fetchImpl: Fetch = (...args) => fetch(...args),
  ) {}

  /** The CSRF token of the session in force ('' when signed out); the sync transport sends it too. */
  get csrfToken(): string {
    return this.csrf;
  }

  async probe(): Promise<Probe> {
    let response: Response;
    try {
      response = await this.fetchImpl(`${this.base}/api/me`, { credentials: 'same-origin', headers: { accept: 'application/json' } });
    } catch {
      return { kind: 'none' };
    }
    if (response.status === 401) return { kind: 'signed-out' };
    const isJson = response.headers.get('content-type')?.includes('application/json') ?? false;
    if (!response.ok || !isJson) return { kind: 'none' };
    const body = (await response.json()) as { user: ServerUser; csrfToken: string };
    this.csrf = body.csrfToken;
    return { kind: 'signed-in', user: body.user, csrfToken: body.csrfToken };
  }

  async signIn(username: string, password: string): Promise<{ user: ServerUser; csrfToken: string }> {
    const body = await this.send<{ user: ServerUser; csrfToken: string }>('POST', '/session', { username, password });
    this.csrf = body.csrfToken;
    return body;
  }

  async signOut(): Promise<void> {
    await this.send('DELETE', '/session');
    this.csrf = '';
  }

  async projects(): Promise<ServerProject[]> {
    return (await this.send<{ projects: ServerProject[] }>('GET', '/projects')).projects;
  }

  /** Creates a server project; `id` keeps a local project's id when it is shared. */
  createProject(name: string, id?: string): Promise<ServerProject> {
    return this.send('POST', '/projects', id ? { name, id } : { name });
  }

  async members(projectId: string): Promise<ServerMember[]> {
    return (await this.send<{ members: ServerMember[] }>('GET', `/projects/${encodeURIComponent(projectId)}/members`)).members;
  }

  addMember(projectId: string, username: string, role: ServerRole): Promise<ServerMember> {
    return this.send('POST', `/projects/${encodeURIComponent(projectId)}/members`, { username, role });
  }

  setRole(projectId: string, userId: string, role: ServerRole): Promise<unknown> {
    return this.send('PUT', `/projects/${encodeURIComponent(projectId)}/members/${encodeURIComponent(userId)}`, { role });
  }

  removeMember(projectId: string, userId: string): Promise<unknown> {
    return this.send('DELETE', `/projects/${encodeURIComponent(projectId)}/members/${encodeURIComponent(userId)}`);
  }

  createInvite(projectId: string, role: ServerRole): Promise<Invite> {
    return this.send('POST', `/projects/${encodeURIComponent(projectId)}/invites`, { role });
  }

  acceptInvite(token: string): Promise<{ projectId: string; role: ServerRole }> {
    return this.send('POST', '/invites/accept', { token });
  }

  private async send<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (method !== 'GET' && this.csrf) headers['x-csrf-token'] = this.csrf;
    let response: Response;
    try {
      response = await this.fetchImpl(`${this.base}/api${path}`, {
        method,
        credentials: 'same-origin',
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      throw new ServerError(0, 'the server cannot be reached (offline?)');
    }
    if (!response.ok) throw await errorOf(response);
    if (response.status === 204) return undefined as T;
    return (await response.json()) as T;
  }
}
