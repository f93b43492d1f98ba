-- Invite links: whoever signs in with one joins the project with its role, once, before it expires.
CREATE TABLE invites (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  token_hash text NOT NULL UNIQUE,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('manager', 'annotator', 'reviewer')),
  created_by uuid NOT NULL REFERENCES users (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_by uuid REFERENCES users (id),
  used_at timestamptz
);
CREATE INDEX invites_project ON invites (project_id);
