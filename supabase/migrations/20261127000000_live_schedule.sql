-- The day's times in the live state: a delay, a longer broadcast, an early end. Plain text, like
-- the row's other columns: the server checks each value with the live file's rules (a time such as
-- 18:15 on the event's clock, on the content file's day, the end later than the start).

alter table public.live_state
  add column start_time text,
  add column end_time text;

comment on column public.live_state.start_time is 'The start on the day, like 18:15 on the event''s clock (a delay); empty: the content file''s';
comment on column public.live_state.end_time is 'The end on the day, like 21:30 on the event''s clock (a longer broadcast, an early end); empty: the content file''s';
