-- Whether a server's tables and tournaments appear on the public pages (issue 38, docs/web.md "A server off the
-- public pages"): 1 (the default, so every existing server stays public) or 0, set by the server's moderators
-- with /settings public_pages or at the terminal (python -m bot server GUILD --public off).  Off, every page of
-- the server answers 404 as for an id that never existed.
ALTER TABLE guilds ADD COLUMN public INTEGER NOT NULL DEFAULT 1 CHECK (public IN (0, 1));
