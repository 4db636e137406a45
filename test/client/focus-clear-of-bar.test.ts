// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { keepFocusClearOfBar } from '../../client/focus-clear-of-bar.ts';

/**
 * A link focused with the keyboard is scrolled out from under the language bar at the top, and
 * from under the live notice's bar at the bottom while one shows.
 */
const rect = (top: number, bottom: number) => ({ top, bottom }) as DOMRect;

function page(linkTop: number, linkBottom: number, notice: boolean, focused = 'a') {
  document.body.innerHTML = `
    <nav class="language-menu"></nav>
    <a href="/impressum">Impressum</a>
    <div class="live-notice-bar">
      <div class="live-notice-region">${notice ? '<p data-testid="live-notice">Später</p>' : ''}</div>
      ${notice ? '<button type="button" class="live-notice-bar__close">×</button>' : ''}
    </div>`;
  vi.spyOn(document.querySelector('.language-menu')!, 'getBoundingClientRect').mockReturnValue(rect(0, 60));
  const link = document.querySelector<HTMLElement>(focused)!;
  vi.spyOn(link, 'getBoundingClientRect').mockReturnValue(rect(linkTop, linkBottom));
  vi.spyOn(link, 'matches').mockReturnValue(true); // :focus-visible, as after a Tab
  if (notice)
    vi.spyOn(document.querySelector('[data-testid="live-notice"]')!, 'getBoundingClientRect').mockReturnValue(
      rect(700, 800),
    );
  vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => callback(0));
  const scrollBy = vi.spyOn(window, 'scrollBy').mockImplementation(() => {});
  scrollBy.mockClear();
  const stop = keepFocusClearOfBar(document);
  link.focus();
  stop();
  return scrollBy;
}

afterEach(() => vi.unstubAllGlobals());

describe('the keyboard’s focus', () => {
  it('is scrolled out from under the language bar', () => {
    expect(page(40, 64, false)).toHaveBeenCalledWith({ top: -20, behavior: 'instant' });
  });

  it('is scrolled out from under the live notice’s bar while one shows, and left where it is without', () => {
    expect(page(690, 714, true)).toHaveBeenCalledWith({ top: 14, behavior: 'instant' });
    expect(page(690, 714, false)).not.toHaveBeenCalled();
    expect(page(300, 324, true)).not.toHaveBeenCalled();
  });

  it('is left where it is on the notice’s own close button, which lies in the bar', () => {
    expect(page(730, 774, true, '.live-notice-bar__close')).not.toHaveBeenCalled();
  });
});
