/** Projects, members, roles, invites and the audit log over HTTP, on both database backends. */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { onBothBackends } from '../testing/backends';
import { newClient, testServer, type Client } from '../testing/testServer';

onBothBackends((ctx) => {
  let app: FastifyInstance;
  let manager: Client;
  let projectId: string;
  beforeAll(async () => {
    app = await testServer(ctx.db());
    manager = await newClient(app, ctx.db(), 'manager');
    const res = await manager.request('POST', '/api/projects', { name: 'Kitchen clips' });
    projectId = res.json().id;
  });
  afterAll(() => app.close());

  it('makes the creator a manager and lists projects by membership', async () => {
    const other = await newClient(app, ctx.db(), 'other');
    expect((await manager.request('GET', '/api/projects')).json().projects).toEqual([{ id: projectId, name: 'Kitchen clips', role: 'manager', created_at: expect.any(String) }]);
    expect((await other.request('GET', '/api/projects')).json()).toEqual({ projects: [] });
    expect(await ctx.db().query('SELECT name, created_by FROM projects WHERE id = $1', [projectId])).toEqual([{ name: 'Kitchen clips', created_by: manager.user.id }]);
  });

  it('lets a manager add a member, change the role and remove them', async () => {
    const ana = await newClient(app, ctx.db(), 'ana');
    const added = await manager.request('POST', `/api/projects/${projectId}/members`, { username: ana.user.username, role: 'annotator' });
    expect(added.statusCode).toBe(201);
    expect((await ana.request('GET', '/api/projects')).json().projects.map((p: { role: string }) => p.role)).toEqual(['annotator']);
    expect((await manager.request('PUT', `/api/projects/${projectId}/members/${ana.user.id}`, { role: 'reviewer' })).json()).toEqual({ userId: ana.user.id, role: 'reviewer' });
    const members = (await ana.request('GET', `/api/projects/${projectId}/members`)).json().members;
    expect(members).toContainEqual({ user_id: ana.user.id, username: ana.user.username, role: 'reviewer' });
    expect((await manager.request('DELETE', `/api/projects/${projectId}/members/${ana.user.id}`)).statusCode).toBe(204);
    expect((await ana.request('GET', `/api/projects/${projectId}/members`)).statusCode).toBe(404);
    expect((await manager.request('POST', `/api/projects/${projectId}/members`, { username: 'no-such-user', role: 'annotator' })).json()).toEqual({ error: 'there is no user "no-such-user"' });
  });

  it('refuses to add someone twice, and to leave a project without a manager', async () => {
    const bo = await newClient(app, ctx.db(), 'bo');
    await manager.request('POST', `/api/projects/${projectId}/members`, { username: bo.user.username, role: 'annotator' });
    const again = await manager.request('POST', `/api/projects/${projectId}/members`, { username: bo.user.username, role: 'reviewer' });
    expect([again.statusCode, again.json().error]).toEqual([409, `${bo.user.username} is already a member`]);
    const demoteSelf = await manager.request('PUT', `/api/projects/${projectId}/members/${manager.user.id}`, { role: 'annotator' });
    expect([demoteSelf.statusCode, demoteSelf.json().error]).toEqual([409, 'a project keeps at least one manager']);
    expect((await manager.request('DELETE', `/api/projects/${projectId}/members/${manager.user.id}`)).statusCode).toBe(409);
    // With a second manager, the first may step down.
    await manager.request('PUT', `/api/projects/${projectId}/members/${bo.user.id}`, { role: 'manager' });
    expect((await manager.request('PUT', `/api/projects/${projectId}/members/${manager.user.id}`, { role: 'reviewer' })).statusCode).toBe(200);
    expect((await bo.request('PUT', `/api/projects/${projectId}/members/${manager.user.id}`, { role: 'manager' })).statusCode).toBe(200);
  });

  it('turns an invite link into a membership with its role, once', async () => {
    const invite = await manager.request('POST', `/api/projects/${projectId}/invites`, { role: 'reviewer', expiresInHours: 2 });
    expect(invite.statusCode).toBe(201);
    const { token, path, expiresAt } = invite.json();
    expect(path).toBe(`/invite/${token}`);
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(7_000_000);
    const cy = await newClient(app, ctx.db(), 'cy');
    const accepted = await cy.request('POST', '/api/invites/accept', { token });
    expect(accepted.json()).toEqual({ projectId, role: 'reviewer' });
    expect(await ctx.db().query('SELECT role FROM project_members WHERE project_id = $1 AND user_id = $2', [projectId, cy.user.id])).toEqual([{ role: 'reviewer' }]);
    expect(await ctx.db().query('SELECT used_by FROM invites WHERE project_id = $1', [projectId])).toEqual([{ used_by: cy.user.id }]);
  });

  it('writes every change to the audit log under the signed-in user', async () => {
    const res = await manager.request('GET', `/api/projects/${projectId}/audit`);
    const entries: { username: string; action: string }[] = res.json().entries;
    const actions = entries.map((e) => e.action).reverse();
    expect(actions.slice(0, 3)).toEqual(['project.create', 'member.add', 'member.role']);
    expect(actions).toContain('member.remove');
    expect(actions).toContain('invite.create');
    expect(actions.at(-1)).toBe('invite.accept');
    const byAction = (action: string) => entries.find((e) => e.action === action)!.username;
    expect(byAction('project.create')).toBe(manager.user.username);
    expect(byAction('invite.accept')).toMatch(/^cy/);
  });
});
