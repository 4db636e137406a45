-- The live state the event team edits on the day in Supabase's table editor: one row (id 1) with
-- the notice's level, its text per language (a column each, one plain field on a phone) and the
-- event's status. The site reads it with the anon key; the server checks every value with the
-- live file's rules (docs/event-team.md, "On the day"), so the columns are plain text here.
-- A language added to the content file needs its column: alter table public.live_state add column notice_<code> text;

create table public.live_state (
  id smallint primary key default 1 check (id = 1),
  notice_level text,
  notice_de text,
  notice_en text,
  notice_es text,
  status text,
  updated_at timestamptz not null default now()
);

comment on table public.live_state is 'The live notice and status the site shows: one row, id 1. Leave a field empty to take its part down.';
comment on column public.live_state.notice_level is 'info, or warning to stand out; empty with every text: no notice';
comment on column public.live_state.notice_de is 'The notice in German (the default language, required with a notice), at most 200 characters';
comment on column public.live_state.notice_en is 'The notice in English, at most 200 characters; empty: the German text is shown';
comment on column public.live_state.notice_es is 'The notice in Spanish, at most 200 characters; empty: the German text is shown';
comment on column public.live_state.status is 'EventScheduled, EventCancelled, EventPostponed, EventRescheduled or EventMovedOnline; empty: the content file''s';
comment on column public.live_state.updated_at is 'When the row was last saved; kept by a trigger';

-- Every save stamps the row, whoever makes it and whatever it sets updated_at to.
create function public.live_state_stamp() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end;
$$;

create trigger live_state_stamp
before update on public.live_state
for each row execute function public.live_state_stamp();

-- The site reads with the anon key and may do nothing else. Supabase's default privileges grant
-- every new table in public to anon and authenticated: taken back first.
alter table public.live_state enable row level security;
revoke all on table public.live_state from anon, authenticated;
grant select on table public.live_state to anon;
create policy "the site reads the live state" on public.live_state for select to anon using (true);

insert into public.live_state (id) values (1);
