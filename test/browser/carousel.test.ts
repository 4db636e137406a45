import { describe, expect, it } from 'vitest';
import type { Visitor } from './driver/visitor.ts';
import { waitForHydration, watchTimerLateness } from './journey.ts';
import { setUpSite } from './site.ts';

const site = setUpSite();

interface LabelChange {
  at: number;
  text: string;
}

/** Watches the studio label in the page: every text change with its time, and the lowest opacity seen. */
async function recordLabel(visitor: Visitor, forMs: number) {
  return visitor.evaluate(async (duration) => {
    const label = document.querySelector('.hero__studio')!;
    const changes: LabelChange[] = [];
    let lowestOpacity = 1;
    const observer = new MutationObserver(() => {
      const text = label.textContent ?? '';
      if (changes.at(-1)?.text !== text) changes.push({ at: performance.now(), text });
    });
    observer.observe(label, { childList: true, characterData: true, subtree: true });
    const start = performance.now();
    changes.push({ at: start, text: label.textContent ?? '' });
    await new Promise<void>((resolve) => {
      const sample = () => {
        lowestOpacity = Math.min(lowestOpacity, Number(getComputedStyle(label).opacity));
        if (performance.now() - start < duration) requestAnimationFrame(sample);
        else resolve();
      };
      requestAnimationFrame(sample);
    });
    observer.disconnect();
    return { changes, lowestOpacity };
  }, forMs);
}

/**
 * Presses the pause control again from inside the page, so the clock starts with the press, and
 * waits (up to 15 s) for the label's next text.
 */
async function resumeAndTimeNextLabel(visitor: Visitor) {
  return visitor.evaluate(async () => {
    const label = document.querySelector('.hero__studio')!;
    const before = label.textContent ?? '';
    const start = performance.now();
    document.querySelector<HTMLButtonElement>('.hero__pause')!.click();
    const next = await new Promise<string | null>((resolve) => {
      const giveUp = setTimeout(() => resolve(null), 15_000);
      const observer = new MutationObserver(() => {
        if ((label.textContent ?? '') === before) return;
        observer.disconnect();
        clearTimeout(giveUp);
        resolve(label.textContent);
      });
      observer.observe(label, { childList: true, characterData: true, subtree: true });
    });
    return { before, next, afterMs: performance.now() - start };
  });
}

async function openHydrated(visitor: Visitor) {
  await visitor.goto('/');
  await waitForHydration(visitor);
}

const transitionDuration = (visitor: Visitor, selector: string) =>
  visitor.evaluate((s) => getComputedStyle(document.querySelector(s)!).transitionDuration, selector);

describe('the hero carousel, measured', () => {
  it('changes the studio every 4 s, fades the label for 200 ms, and wraps after the last slide', async () => {
    const visitor = await site.visitor({ language: 'de' });
    const lateness = await watchTimerLateness(visitor);
    await openHydrated(visitor);
    expect(await transitionDuration(visitor, '.hero__slide')).toBe('1s');

    await lateness.reset();
    const { changes, lowestOpacity } = await recordLabel(visitor, 16_800);
    // Each change is a timer of the page: on a busy machine it may run as late as the page's timers do.
    const slack = await lateness.worstMs();
    const texts = changes.map((c) => c.text);
    expect(texts.slice(0, 5)).toEqual([
      'Studio München',
      'Studio Marbella',
      'Studio Wien',
      'Studio Zürich',
      'Studio München',
    ]);
    const intervals = changes.slice(2).map((c, i) => c.at - changes[i + 1]!.at);
    expect(intervals.length).toBeGreaterThanOrEqual(3);
    for (const gap of intervals) {
      expect(gap).toBeGreaterThan(3700 - slack);
      expect(gap).toBeLessThan(4300 + slack);
    }
    expect(lowestOpacity).toBeLessThan(0.5);
  });

  it('stops with the pause control and resumes', async () => {
    const visitor = await site.visitor({ language: 'de' });
    const lateness = await watchTimerLateness(visitor);
    await openHydrated(visitor);
    await visitor.click('.hero__pause');
    await visitor.waitFor(
      () => document.querySelector('.hero__pause')?.getAttribute('aria-pressed') === 'true',
      undefined,
      {
        what: 'the pause control to be pressed',
      },
    );
    const paused = await recordLabel(visitor, 5000);
    expect(paused.changes.map((c) => c.text)).toEqual(['Studio München']);

    await lateness.reset();
    const resumed = await resumeAndTimeNextLabel(visitor);
    // The first change after resuming is a full interval plus the label's fade away, and as late as
    // the page's timers ran meanwhile.
    const slack = await lateness.worstMs();
    expect(resumed).toMatchObject({ before: 'Studio München', next: 'Studio Marbella' });
    expect(resumed.afterMs).toBeGreaterThan(4200 - 300);
    expect(resumed.afterMs).toBeLessThan(4200 + 300 + slack);
  });

  it('keeps changing the label without any fade when reduced motion is asked for', async () => {
    const visitor = await site.visitor({ language: 'de', reducedMotion: true });
    await openHydrated(visitor);
    expect(await visitor.evaluate(() => matchMedia('(prefers-reduced-motion: reduce)').matches)).toBe(true);
    expect(await transitionDuration(visitor, '.hero__studio')).toBe('0s');
    expect(await transitionDuration(visitor, '.hero__slide')).toBe('0s');
    // Long enough for the first change however late the page's timers run; the intervals are the first test's.
    const { changes, lowestOpacity } = await recordLabel(visitor, 6500);
    expect(changes.map((c) => c.text).slice(0, 2)).toEqual(['Studio München', 'Studio Marbella']);
    expect(lowestOpacity).toBe(1);
  });
});
