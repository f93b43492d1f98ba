-- State that several server processes on one database must share (docs/server.md "Several processes").
--
-- Sign-in lockout (server/auth/signInLimiter.ts): one row per counted key, 'u:<lowercased username>'
-- or 'a:<client address>', with the attempts counted since its window started. Each sign-in attempt
-- is one upsert of both keys; a good sign-in takes its attempt back. Old windows are swept.
CREATE TABLE sign_in_windows (
  key text PRIMARY KEY,
  attempts integer NOT NULL CHECK (attempts >= 0),
  window_start timestamptz NOT NULL
);
CREATE INDEX sign_in_windows_start ON sign_in_windows (window_start);

-- Presence (server/sync/presence.ts): who has which clip open, one row per live socket with a clip
-- open, named by the server process holding the socket (a random id per process) and that socket's
-- number there. Each process moves its rows' expires_at ahead on a heartbeat; rows of a process that
-- died stop being refreshed, expire and are swept by any other. Each row carries its own expiry, so
-- processes with different timings do not expire each other's rows early.
CREATE TABLE live_presence (
  instance_id uuid NOT NULL,
  peer_id integer NOT NULL,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  clip_id text NOT NULL,
  username text NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (instance_id, peer_id)
);
CREATE INDEX live_presence_project ON live_presence (project_id);
CREATE INDEX live_presence_expires ON live_presence (expires_at);
