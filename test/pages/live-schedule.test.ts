import request from 'supertest';
import type { RequestListener } from 'node:http';
import { describe, expect, it } from 'vitest';
import { checkLiveText } from '../../server/content/live-file.ts';
import { liveRulesOf } from '../../server/content/live-rules.ts';
import { MINUTE_MS } from '../../shared/event-clock.ts';
import { bootstrapOf, testApp } from '../helpers/app.ts';
import { editedContent } from '../helpers/content-file.ts';
import { eventFieldsAt, moveEvent } from '../helpers/event-times.ts';
import { jsonLdOf, parseHtml } from '../helpers/html.ts';
import { parseUtcDateTime, readSingleEvent } from '../helpers/icalendar.ts';
import { changeableLive } from '../helpers/live.ts';
import { dictionary } from '../helpers/render-client.tsx';

/**
 * The day's times in the live state (a delay, a longer broadcast, an early end) stand in for the
 * content file's wherever the page, search engines and calendars read them; the content file stays
 * the plan, named as the previous start.
 */
const START = Date.UTC(2027, 2, 18, 17, 0);
const PLAN = eventFieldsAt(START, 90); // 12:00 to 13:30 on the event's clock
const content = editedContent((file) => moveEvent(file, PLAN, { status: 'EventScheduled' }));
const rules = liveRulesOf(content);

/** The live file's times as the check takes them. */
function liveTimes(times: { startTime?: string; endTime?: string }) {
  const checked = checkLiveText(JSON.stringify(times), rules);
  if (!checked.live) throw new Error(checked.problems.map((problem) => problem.message).join('; '));
  return checked.live;
}

async function appAt(now: number) {
  const live = changeableLive();
  const { app } = await testApp({ content, liveSource: live, now: () => now });
  return { app, live };
}

const landing = async (app: RequestListener, lng: string) => {
  const res = await request(app).get('/').set('Cookie', `selectedLanguage=${lng}`).expect(200);
  return { html: res.text, doc: parseHtml(res.text) };
};
const calendar = async (app: RequestListener) =>
  readSingleEvent(Buffer.from((await request(app).get('/event.ics?lng=en').expect(200)).text)).event;

describe('a delay in the live state', () => {
  it('moves the countdown, the hero’s times and the page’s data to the new start', async () => {
    const { app, live } = await appAt(START - 5 * MINUTE_MS);
    live.set(liveTimes({ startTime: '12:15' }));
    const { doc, html } = await landing(app, 'en');
    const schedule = (await live.get()).schedule!;
    expect(schedule.start).toBe(START + 15 * MINUTE_MS);
    expect(schedule.end).toBe(START + 90 * MINUTE_MS);
    expect(doc.querySelector('.hero')!.getAttribute('data-event-phase')).toBe('before');
    expect(doc.querySelector('[data-testid="countdown"]')!.textContent).toBe(
      dictionary('en').countdown.startsIn.replace(
        '{{duration}}',
        dictionary('en').countdown.minutes_other.replace('{{count}}', '20'),
      ),
    );
    expect(doc.querySelector('.hero__when')!.textContent).toBe(
      `${schedule.display.en!.date} · ${schedule.display.en!.time}`,
    );
    expect(schedule.display.en!.time).toMatch(/12:15/);
    expect(schedule.display.de!.time).toMatch(/12:15/);
    expect(bootstrapOf(html).app.live.schedule).toEqual(schedule);
    expect(bootstrapOf(html).app.clock).toMatchObject({ phase: 'before', changesAt: START - 4 * MINUTE_MS });
  });

  it('is EventRescheduled in the JSON-LD, with the new times and the planned start as the previous one', async () => {
    const { app, live } = await appAt(START - 5 * MINUTE_MS);
    const planned = jsonLdOf((await landing(app, 'de')).html);
    expect(planned).not.toHaveProperty('previousStartDate');
    live.set(liveTimes({ startTime: '12:15', endTime: '13:45' }));
    const jsonLd = jsonLdOf((await landing(app, 'de')).html);
    expect(jsonLd.eventStatus).toBe('https://schema.org/EventRescheduled');
    expect(jsonLd.startDate).toBe(`2027-03-18T12:15:00${offsetOf(PLAN.timeZone)}`);
    expect(jsonLd.endDate).toBe(`2027-03-18T13:45:00${offsetOf(PLAN.timeZone)}`);
    expect(jsonLd.previousStartDate).toBe(`2027-03-18T12:00:00${offsetOf(PLAN.timeZone)}`);
    // The programme a quarter of an hour later with the start, each segment where the next begins.
    const startsOf = (subEvents: { startDate: string }[]) => subEvents.map(({ startDate }) => Date.parse(startDate));
    expect(startsOf(jsonLd.subEvent)).toEqual(startsOf(planned.subEvent).map((start) => start + 15 * MINUTE_MS));
  });

  it('moves the calendar entry, same UID, each revision with a higher SEQUENCE and a later DTSTAMP', async () => {
    const { app, live } = await appAt(START - 5 * MINUTE_MS);
    const planned = await calendar(app);
    live.set(liveTimes({ startTime: '12:15' }));
    const delayed = await calendar(app);
    expect(parseUtcDateTime(delayed.DTSTART!).getTime()).toBe(START + 15 * MINUTE_MS);
    expect(delayed.UID).toBe(planned.UID);
    expect(Number(delayed.SEQUENCE)).toBeGreaterThan(Number(planned.SEQUENCE));
    expect(delayed.DTSTAMP! > planned.DTSTAMP!).toBe(true);
    // Back to the plan is a revision too: never a lower number than the delay's.
    live.set(liveTimes({}));
    const back = await calendar(app);
    expect(parseUtcDateTime(back.DTSTART!).getTime()).toBe(START);
    expect(Number(back.SEQUENCE)).toBeGreaterThan(Number(delayed.SEQUENCE));
  });

  it('gives the same SEQUENCE for the same live state on another replica or after a restart: no counter in memory', async () => {
    const times = liveTimes({ startTime: '12:15' });
    const sequences = [];
    for (let replica = 0; replica < 2; replica++) {
      const { app, live } = await appAt(START - 5 * MINUTE_MS);
      live.set(times);
      sequences.push((await calendar(app)).SEQUENCE);
    }
    // The live state dated a second after LIVE_START, the content file updated 2026-11-01T09:00:00Z.
    const tenths = (Date.parse('2027-03-18T08:00:01Z') - Date.parse(content.event.updated.toISOString())) / 100;
    expect(sequences).toEqual([String(tenths), String(tenths)]);
  });

  it('gives a change made within the same second as the one before a higher SEQUENCE', async () => {
    const { app, live } = await appAt(START - 5 * MINUTE_MS);
    live.set(liveTimes({ startTime: '12:15' }));
    const delayed = await calendar(app);
    live.set(liveTimes({ startTime: '12:15', endTime: '13:00' }), 300);
    const shortened = await calendar(app);
    expect(Math.floor(Date.parse('2027-03-18T08:00:01.300Z') / 1000)).toBe(Date.parse('2027-03-18T08:00:01Z') / 1000);
    expect(Number(shortened.SEQUENCE)).toBeGreaterThan(Number(delayed.SEQUENCE));
  });
});

describe('an end moved in the live state', () => {
  it('closes the broadcast early: the page is over once the new end has passed, not a rescheduled event', async () => {
    const { app, live } = await appAt(START + 30 * MINUTE_MS);
    expect((await landing(app, 'en')).doc.querySelector('.hero')!.getAttribute('data-event-phase')).toBe('live');
    live.set(liveTimes({ endTime: '12:20' }));
    const { doc, html } = await landing(app, 'en');
    expect(doc.querySelector('.hero')!.getAttribute('data-event-phase')).toBe('after');
    expect(doc.querySelector('[role="status"]')!.textContent).toBe(dictionary('en').hero.ended);
    const jsonLd = jsonLdOf(html);
    expect(jsonLd.eventStatus).toBe('https://schema.org/EventScheduled');
    expect(jsonLd).not.toHaveProperty('previousStartDate');
    expect(jsonLd.endDate).toBe(`2027-03-18T12:20:00${offsetOf(PLAN.timeZone)}`);
  });

  it('keeps a longer broadcast live past the planned end', async () => {
    const { app, live } = await appAt(START + 100 * MINUTE_MS);
    expect((await landing(app, 'en')).doc.querySelector('.hero')!.getAttribute('data-event-phase')).toBe('after');
    live.set(liveTimes({ endTime: '14:00' }));
    expect((await landing(app, 'en')).doc.querySelector('.hero')!.getAttribute('data-event-phase')).toBe('live');
  });
});

/** "+05:00" for Etc/GMT-5: the zone eventFieldsAt chose. */
function offsetOf(timeZone: string): string {
  const match = /^Etc\/GMT(?:([+-])(\d+))?$/.exec(timeZone)!;
  const hours = Number(match[2] ?? 0);
  const sign = match[1] === '+' ? '-' : '+';
  return `${sign}${String(hours).padStart(2, '0')}:00`;
}
