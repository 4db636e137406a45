-- A backup stream on the day: the player address the page shows in place of the content file's
-- video while it is filled in. The server checks it as it checks the content file's
-- video.embedUrl, and refuses an origin the page's Content-Security-Policy (fixed at start from
-- the content file) does not allow frames from (docs/event-team.md, "Switching to a backup
-- stream"); so the column is plain text here, as the notice's are.

alter table public.live_state add column stream_embed_url text;

comment on column public.live_state.stream_embed_url is 'A backup stream''s player address, such as https://www.youtube-nocookie.com/embed/<id>, from an origin the content file''s frames come from; empty: the content file''s video';

-- A new column brings no grants of its own (default privileges apply to new tables, not columns):
-- anon's one right, select on the table, covers it, and it may change it no more than the rest.
