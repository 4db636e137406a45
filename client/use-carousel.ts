import { useEffect, useState } from 'react';
import { CAROUSEL_INTERVAL_MS, STUDIO_LABEL_FADE_MS } from '../shared/timing.ts';

export interface CarouselState {
  index: number;
  /** False during the label's fade-out before the index moves. */
  labelVisible: boolean;
}

/**
 * Advances through `count` slides every 4 s, wrapping around. Each change fades the
 * label out for 200 ms, then moves the index and shows the label again; with reduced
 * motion the index moves at once. Nothing moves while `paused`.
 */
export function useCarousel(count: number, paused: boolean, reducedMotion: boolean): CarouselState {
  const [index, setIndex] = useState(0);
  const [labelVisible, setLabelVisible] = useState(true);

  useEffect(() => {
    if (count < 2 || paused) return;
    let fade: ReturnType<typeof setTimeout> | undefined;
    const advance = () => setIndex((i) => (i + 1) % count);
    const interval = setInterval(() => {
      if (reducedMotion) return advance();
      setLabelVisible(false);
      fade = setTimeout(() => {
        advance();
        setLabelVisible(true);
      }, STUDIO_LABEL_FADE_MS);
    }, CAROUSEL_INTERVAL_MS);
    return () => {
      clearInterval(interval);
      clearTimeout(fade);
      setLabelVisible(true);
    };
  }, [count, paused, reducedMotion]);

  return { index: count > 0 ? index % count : 0, labelVisible };
}
