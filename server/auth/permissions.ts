/**
 * Who may do what in a project, as pure functions of roles: the HTTP routes ask these, and the sync
 * code will ask the same ones, so a rule lives in exactly one place. docs/server.md has the table.
 */

export const ROLES = ['manager', 'annotator', 'reviewer'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** null: not a member. */
export type Membership = Role | null;

export const canSeeProject = (role: Membership): boolean => role !== null;
export const canManageMembers = (role: Membership): boolean => role === 'manager';
export const canInvite = (role: Membership): boolean => role === 'manager';
export const canReadAuditLog = (role: Membership): boolean => role === 'manager';

export type MemberChange = { kind: 'set-role'; from: Role; to: Role } | { kind: 'remove'; from: Role };

/**
 * A member change that would leave a project without any manager is refused: nobody could add
 * people or fix roles any more. managerCount is the number of managers before the change.
 */
export function leavesAManager(change: MemberChange, managerCount: number): boolean {
  if (change.from !== 'manager') return true;
  if (change.kind === 'set-role' && change.to === 'manager') return true;
  return managerCount > 1;
}
