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
-- number there. Each process refreshes seen_at of its rows on a heartbeat; rows of a process that
-- died stop being refreshed and expire.
CREATE TABLE live_presence (
  instance_id uuid NOT NULL,
  peer_id integer NOT NULL,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  clip_id text NOT NULL,
  username text NOT NULL,
  seen_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (instance_id, peer_id)
);
CREATE INDEX live_presence_project ON live_presence (project_id);
CREATE INDEX live_presence_seen ON live_presence (seen_at);
