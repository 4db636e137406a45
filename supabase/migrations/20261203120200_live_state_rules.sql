-- The live row refuses at the save what the server would refuse, for every rule the database can
-- know by itself, so that the table editor answers at once: each constraint's name says its rule.
-- The server still checks every value, with the rules only the content file knows as well (the
-- event's date and times, the origins the page lets frames come from): docs/event-team.md,
-- "From a phone". An empty or blank field is empty, as the server reads it. The default language's
-- column is notice_de, the shipped content's; an event whose default language is another changes
-- the two constraints that name it.
-- A language added to the content file needs, beside its column (20261126120000_live_state.sql)
-- and its history column (20261203120000_live_state_history.sql), its two constraints:
--   alter table public.live_state
--     add constraint "notice_<code> has at most 200 characters" check (public.live_state_length(notice_<code>) <= 200),
--     add constraint "notice_<code> needs a notice_level" check (not public.live_state_filled(notice_<code>) or public.live_state_filled(notice_level));

-- A value as the server reads it: without the white space JavaScript's String.prototype.trim()
-- takes off (Unicode's spaces and line ends, not only ASCII's).
create function public.live_state_trimmed(value text) returns text
language sql
immutable
set search_path = ''
return pg_catalog.regexp_replace(
  value,
  '^[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+|[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+$',
  '',
  'g'
);

-- Filled in: neither NULL nor blank.
create function public.live_state_filled(value text) returns boolean
language sql
immutable
set search_path = ''
return coalesce(public.live_state_trimmed(value), '') <> '';

-- A text's length as the server counts it: characters (code points) once trimmed.
create function public.live_state_length(value text) returns integer
language sql
immutable
set search_path = ''
return pg_catalog.char_length(coalesce(public.live_state_trimmed(value), ''));

-- A time on the event's clock as the server reads it: 18:15, or with a date, 2027-03-18T18:15.
create function public.live_state_is_time(value text) returns boolean
language sql
immutable
set search_path = ''
return public.live_state_trimmed(value) ~ '^([0-9]{4}-[0-9]{2}-[0-9]{2}T)?([01][0-9]|2[0-3]):[0-5][0-9]$';

-- The time of the day of such a time: its last five characters.
create function public.live_state_time_of_day(value text) returns text
language sql
immutable
set search_path = ''
return pg_catalog.right(public.live_state_trimmed(value), 5);

revoke all on function public.live_state_trimmed(text) from public, anon, authenticated;
revoke all on function public.live_state_filled(text) from public, anon, authenticated;
revoke all on function public.live_state_length(text) from public, anon, authenticated;
revoke all on function public.live_state_is_time(text) from public, anon, authenticated;
revoke all on function public.live_state_time_of_day(text) from public, anon, authenticated;

-- A row saved before these rules may hold a value they refuse: that part is emptied (a notice whole,
-- the day's times both), the row's earlier state is kept in live_state_history by the save, and a
-- warning names what was emptied. The server refused such a row whole, so the page showed the
-- last good state; now it shows the row without the refused part.
do $$
declare
  notice_refused boolean;
  status_refused boolean;
  times_refused boolean;
  stream_refused boolean;
begin
  select
    coalesce(
      (public.live_state_filled(notice_level) and notice_level not in ('info', 'warning'))
        or public.live_state_length(notice_de) > 200
        or public.live_state_length(notice_en) > 200
        or public.live_state_length(notice_es) > 200
        or public.live_state_filled(notice_level) <> public.live_state_filled(notice_de)
        or ((public.live_state_filled(notice_en) or public.live_state_filled(notice_es))
            and not public.live_state_filled(notice_level)),
      false),
    coalesce(
      public.live_state_filled(status)
        and status not in ('EventScheduled', 'EventCancelled', 'EventPostponed', 'EventRescheduled', 'EventMovedOnline'),
      false),
    coalesce(
      (public.live_state_filled(start_time) and not public.live_state_is_time(start_time))
        or (public.live_state_filled(end_time) and not public.live_state_is_time(end_time))
        or (public.live_state_is_time(start_time) and public.live_state_is_time(end_time)
            and public.live_state_time_of_day(end_time) <= public.live_state_time_of_day(start_time)),
      false),
    coalesce(public.live_state_filled(stream_embed_url) and stream_embed_url !~* '^https://', false)
  into notice_refused, status_refused, times_refused, stream_refused
  from public.live_state;

  if not (notice_refused or status_refused or times_refused or stream_refused) then
    return;
  end if;
  update public.live_state set
    notice_level = case when notice_refused then null else notice_level end,
    notice_de = case when notice_refused then null else notice_de end,
    notice_en = case when notice_refused then null else notice_en end,
    notice_es = case when notice_refused then null else notice_es end,
    status = case when status_refused then null else status end,
    start_time = case when times_refused then null else start_time end,
    end_time = case when times_refused then null else end_time end,
    stream_embed_url = case when stream_refused then null else stream_embed_url end;
  raise warning 'live_state: emptied what the new rules refuse (%); its earlier values are in live_state_history',
    concat_ws(', ',
      case when notice_refused then 'the notice' end,
      case when status_refused then 'status' end,
      case when times_refused then 'start_time and end_time' end,
      case when stream_refused then 'stream_embed_url' end);
end;
$$;

alter table public.live_state
  add constraint "notice_level is info or warning"
    check (not public.live_state_filled(notice_level) or notice_level in ('info', 'warning')),
  add constraint "notice_level needs a notice_de text"
    check (not public.live_state_filled(notice_level) or public.live_state_filled(notice_de)),
  add constraint "notice_de has at most 200 characters" check (public.live_state_length(notice_de) <= 200),
  add constraint "notice_en has at most 200 characters" check (public.live_state_length(notice_en) <= 200),
  add constraint "notice_es has at most 200 characters" check (public.live_state_length(notice_es) <= 200),
  add constraint "notice_de needs a notice_level"
    check (not public.live_state_filled(notice_de) or public.live_state_filled(notice_level)),
  add constraint "notice_en needs a notice_level"
    check (not public.live_state_filled(notice_en) or public.live_state_filled(notice_level)),
  add constraint "notice_es needs a notice_level"
    check (not public.live_state_filled(notice_es) or public.live_state_filled(notice_level)),
  add constraint "status is one of the five event statuses"
    check (
      not public.live_state_filled(status)
      or status in ('EventScheduled', 'EventCancelled', 'EventPostponed', 'EventRescheduled', 'EventMovedOnline')
    ),
  add constraint "start_time is a time like 18:15"
    check (not public.live_state_filled(start_time) or public.live_state_is_time(start_time)),
  add constraint "end_time is a time like 21:30"
    check (not public.live_state_filled(end_time) or public.live_state_is_time(end_time)),
  add constraint "end_time is later than start_time"
    check (
      not (public.live_state_is_time(start_time) and public.live_state_is_time(end_time))
      or public.live_state_time_of_day(end_time) > public.live_state_time_of_day(start_time)
    ),
  add constraint "stream_embed_url is an https:// address"
    check (not public.live_state_filled(stream_embed_url) or stream_embed_url ~* '^https://');

comment on column public.live_state.notice_level is 'info, or warning to stand out; needs a notice_de text; empty with every text: no notice';
comment on column public.live_state.notice_de is 'The notice in German (the default language, required with a notice), at most 200 characters; needs a notice_level';
comment on column public.live_state.notice_en is 'The notice in English, at most 200 characters; needs a notice_level; empty: the German text is shown';
comment on column public.live_state.notice_es is 'The notice in Spanish, at most 200 characters; needs a notice_level; empty: the German text is shown';
comment on column public.live_state.start_time is 'The start on the day, like 18:15 on the event''s clock (a delay), or with its date, like 2027-03-18T18:15; empty: the content file''s';
comment on column public.live_state.end_time is 'The end on the day, like 21:30 on the event''s clock, later than start_time; empty: the content file''s';
