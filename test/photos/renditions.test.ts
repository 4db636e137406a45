import { describe, expect, it } from 'vitest';
import { planRenditions, PORTRAIT_ASPECT } from '../../server/photos/renditions.ts';

const sizes = (kind: 'slide' | 'logo', width: number, height: number, crop: string) =>
  planRenditions(kind, width, height)
    .filter((plan) => plan.crop === crop)
    .map(({ width: w, height: h }) => `${w}x${h}`);

describe('the renditions a page needs of a photo', () => {
  it('makes a full-HD slide at every landscape width, and its widest 9:16 crop for portrait screens', () => {
    expect(sizes('slide', 1920, 1080, 'landscape')).toEqual(['480x270', '720x405', '960x540', '1280x720', '1920x1080']);
    // 1080 × 9/16 = 607 pixels of the photo are as wide as a portrait crop can be.
    expect(sizes('slide', 1920, 1080, 'portrait')).toEqual(['360x640', '540x960', '607x1079']);
    for (const plan of planRenditions('slide', 1920, 1080).filter(({ crop }) => crop === 'portrait'))
      expect(plan.width / plan.height).toBeCloseTo(PORTRAIT_ASPECT, 2);
  });

  it('never enlarges: a width the photo lacks is left out, and its own width made instead', () => {
    expect(sizes('slide', 1600, 900, 'landscape')).toEqual(['480x270', '720x405', '960x540', '1280x720', '1600x900']);
    expect(sizes('slide', 400, 300, 'landscape')).toEqual(['400x300']);
    expect(sizes('slide', 4000, 3000, 'landscape').at(-1)).toBe('1920x1440');
    expect(sizes('slide', 4000, 3000, 'portrait')).toEqual(['360x640', '540x960', '720x1280', '1080x1920']);
  });

  it('makes a logo at its height on the page for densities 1 to 3, or its own height when it is smaller', () => {
    expect(sizes('logo', 900, 300, 'logo')).toEqual(['216x72', '432x144', '648x216']);
    expect(sizes('logo', 600, 200, 'logo')).toEqual(['216x72', '432x144', '600x200']);
    expect(sizes('logo', 64, 64, 'logo')).toEqual(['64x64']);
    expect(sizes('logo', 300, 100, 'logo')).toEqual(['216x72', '300x100']);
  });
});
