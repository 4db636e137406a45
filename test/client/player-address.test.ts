import { describe, expect, it } from 'vitest';
import { playerAddress, watchAddressAt } from '../../client/player-address.ts';

/** The player's address a page asks for, and the provider's page a chapter links to without scripts. */
describe('a player’s address', () => {
  it('asks YouTube to start at a moment with start, in seconds', () => {
    const src = new URL(
      playerAddress('https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ?rel=0', 'de', { autoplay: true, start: 270 }),
    );
    expect(Object.fromEntries(src.searchParams)).toEqual({
      rel: '0',
      cc_load_policy: '1',
      cc_lang_pref: 'de',
      hl: 'de',
      autoplay: '1',
      start: '270',
    });
  });

  it('asks Vimeo to start at a moment with its #t fragment', () => {
    expect(playerAddress('https://player.vimeo.com/video/76979871', 'es', { autoplay: false, start: 630 })).toBe(
      'https://player.vimeo.com/video/76979871?texttrack=es#t=630s',
    );
  });

  it('names no moment from the beginning', () => {
    expect(
      playerAddress('https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ', 'en', { autoplay: false }),
    ).not.toContain('start=');
    expect(playerAddress('https://player.vimeo.com/video/76979871', 'en', { autoplay: false, start: 0 })).not.toContain(
      '#t=',
    );
  });
});

describe('a watch page at a moment', () => {
  it('is YouTube’s with t, Vimeo’s with #t, and the page itself from the beginning', () => {
    expect(watchAddressAt('https://www.youtube.com/watch?v=aqz-KE-bpKQ', 270)).toBe(
      'https://www.youtube.com/watch?v=aqz-KE-bpKQ&t=270s',
    );
    expect(watchAddressAt('https://vimeo.com/76979871', 630)).toBe('https://vimeo.com/76979871#t=630s');
    expect(watchAddressAt('https://vimeo.com/76979871', 0)).toBe('https://vimeo.com/76979871');
  });
});
