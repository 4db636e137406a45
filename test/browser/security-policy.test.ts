import { describe, expect, it } from 'vitest';
import type { Visitor } from './driver/visitor.ts';
import { waitForFocusScrolledTo } from './journey.ts';
import { setUpSite } from './site.ts';

const site = setUpSite();

/** The Content-Security-Policy violations the page reported, from the first moment of each document. */
async function violations(visitor: Visitor): Promise<{ directive: string; blocked: string }[]> {
  return (await visitor.problems())
    .filter((problem) => problem.kind === 'csp')
    .map((problem) => ({ directive: problem.text, blocked: problem.url }));
}

/** The page, once it has loaded everything it asked for. */
async function loaded(path: string): Promise<Visitor> {
  const visitor = await site.visitor();
  await visitor.goto(path);
  await visitor.waitFor(() => document.readyState === 'complete');
  return visitor;
}

describe(`the Content-Security-Policy in ${site.engine}`, () => {
  it.each(['/', '/?lng=en', '/impressum', '/no/such/page'])(
    'reports no violation for the scripts, styles, images and frames of %s',
    async (path) => {
      const visitor = await loaded(path);
      // Bring the lazily loaded video and map frames and every image into view.
      await visitor.evaluate(async () => {
        for (let y = 0; y < document.body.scrollHeight; y += 400) {
          window.scrollTo(0, y);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      });
      // The frames load on a click: on the English landing page, load both and wait for them, however
      // long the machine takes, then give late reports a moment.
      if (path === '/?lng=en') {
        // One after the other: a loaded frame takes the focus, which scrolls it into view (smoothly)
        // and the other button away from under a click sent before that scroll ends.
        for (const box of ['#rsvp', '.map-panel']) {
          const button = `${box} .embed-placeholder__load`;
          await visitor.waitFor((s) => document.querySelector<HTMLButtonElement>(s)?.disabled === false, button);
          await visitor.click(button);
          await waitForFocusScrolledTo(visitor, `${box} iframe`);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await violations(visitor)).toEqual([]);
    },
  );

  it('applies the inline stylesheet it allows by hash, refuses any other inline style, and leaves the CSSOM alone', async () => {
    const visitor = await loaded('/');
    const styles = await visitor.evaluate(() => {
      const injected = document.createElement('style');
      injected.textContent = 'body { outline: 3px solid rgb(255, 0, 0) }';
      document.head.append(injected);
      const withAttribute = document.createElement('p');
      withAttribute.setAttribute('style', 'color: rgb(255, 0, 0)');
      // What React does with a style prop: the CSSOM, which the policy does not govern.
      const throughCssom = document.createElement('p');
      throughCssom.style.color = 'rgb(0, 128, 0)';
      document.body.append(withAttribute, throughCssom);
      return {
        stylesheet: getComputedStyle(document.body).margin,
        injected: getComputedStyle(document.body).outlineStyle,
        attribute: getComputedStyle(withAttribute).color,
        cssom: getComputedStyle(throughCssom).color,
      };
    });
    expect(styles).toMatchObject({ stylesheet: '0px', injected: 'none', cssom: 'rgb(0, 128, 0)' });
    expect(styles.attribute).not.toBe('rgb(255, 0, 0)');
    // Reported asynchronously: as soon as the page has, however long the machine takes.
    await expect
      .poll(async () => (await violations(visitor)).map((violation) => violation.directive).sort(), {
        timeout: 10_000,
      })
      .toEqual(['style-src-attr', 'style-src-elem']);
    // And nothing more a moment later.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await violations(visitor)).map((violation) => violation.directive).sort()).toEqual([
      'style-src-attr',
      'style-src-elem',
    ]);
  });

  it('does report what it forbids, so the silence above means something', async () => {
    const visitor = await loaded('/');
    await visitor.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.injected = true';
      document.body.append(script);
      const frame = document.createElement('iframe');
      frame.src = 'https://evil.example/';
      document.body.append(frame);
    });
    // Reported asynchronously: as soon as the page has, however long the machine takes.
    await expect
      .poll(async () => (await violations(visitor)).map((violation) => violation.directive), { timeout: 10_000 })
      .toEqual(expect.arrayContaining(['script-src-elem', 'frame-src']));
    expect(await visitor.evaluate(() => (window as unknown as { injected?: boolean }).injected ?? null)).toBeNull();
  });
});
