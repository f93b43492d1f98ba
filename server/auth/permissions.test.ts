import { describe, expect, it } from 'vitest';
import { ROLES, canInvite, canManageMembers, canReadAuditLog, canSeeProject, isRole, leavesAManager, type Membership } from './permissions';

describe('project permissions', () => {
  const table: [Membership, { see: boolean; manage: boolean; invite: boolean; audit: boolean }][] = [
    ['manager', { see: true, manage: true, invite: true, audit: true }],
    ['annotator', { see: true, manage: false, invite: false, audit: false }],
    ['reviewer', { see: true, manage: false, invite: false, audit: false }],
    [null, { see: false, manage: false, invite: false, audit: false }],
  ];
  it.each(table)('%s', (role, expected) => {
    expect({ see: canSeeProject(role), manage: canManageMembers(role), invite: canInvite(role), audit: canReadAuditLog(role) }).toEqual(expected);
  });

  it('knows exactly the three roles', () => {
    expect(ROLES).toEqual(['manager', 'annotator', 'reviewer']);
    expect(ROLES.every(isRole)).toBe(true);
    for (const bad of ['Manager', 'admin', '', "manager' OR '1'='1", null, 3]) expect(isRole(bad)).toBe(false);
  });

  it('never leaves a project without a manager', () => {
    expect(leavesAManager({ kind: 'remove', from: 'manager' }, 1)).toBe(false);
    expect(leavesAManager({ kind: 'set-role', from: 'manager', to: 'reviewer' }, 1)).toBe(false);
    expect(leavesAManager({ kind: 'remove', from: 'manager' }, 2)).toBe(true);
    expect(leavesAManager({ kind: 'set-role', from: 'manager', to: 'manager' }, 1)).toBe(true);
    expect(leavesAManager({ kind: 'remove', from: 'annotator' }, 1)).toBe(true);
    expect(leavesAManager({ kind: 'set-role', from: 'reviewer', to: 'annotator' }, 1)).toBe(true);
  });
});
