-- Every save of the live row kept: each state the row was saved in, when and by whom, so that the
-- event team can see what the page said ten minutes ago and put it back
-- (docs/event-team.md, "Putting an earlier state back"). Written by a trigger; the site's anon key
-- reads none of it.
-- A language added to the content file needs its column here too:
--   alter table public.live_state_history add column notice_<code> text;
-- The trigger copies every column the two tables share, so it needs nothing else.

create table public.live_state_history (
  id bigint generated always as identity primary key,
  saved_at timestamptz not null,
  saved_by text not null,
  saved_for text,
  notice_level text,
  notice_de text,
  notice_en text,
  notice_es text,
  status text,
  start_time text,
  end_time text,
  stream_embed_url text
);

comment on table public.live_state_history is 'Every state live_state was saved in, the newest last. To put one back: select public.live_state_put_back(<id>);';
comment on column public.live_state_history.saved_at is 'When the row was saved in this state (its updated_at)';
comment on column public.live_state_history.saved_by is 'The database role that saved it: postgres for the dashboard''s table editor';
comment on column public.live_state_history.saved_for is 'The signed-in user a request through the API named (its token''s email, else its subject); empty for the dashboard, which names none';

-- The columns the row and its history share (the row's values), each written out by `form`, in
-- the history's order: a language's column added to both later is copied without a change here.
create function public.live_state_shared_columns(form text) returns text
language sql
stable
set search_path = ''
return (
  select pg_catalog.string_agg(pg_catalog.format(form, kept.attname), ', ' order by kept.attnum)
    from pg_catalog.pg_attribute kept
    join pg_catalog.pg_attribute live
      on live.attrelid = 'public.live_state'::pg_catalog.regclass and live.attname = kept.attname
         and live.attnum > 0 and not live.attisdropped
   where kept.attrelid = 'public.live_state_history'::pg_catalog.regclass and kept.attnum > 0
     and not kept.attisdropped and kept.attname not in ('id', 'saved_at', 'saved_by', 'saved_for')
);

-- After the row's own stamp (live_state_stamp, before the update), so saved_at is its updated_at.
create function public.live_state_keep() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  claims jsonb := nullif(current_setting('request.jwt.claims', true), '')::jsonb;
  shared text;
begin
  shared := public.live_state_shared_columns('%I');
  execute format(
    'insert into public.live_state_history (saved_at, saved_by, saved_for, %1$s) select $1, $2, $3, %1$s from (select ($4::public.live_state).*) saved',
    shared
  ) using new.updated_at, current_user::text, coalesce(claims ->> 'email', claims ->> 'sub'), new;
  return null;
end;
$$;

create trigger live_state_keep
after insert or update on public.live_state
for each row execute function public.live_state_keep();

-- Puts the row back in the state of an earlier save: every column the two tables share. The save
-- that does it is kept in its turn, so putting back can itself be undone.
create function public.live_state_put_back(save bigint) returns void
language plpgsql
set search_path = ''
as $$
declare
  assignments text;
begin
  if not exists (select 1 from public.live_state_history where id = save) then
    raise exception 'live_state_history has no save %', save
      using hint = 'The id is the first column of live_state_history.';
  end if;
  assignments := public.live_state_shared_columns('%1$I = earlier.%1$I');
  execute format(
    'update public.live_state set %s from public.live_state_history earlier where live_state.id = 1 and earlier.id = $1',
    assignments
  ) using save;
end;
$$;

-- The site's keys get none of it: Supabase's default privileges grant every new table and function
-- in public to anon and authenticated, and functions to public as well.
alter table public.live_state_history enable row level security;
revoke all on table public.live_state_history from anon, authenticated;
revoke all on function public.live_state_shared_columns(text) from public, anon, authenticated;
revoke all on function public.live_state_keep() from public, anon, authenticated;
revoke all on function public.live_state_put_back(bigint) from public, anon, authenticated;

-- The row as it stands, as the first save kept.
insert into public.live_state_history
  (saved_at, saved_by, saved_for, notice_level, notice_de, notice_en, notice_es, status, start_time, end_time, stream_embed_url)
select updated_at, current_user::text, null, notice_level, notice_de, notice_en, notice_es, status, start_time, end_time, stream_embed_url
  from public.live_state;
