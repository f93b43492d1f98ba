import { describe, expect, it } from 'vitest';
import { PASSWORD_MAX, USERNAME_MAX, checkPassword, checkProjectName, checkUsername } from './validation';

const message = (c: { ok: boolean; message?: string }) => (c.ok ? null : c.message);

describe('what people type', () => {
  it('accepts plain usernames and explains what is wrong with others', () => {
    for (const ok of ['ana', 'Bo', 'j.doe', 'lab_42', 'x-y']) expect(checkUsername(ok)).toEqual({ ok: true, value: ok });
    expect(message(checkUsername(''))).toBe('a username is required');
    expect(message(checkUsername('a'.repeat(USERNAME_MAX + 1)))).toBe(`a username has at most ${USERNAME_MAX} characters`);
    for (const bad of ['a', '.ana', 'ana smith', "x'; DROP TABLE users; --", 'ana\u0000', 'ünï', '../etc']) expect(message(checkUsername(bad))).toMatch(/letters, digits/);
    expect(message(checkUsername(42))).toBe('a username is required');
  });

  it('asks for passwords of a sensible length', () => {
    expect(checkPassword('ten chars!').ok).toBe(true);
    expect(message(checkPassword('short'))).toBe('a password has at least 10 characters');
    expect(message(checkPassword('p'.repeat(PASSWORD_MAX + 1)))).toBe(`a password has at most ${PASSWORD_MAX} characters`);
    expect(message(checkPassword(undefined))).toBe('a password is required');
  });

  it('keeps any project name as text, trimmed, but refuses empty, huge and control characters', () => {
    expect(checkProjectName("  Kitchen '; DROP TABLE projects; --  ")).toEqual({ ok: true, value: "Kitchen '; DROP TABLE projects; --" });
    expect(message(checkProjectName('   '))).toBe('a project name is required');
    expect(message(checkProjectName('n'.repeat(121)))).toBe('a project name has at most 120 characters');
    expect(message(checkProjectName('a\nb'))).toBe('a project name cannot contain control characters');
  });
});
