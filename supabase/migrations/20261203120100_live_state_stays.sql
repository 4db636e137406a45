-- The live row stays: deleting it, or truncating the table, is refused whoever tries, the
-- dashboard's table editor included. A server started without the row would show no live changes
-- while the others kept theirs; to take the day's changes down, empty the fields instead.

-- A row deleted before this migration is made again, empty: no live changes, as a deleted row meant.
insert into public.live_state (id) values (1) on conflict (id) do nothing;

create function public.live_state_stays() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  raise exception 'live_state keeps its one row: empty its fields instead of deleting it'
    using hint = 'An emptied field takes its part down; the row itself must stay for every server to read.';
end;
$$;

create trigger live_state_not_deleted
before delete on public.live_state
for each row execute function public.live_state_stays();

create trigger live_state_not_truncated
before truncate on public.live_state
for each statement execute function public.live_state_stays();

revoke all on function public.live_state_stays() from public, anon, authenticated;
