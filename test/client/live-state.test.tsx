// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LiveState } from '../../shared/live-state.ts';
import { content, dictionary, renderApp } from '../helpers/render-client.tsx';
import { liveState, serveLiveStates } from '../helpers/live-answers.ts';

/**
 * An open page takes a new live state in place: the notice and the hero's status change in the
 * same document, the nodes around them kept, a later notice in the polite region at the page's
 * end and the rendered one's room kept at the top.
 */
const RENDERED = liveState('a', '2027-03-18T08:00:00.000Z');
const POSTED = liveState('b', '2027-03-18T08:05:00.000Z', {
  notice: { level: 'warning', text: { de: 'Beginn um 18:15', en: 'Starts at 18:15' } },
  status: 'EventPostponed',
});
const TAKEN_DOWN: LiveState = { ...POSTED, version: 'c', updated: '2027-03-18T08:10:00.000Z', notice: null };
const en = dictionary('en');

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
const shownNotice = () => document.querySelector('[data-testid="live-notice"]');
const region = () => document.querySelector('.page > .live-notice-bar > .live-notice-region[aria-live="polite"]')!;
const closeButton = () => document.querySelector<HTMLButtonElement>('.live-notice-bar > button.live-notice-bar__close');
const slot = () => document.querySelector('.page > .live-notice-slot');

beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(Math, 'random').mockReturnValue(0.999);
  vi.setSystemTime(Date.UTC(2027, 2, 1));
  localStorage.clear();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('an open page following the live state', () => {
  it('shows a notice that comes later at the page’s end, and the new status, in place', async () => {
    const fetchLive = serveLiveStates(POSTED, 304, TAKEN_DOWN);
    // The head's description as the server writes it, the only one (another file's document may have left its own).
    document.head.querySelectorAll('meta[name="description"]').forEach((meta) => meta.remove());
    const description = document.head.appendChild(document.createElement('meta'));
    description.setAttribute('name', 'description');
    const { root } = renderApp({ language: 'en', live: RENDERED, livePollSeconds: 30 });
    expect(description.getAttribute('content')).toBe(
      en.meta.description.replace('$t(product)', en.product).replace('{{cities}}', content.public.cityList.en!),
    );
    const title = document.querySelector('.hero__title');
    await advance(29_000);
    expect(fetchLive).not.toHaveBeenCalled();
    expect(region().textContent).toBe('');

    await advance(1000);
    expect(fetchLive).toHaveBeenCalledTimes(1);
    expect(shownNotice()!.textContent).toBe(`${en.liveNotice.warning} Starts at 18:15`);
    expect(region().contains(shownNotice())).toBe(true);
    expect(slot()).toBeNull();
    expect(document.querySelector('.hero')!.getAttribute('data-event-phase')).toBe('postponed');
    expect(document.querySelector('.hero__status')!.textContent).toBe(en.hero.postponed);
    expect(document.querySelector('.hero__title')).toBe(title);
    // Every text of the broadcast with it: no stream to play, the section says why, so does the head.
    expect(document.querySelector('[data-testid="stream-intro"]')!.textContent).toBe(en.video.introPostponed);
    expect(document.querySelector('#rsvp .embed-placeholder__load')).toBeNull();
    expect(document.querySelector('#rsvp .embed-placeholder__closed')!.textContent).toBe(en.hero.postponed);
    expect(document.querySelector('.hero__stream')).toBeNull();
    expect(description.getAttribute('content')).toBe(
      en.meta.descriptionPostponed
        .replace('$t(product)', en.product)
        .replace('{{cities}}', content.public.cityList.en!),
    );

    // Nothing new: the same.
    await advance(30_000);
    expect(fetchLive).toHaveBeenCalledTimes(2);
    expect(fetchLive.mock.calls[1]![1]).toEqual({ cache: 'no-store', headers: { 'If-None-Match': '"b"' } });
    expect(shownNotice()).not.toBeNull();

    // Taken down: no notice shown, its room kept at the page's end, hidden from every reader.
    await advance(30_000);
    expect(shownNotice()).toBeNull();
    const kept = region().querySelector('.live-notice--kept')!;
    expect(kept.getAttribute('aria-hidden')).toBe('true');
    expect(document.querySelector('.hero')!.getAttribute('data-event-phase')).toBe('postponed');
    act(() => root.unmount());
    description.remove();
  });

  it('lets the visitor close a notice that came later, for that notice: its room kept, the next one shown again', async () => {
    const NEXT = liveState('d', '2027-03-18T08:20:00.000Z', {
      notice: { level: 'info', text: { de: 'Jetzt live', en: 'Live now' } },
    });
    serveLiveStates(POSTED, { ...POSTED, updated: '2027-03-18T08:06:00.000Z' }, NEXT);
    const { root } = renderApp({ language: 'en', live: RENDERED, livePollSeconds: 30 });
    expect(closeButton()).toBeNull();
    await advance(30_000);
    // Named in the page's language, beside the live region: its name is not read with the notice.
    expect(closeButton()!.getAttribute('aria-label')).toBe(en.liveNotice.close);
    expect(region().contains(closeButton())).toBe(false);
    const said = region().textContent;

    act(() => closeButton()!.click());
    expect(shownNotice()).toBeNull();
    expect(closeButton()).toBeNull();
    const kept = region().querySelector('.live-notice--kept')!;
    expect(kept.getAttribute('aria-hidden')).toBe('true');
    // Nothing new in the live region to be read out: the same text, hidden.
    expect(region().textContent).toBe(said);

    // The same notice again: it stays closed.
    await advance(30_000);
    expect(shownNotice()).toBeNull();
    // The next notice shows, with its button.
    await advance(30_000);
    expect(shownNotice()!.textContent).toBe(`${en.liveNotice.info} Live now`);
    expect(closeButton()).not.toBeNull();
    act(() => root.unmount());
  });

  it('keeps the rendered notice’s room at the top when another replaces it', async () => {
    const rendered = { ...RENDERED, notice: { level: 'info' as const, text: { de: 'Willkommen', en: 'Welcome' } } };
    serveLiveStates({ ...POSTED, status: null });
    const { root } = renderApp({ language: 'en', live: rendered, livePollSeconds: 30 });
    expect(slot()!.querySelector('[data-testid="live-notice"]')!.textContent).toBe(`${en.liveNotice.info} Welcome`);
    await advance(30_000);
    const top = slot()!.querySelector('.live-notice')!;
    expect(top.classList.contains('live-notice--kept')).toBe(true);
    expect(top.getAttribute('aria-hidden')).toBe('true');
    expect(region().querySelector('[data-testid="live-notice"]')!.textContent).toBe(
      `${en.liveNotice.warning} Starts at 18:15`,
    );
    act(() => root.unmount());
  });

  it('keeps the state it was rendered with where it is not told to follow it', async () => {
    const fetchLive = serveLiveStates(POSTED);
    const { root } = renderApp({ language: 'en', live: RENDERED });
    await advance(10 * 60_000);
    expect(fetchLive).not.toHaveBeenCalled();
    expect(shownNotice()).toBeNull();
    act(() => root.unmount());
  });
});
