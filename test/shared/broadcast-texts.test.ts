import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_ROOT } from '../../server/config/paths.ts';
import {
  BROADCAST_MOMENTS,
  BROADCAST_TEXTS,
  broadcastMoment,
  broadcastTextKeys,
  type BroadcastText,
} from '../../shared/broadcast-texts.ts';

const GUIDE = readFileSync(path.join(APP_ROOT, 'docs/event-team.md'), 'utf8');

/** The guide's row of each text in its table "Texts that follow the day". */
const GUIDE_ROWS: Record<BroadcastText, string> = {
  streamIntro: "The stream section's sentence",
  heroButton: "The hero's button to the stream",
  heroStatus: "Under the hero's date",
  playButton: "The player's button",
  playerClosed: "In the player's box, with nothing to play",
  providerLink: 'The link to the stream at its provider',
  playerTitle: "The player's title (read by screen readers)",
  description: "The page's description (search engines, link previews, JSON-LD)",
  calendarSummary: "The calendar entry's title",
  calendarLink: "The calendar entry's link, after the description",
};

describe('the texts of the broadcast', () => {
  it('take the moment from the phase, and a start the live state moved only before it', () => {
    expect(broadcastMoment('before', false)).toBe('before');
    expect(broadcastMoment('before', true)).toBe('moved');
    expect(broadcastMoment('live', true)).toBe('live');
    expect(broadcastMoment('after', true)).toBe('after');
    expect(broadcastMoment('cancelled', true)).toBe('cancelled');
  });

  it('after the end, turn to the recording once named, or to its coming where the content plans one', () => {
    expect(broadcastMoment('after', false, 'named')).toBe('recording');
    expect(broadcastMoment('after', false, 'planned')).toBe('awaiting');
    expect(broadcastMoment('live', false, 'named')).toBe('live');
    expect(broadcastMoment('before', false, 'planned')).toBe('before');
    expect(broadcastMoment('cancelled', false, 'named')).toBe('cancelled');
  });

  it('offer something to play, its button and link together, or else say in the box why there is nothing', () => {
    for (const moment of BROADCAST_MOMENTS) {
      const offered = !['after', 'awaiting', 'cancelled', 'postponed'].includes(moment);
      for (const text of ['heroButton', 'playButton', 'providerLink', 'calendarLink'] as const)
        expect(BROADCAST_TEXTS[text][moment] !== null, `${text} ${moment}`).toBe(offered);
      expect(BROADCAST_TEXTS.playerClosed[moment] === null, `playerClosed ${moment}`).toBe(offered);
      // A stream still playing at the end keeps its title; a stream called off is cut.
      expect(BROADCAST_TEXTS.playerTitle[moment] !== null, `playerTitle ${moment}`).toBe(
        !['cancelled', 'postponed'].includes(moment),
      );
      expect(BROADCAST_TEXTS.streamIntro[moment]).not.toBeNull();
      expect(BROADCAST_TEXTS.description[moment]).not.toBeNull();
    }
  });

  it('are each needed at the first moment the page says them', () => {
    const keys = broadcastTextKeys();
    expect(keys.get('video.intro')).toBe('before');
    expect(keys.get('hero.ctaLive')).toBe('live');
    expect(keys.get('video.introCancelled')).toBe('cancelled');
    expect(keys.has('video.heading')).toBe(false);
  });

  it.each(Object.entries(GUIDE_ROWS))('the event team’s guide lists %s’s keys', (text, label) => {
    const row = GUIDE.split('\n').find((line) => line.startsWith(`| ${label} |`));
    expect(row, `a row "${label}"`).toBeDefined();
    const cells = row!
      .split('|')
      .slice(2, -1)
      .map((cell) => cell.trim());
    expect(cells).toHaveLength(BROADCAST_MOMENTS.length);
    BROADCAST_MOMENTS.forEach((moment, i) => {
      const key = BROADCAST_TEXTS[text as BroadcastText][moment];
      if (key === null) expect(cells[i]).not.toContain('`');
      else expect(cells[i]).toBe(`\`${key}\``);
    });
  });
});
