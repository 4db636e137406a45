import request from 'supertest';
import type { RequestListener } from 'node:http';
import { describe, expect, it } from 'vitest';
import { HOUR_MS, MINUTE_MS, type EventStatus } from '../../shared/event-clock.ts';
import { LANGUAGES, type SampleLanguage } from '../helpers/languages.ts';
import { bootstrapOf, testApp } from '../helpers/app.ts';
import { editedContent } from '../helpers/content-file.ts';
import { eventFieldsAt, moveEvent } from '../helpers/event-times.ts';
import { jsonLdOf, parseHtml } from '../helpers/html.ts';
import { readSingleEvent } from '../helpers/icalendar.ts';
import { dictionary } from '../helpers/render-client.tsx';

/**
 * The page says what `event.status` says: a cancelled or postponed event shows so, in the page's
 * language, with no countdown, no "Live now" and no calendar link at any time; the structured
 * data and the calendar file keep the status as they did.
 */

const START = Date.UTC(2027, 2, 18, 17, 0);
const END = START + 90 * MINUTE_MS;
const RECORDING = 'https://video.example.com/horizon-live-replay';

async function appAt(now: number, status: EventStatus): Promise<RequestListener> {
  const content = editedContent((file) =>
    moveEvent(file, eventFieldsAt(START, 90), { status, recordingUrl: RECORDING }),
  );
  const { app } = await testApp({ content, now: () => now });
  return app;
}

const landing = async (app: RequestListener, lng: SampleLanguage) => {
  const res = await request(app).get('/').set('Cookie', `selectedLanguage=${lng}`).expect(200);
  return { html: res.text, doc: parseHtml(res.text) };
};

const MOMENTS = [
  ['two days before', START - 48 * HOUR_MS],
  ['a minute before', START - MINUTE_MS],
  ['during the old times', START + MINUTE_MS],
  ['after them', END + HOUR_MS],
] as const;

describe.each([
  ['EventCancelled', 'cancelled'],
  ['EventPostponed', 'postponed'],
] as const)('an event with status %s', (status, phase) => {
  describe.each(LANGUAGES)('in %s', (lng) => {
    it.each(MOMENTS)('%s: says so, with no countdown, nothing live, no calendar and no recording', async (_, now) => {
      const { doc, html } = await landing(await appAt(now, status), lng);
      const hero = doc.querySelector('.hero')!;
      expect(hero.getAttribute('data-event-phase')).toBe(phase);
      expect(doc.querySelector('.hero__status[role="status"]')!.textContent).toBe(dictionary(lng).hero[phase]);
      expect(doc.querySelector('[data-testid="countdown"]')).toBeNull();
      expect(doc.querySelector('.hero__live')).toBeNull();
      expect(doc.querySelector('a[href^="/event.ics"]')).toBeNull();
      expect(doc.querySelector('.hero__recording')).toBeNull();
      // The browser starts from the same standing clock.
      expect(bootstrapOf(html).app.clock).toEqual({ phase, countdown: null, changesAt: null });
    });
  });

  it('keeps its status in the structured data and the calendar file', async () => {
    const app = await appAt(START - HOUR_MS, status);
    const { html } = await landing(app, 'en');
    expect(jsonLdOf(html).eventStatus).toBe(`https://schema.org/${status}`);
    const calendar = await request(app).get('/event.ics').expect(200);
    expect(readSingleEvent(Buffer.from(calendar.text)).event.STATUS).toBe(
      { EventCancelled: 'CANCELLED', EventPostponed: 'TENTATIVE' }[status],
    );
  });
});

describe.each(['EventScheduled', 'EventRescheduled', 'EventMovedOnline'] as const)(
  'an event with status %s',
  (status) => {
    it('counts down to its times and offers the calendar', async () => {
      const { doc } = await landing(await appAt(START - 2 * HOUR_MS, status), 'en');
      expect(doc.querySelector('.hero')!.getAttribute('data-event-phase')).toBe('before');
      expect(doc.querySelector('[data-testid="countdown"]')!.textContent).toBe('Starts in 2 h');
      expect(doc.querySelector('a[href^="/event.ics"]')).not.toBeNull();
    });
  },
);
