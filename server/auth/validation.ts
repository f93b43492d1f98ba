/** Rules for what people type: usernames, passwords, project names. Messages say what is allowed. */

export const USERNAME_MAX = 40;
export const PASSWORD_MIN = 10;
/** scrypt takes any length, but a cap keeps a megabyte "password" from being hashed at all. */
export const PASSWORD_MAX = 256;
export const PROJECT_NAME_MAX = 120;

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

export function checkUsername(raw: unknown): Checked<string> {
  if (typeof raw !== 'string' || raw.length === 0) return { ok: false, message: 'a username is required' };
  if (raw.length > USERNAME_MAX) return { ok: false, message: `a username has at most ${USERNAME_MAX} characters` };
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(raw) || raw.length < 2) {
    return { ok: false, message: 'a username has 2 or more characters: letters, digits, ".", "_" or "-", starting with a letter or digit' };
  }
  return { ok: true, value: raw };
}

export function checkPassword(raw: unknown): Checked<string> {
  if (typeof raw !== 'string' || raw.length === 0) return { ok: false, message: 'a password is required' };
  if (raw.length < PASSWORD_MIN) return { ok: false, message: `a password has at least ${PASSWORD_MIN} characters` };
  if (raw.length > PASSWORD_MAX) return { ok: false, message: `a password has at most ${PASSWORD_MAX} characters` };
  return { ok: true, value: raw };
}

/** Any text is a fine name (it is stored as given and only ever sent as a query parameter), but not empty, huge or control characters. */
export function checkProjectName(raw: unknown): Checked<string> {
  if (typeof raw !== 'string') return { ok: false, message: 'a project name is required' };
  const name = raw.trim();
  if (name.length === 0) return { ok: false, message: 'a project name is required' };
  if (name.length > PROJECT_NAME_MAX) return { ok: false, message: `a project name has at most ${PROJECT_NAME_MAX} characters` };
  // eslint-disable-next-line no-control-regex -- the point is to find control characters
  if (/[\u0000-\u001f\u007f]/.test(name)) return { ok: false, message: 'a project name cannot contain control characters' };
  return { ok: true, value: name };
}
