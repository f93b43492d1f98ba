-- Who did what, when. user_id is the signed-in user (set by the server, never by a request body);
-- null for administrator commands run on the server machine (spoc-studio user add, …).
CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  user_id uuid REFERENCES users (id),
  action text NOT NULL,
  project_id uuid REFERENCES projects (id) ON DELETE SET NULL,
  details jsonb NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX audit_log_project ON audit_log (project_id, at);
