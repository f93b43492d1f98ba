-- Accounts. Usernames are unique without regard to case, so "Ana" and "ana" cannot both exist.
-- password_hash is self-describing (scheme, parameters, salt, hash: server/auth/passwords.ts).
CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  username text NOT NULL,
  password_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  disabled boolean NOT NULL DEFAULT false
);
CREATE UNIQUE INDEX users_username_lower ON users (lower(username));
