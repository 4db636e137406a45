-- The broadcast's recording, named on the day once the provider has it: its player address, which
-- the page shows in the stream's place after the end, and, where the recording was trimmed, the
-- moment of the broadcast it begins at (0:04:30). The server checks the address as it checks a
-- backup stream's (an origin the page's Content-Security-Policy allows frames from, which only the
-- content file knows) and the moment against the day's times (docs/event-team.md, "After the
-- broadcast: the recording"); the constraints below refuse at the save what the database can know.
-- A server of an earlier release leaves the two columns out with a warning, so this may be applied
-- before the release that reads them.

alter table public.live_state
  add column recording_embed_url text,
  add column recording_begins_at text;

-- Kept with every save, as the other columns are (20261203120000_live_state_history.sql).
alter table public.live_state_history
  add column recording_embed_url text,
  add column recording_begins_at text;

alter table public.live_state
  add constraint "recording_embed_url is an https:// address"
    check (not public.live_state_filled(recording_embed_url) or recording_embed_url ~* '^https://'),
  add constraint "recording_begins_at is a moment like 0:04:30"
    check (
      not public.live_state_filled(recording_begins_at)
      or public.live_state_trimmed(recording_begins_at) ~ '^([0-9]{1,2}:)?[0-5]?[0-9]:[0-5][0-9]$'
    ),
  add constraint "recording_begins_at needs a recording_embed_url"
    check (not public.live_state_filled(recording_begins_at) or public.live_state_filled(recording_embed_url));

comment on column public.live_state.recording_embed_url is 'The recording''s player address, such as https://www.youtube-nocookie.com/embed/<id>, from an origin the content file''s frames come from; shown once the broadcast has ended; empty: no recording yet';
comment on column public.live_state.recording_begins_at is 'Where the recording was trimmed: the moment of the broadcast it begins at, like 0:04:30; empty: at the start';

-- New columns bring no grants of their own: anon's one right, select on the table, covers them.
