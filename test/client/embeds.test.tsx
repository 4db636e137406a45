// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { forgetProviders } from '../../client/embed-consent.ts';
import { ALWAYS_LOAD_STORAGE_KEY } from '../../shared/embeds.ts';
import { click, content, renderApp } from '../helpers/render-client.tsx';
import { editedContent } from '../helpers/content-file.ts';

/** Issue 36: the stream and the maps behind placeholders of the site's own, loaded on a click. */

// Each test is a visit of its own: nothing let in, nothing kept.
afterEach(() => act(() => forgetProviders()));

const video = () => document.querySelector('#rsvp .embed')!;
/** The 16:9 box: the frame, or its placeholder. */
const videoBox = () => video().querySelector('.video-frame')!;
const mapPanel = () => document.querySelector('.map-panel')!;
/** The line under a box: "always load" and the provider's notice with its privacy policy. */
const line = (embed: Element) => embed.querySelector(':scope > .embed-choice')!;
/** What the box holds: the tag and class of each element, in order. */
const contents = (box: Element) =>
  [...box.querySelectorAll('*')]
    .filter((el) => !el.matches('.visually-hidden'))
    .map((el) => `${el.tagName.toLowerCase()}.${el.className}`);
const stored = () => window.localStorage.getItem(ALWAYS_LOAD_STORAGE_KEY);

function choose(studioId: string) {
  const select = document.querySelector<HTMLSelectElement>('#studio-select')!;
  act(() => {
    select.value = studioId;
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

describe('the live stream', () => {
  it('shows a picture of this site and one button naming the provider in the box, the notice under it, and loads no frame and stores nothing', () => {
    renderApp({ language: 'en' });
    expect(document.querySelectorAll('iframe')).toHaveLength(0);
    // In the box, only what fits it on a phone: the picture, the button, and the link that stands
    // in for the button without scripts.
    expect(contents(videoBox())).toEqual([
      'div.video-frame__player embed-placeholder',
      'img.embed-placeholder__picture',
      'button.button button--primary embed-placeholder__load',
      'a.button button--primary embed-placeholder__link',
    ]);
    const picture = videoBox().querySelector('img')!;
    expect(picture.getAttribute('src')).toBe('/images/hero/vienna-1600.jpg');
    expect(picture.getAttribute('alt')).toBe('');
    const button = videoBox().querySelector('button')!;
    expect(button.textContent).toMatch(/^Play the live stream – from .+ – loads YouTube$/);
    // Under the box: "always load", and the notice, which the button is described by.
    expect(line(video()).querySelector('label')!.textContent).toBe('Always load content from YouTube');
    expect(line(video()).querySelector<HTMLInputElement>('input[type="checkbox"]')!.checked).toBe(false);
    expect(line(video()).querySelector('a[href="https://policies.google.com/privacy"]')!.textContent).toContain(
      'Privacy policy of YouTube',
    );
    expect(document.getElementById(button.getAttribute('aria-describedby')!)!.textContent).toBe(
      'Nothing is loaded from YouTube before you click; then it receives your IP address and this page’s address.',
    );
    expect(stored()).toBeNull();
  });

  it('loads the player on a click, asked to start with captions and controls in the page’s language, and focuses it', () => {
    renderApp({ language: 'es' });
    const lineBefore = line(video()).outerHTML;
    click(video().querySelector('button'));
    const frame = videoBox().querySelector('iframe')!;
    expect([...videoBox().children]).toEqual([frame]);
    const src = new URL(frame.getAttribute('src')!);
    expect(src.origin + src.pathname).toBe('https://www.youtube-nocookie.com/embed/M7lc1UVf-VE');
    expect(Object.fromEntries(src.searchParams)).toMatchObject({
      controls: '0',
      autoplay: '1',
      cc_load_policy: '1',
      cc_lang_pref: 'es',
      hl: 'es',
    });
    expect(frame.getAttribute('title')).toBe('Retransmisión en directo de Horizon Live 2027');
    expect(frame.getAttribute('allow')).toContain('autoplay');
    expect(frame.getAttribute('referrerpolicy')).toBe('strict-origin-when-cross-origin');
    expect(document.activeElement).toBe(frame);
    // The line under the box stays as it was, so nothing moves.
    expect(line(video()).outerHTML).toBe(lineBefore);
    // Not ticked: nothing kept for the next visit.
    expect(stored()).toBeNull();
  });

  it('keeps the choice when “always load” is ticked after the player has loaded, and forgets it unticked, the player staying', () => {
    renderApp({ language: 'en' });
    click(video().querySelector('button'));
    const frame = videoBox().querySelector('iframe')!;
    const always = () => line(video()).querySelector<HTMLInputElement>('input[type="checkbox"]')!;
    expect(always().checked).toBe(false);
    click(always());
    expect(always().checked).toBe(true);
    expect(JSON.parse(stored()!)).toEqual(['YouTube']);
    click(always());
    expect(always().checked).toBe(false);
    expect(stored()).toBeNull();
    expect(videoBox().querySelector('iframe')).toBe(frame);
  });

  it('says that the stream is live during the broadcast, and has nothing to play after it until a recording is named', () => {
    vi.useFakeTimers({ now: content.public.event.start + 60_000, toFake: ['Date'] });
    try {
      renderApp({ language: 'en' });
      expect(video().querySelector('button')!.textContent).toBe('Play the live stream – live now – loads YouTube');
      vi.setSystemTime(content.public.event.end + 60_000);
      renderApp({ language: 'en' });
      expect(video().querySelector('button')).toBeNull();
      expect(video().querySelector('.embed-placeholder__closed')!.textContent).toBe(
        'The broadcast has ended. Thank you for watching.',
      );
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps the choice only when “always load” is ticked, and loads at once on the next visit, without starting', () => {
    renderApp({ language: 'de' });
    click(video().querySelector('input[type="checkbox"]'));
    expect(stored()).toBeNull(); // ticking alone is no choice yet
    click(video().querySelector('button'));
    expect(JSON.parse(stored()!)).toEqual(['YouTube']);
    expect(video().querySelector<HTMLInputElement>('input[type="checkbox"]')!.checked).toBe(true);

    // The next visit: this visit's permission gone, the kept choice still there.
    act(() => forgetProviders());
    window.localStorage.setItem(ALWAYS_LOAD_STORAGE_KEY, JSON.stringify(['YouTube']));
    renderApp({ language: 'de' });
    const src = new URL(video().querySelector('iframe')!.getAttribute('src')!);
    expect(src.searchParams.get('autoplay')).toBeNull();
    expect(src.searchParams.get('hl')).toBe('de');
    expect(document.activeElement).not.toBe(video().querySelector('iframe'));
    // The box says what the visitor chose, and unticking it withdraws the choice.
    expect(video().querySelector<HTMLInputElement>('input[type="checkbox"]')!.checked).toBe(true);
    // The map's provider was not chosen.
    expect(mapPanel().querySelector('iframe')).toBeNull();
  });

  it('loads with the page where the content says so', () => {
    const atOnce = editedContent((file) => (file.video.provider.load = 'at-once'));
    renderApp({ language: 'en', content: atOnce });
    expect(video().querySelector('iframe')).not.toBeNull();
    // No click, so nothing to say about one, and no choice to keep.
    expect(line(video())).toBeNull();
    expect(mapPanel().querySelector('iframe')).toBeNull();
  });
});

describe('the studio map', () => {
  it('loads on a click, and every other studio’s map without asking again during the visit', () => {
    renderApp({ language: 'en' });
    choose('munich');
    const button = mapPanel().querySelector('button')!;
    expect(button.textContent).toBe('Show the map – loads Google Maps');
    const map = mapPanel().querySelector('.embed')!;
    expect(contents(map.querySelector('.map-panel__box')!)).toEqual([
      'div.map-panel__map embed-placeholder',
      'button.button button--primary embed-placeholder__load',
      'a.button button--primary embed-placeholder__link',
    ]);
    expect(line(map).querySelector('label')!.textContent).toBe('Always load content from Google Maps');
    expect(line(map).querySelector('a[href="https://policies.google.com/privacy"]')!.textContent).toContain(
      'Privacy policy of Google Maps',
    );
    const lineBefore = line(map).outerHTML;
    expect(mapPanel().querySelector('.embed-placeholder__link')!.getAttribute('href')).toBe(
      content.public.studios[0]!.mapLinkUrl,
    );
    click(button);
    expect(mapPanel().querySelector('iframe')!.getAttribute('title')).toBe('Studio München Location');
    expect(line(map).outerHTML).toBe(lineBefore);
    expect(document.activeElement).toBe(mapPanel().querySelector('iframe'));
    choose('vienna');
    const frame = mapPanel().querySelector('iframe')!;
    expect(frame.getAttribute('title')).toBe('Studio Wien Location');
    expect(frame.getAttribute('src')).toContain('Vorgartenstra');
    // The plain link to the provider stays beside it.
    expect(mapPanel().querySelector('.map-panel__link')!.getAttribute('href')).toBe(
      content.public.studios[2]!.mapLinkUrl,
    );
    // The stream's provider is another: it still waits for its own click.
    expect(video().querySelector('iframe')).toBeNull();
    expect(stored()).toBeNull();
  });
});

describe('withdrawing the choice on the privacy page', () => {
  it('forgets it with one button, so the frames wait for a click again', () => {
    window.localStorage.setItem(ALWAYS_LOAD_STORAGE_KEY, JSON.stringify(['YouTube', 'Google Maps']));
    renderApp({ language: 'en', path: '/impressum' });
    const privacy = document.getElementById('Datenschutzerklärung')!;
    expect(privacy.textContent).toContain('YouTube is loaded only when you click its button');
    expect(privacy.textContent).toContain('Google Maps is loaded only when you click its button');
    click(privacy.querySelector('.legal__withdraw button'));
    expect(stored()).toBeNull();
    expect(privacy.querySelector('[role="status"]')!.textContent).toContain('Withdrawn');
    click(document.querySelector('a.legal__back'));
    expect(document.querySelectorAll('iframe')).toHaveLength(0);
  });
});
