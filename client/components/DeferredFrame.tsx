import type { IframeHTMLAttributes } from 'react';
import { useLanguage } from '../language.tsx';
import { useHydrated } from '../use-media.ts';

/**
 * A third-party frame (the video, a map) that starts loading once the page has hydrated, so
 * never before the first paint and never in its way on a slow network. `loading="lazy"` alone
 * does not hold it back: Chromium loads lazy frames that lie within a few screens of the
 * viewport at once, and on a phone they start right below the first screen. On a first visit it
 * waits for the language choice as well: until then the page under the overlay is not shown.
 * Without scripts the frame is inside <noscript> and loads with the page; with scripts the box
 * it sits in keeps its size, so nothing moves when it arrives.
 */
export function DeferredFrame({ title, ...props }: IframeHTMLAttributes<HTMLIFrameElement> & { title: string }) {
  const hydrated = useHydrated();
  const { chosen } = useLanguage();
  const frame = <iframe {...props} title={title} loading="lazy" />;
  return hydrated && chosen ? frame : <noscript>{frame}</noscript>;
}
