import { describe, expect, it } from 'vitest';
import { wrkMixScript } from '../../scripts/bench/load.ts';
import { judgeSoak, minuteMarks, slopeMbPerMinute, type RssSample } from '../../scripts/bench/soak.ts';
import { madePictures, visitorsMix } from '../../scripts/bench/soak-run.ts';

/** A sample every 2 s for `minutes`, from `rss(minute)`. */
function samplesOf(minutes: number, rss: (minute: number) => number): RssSample[] {
  const samples: RssSample[] = [];
  for (let second = 0; second <= minutes * 60; second += 2)
    samples.push({ minute: second / 60, rssMb: rss(second / 60) });
  return samples;
}

const TARGETS = { fromMinute: 2, toMinute: 10, slopeMbPerMinute: 1, limitMib: 272, peakShare: 0.75 };

describe("the soak's judgement of resident memory", () => {
  it('measures the growth after the warm-up, not the warm-up itself', () => {
    // Steep in the first minute (caches, heap), then 0.5 MB a minute.
    const samples = samplesOf(10, (m) => (m < 1 ? 120 + 60 * m : 180 + 0.5 * (m - 1)));
    expect(slopeMbPerMinute(samples, 2, 10)).toBeCloseTo(0.5, 5);
    expect(judgeSoak(samples, TARGETS)).toMatchObject({ slopeMbPerMinute: 0.5, slopeHeld: true });
  });

  it('refuses a creep of 1.6 MB a minute, however the collector saws it', () => {
    const samples = samplesOf(10, (m) => 186 + 1.6 * m + (Math.round(m * 30) % 2 ? 3 : -3));
    const verdict = judgeSoak(samples, TARGETS);
    expect(verdict.slopeMbPerMinute).toBeCloseTo(1.6, 1);
    expect(verdict.slopeHeld).toBe(false);
  });

  it('judges the peak against 75 % of the limit', () => {
    const flat = (peak: number) => samplesOf(10, (m) => (Math.abs(m - 5) < 0.01 ? peak : 150));
    expect(judgeSoak(flat(203), TARGETS)).toMatchObject({
      peakMb: 203,
      peakMinute: 5,
      peakPercentOfLimit: 74.6,
      peakHeld: true,
    });
    expect(judgeSoak(flat(205), TARGETS)).toMatchObject({ peakHeld: false });
  });

  it('needs samples in the window', () => {
    expect(() =>
      slopeMbPerMinute(
        samplesOf(1, () => 100),
        2,
        10,
      ),
    ).toThrow(/fewer than two memory samples/);
  });

  it("reports the memory at each minute's end", () => {
    expect(minuteMarks(samplesOf(3, (m) => 100 + m))).toEqual([
      { minute: 1, rssMb: 101 },
      { minute: 2, rssMb: 102 },
      { minute: 3, rssMb: 103 },
    ]);
  });
});

describe("the soak's mix of requests", () => {
  it("takes each visitor's request in turn, with its own headers, in wrk's Lua", () => {
    const script = wrkMixScript(visitorsMix('/assets/app-X.js'));
    const formats = script.split('\n').filter((line) => line.includes('wrk.format'));
    expect(formats).toEqual([
      '    wrk.format("GET", "/", { ["accept-encoding"] = "br, gzip" }),',
      '    wrk.format("GET", "/", { ["accept-encoding"] = "br, gzip", ["cookie"] = "selectedLanguage=en" }),',
      '    wrk.format("GET", "/", { ["accept-encoding"] = "br, gzip", ["cookie"] = "selectedLanguage=es" }),',
      '    wrk.format("GET", "/impressum", { ["accept-encoding"] = "br, gzip" }),',
      '    wrk.format("GET", "/api/hero-slides", { ["accept-encoding"] = "br, gzip" }),',
      '    wrk.format("GET", "/assets/app-X.js", { ["accept-encoding"] = "br, gzip" })',
    ]);
    // Built once wrk knows the host; each request call takes the next kind.
    expect(script).toMatch(/init = function\(args\)\n {2}requests = \{/);
    expect(script).toContain('turn = turn % #requests + 1');
  });
});

describe("the soak's pictures", () => {
  it("are the first slide's pictures the page preloads, and join the mix", () => {
    const html =
      '<link rel="preload" as="image" fetchPriority="low" imageSrcSet="/images/photos/AAAA-p360.webp 360w, /images/photos/AAAA-p540.webp 540w" media="(orientation: portrait)"/>' +
      '<link rel="preload" as="image" imageSrcSet="/images/photos/AAAA-l480.webp 480w"/>' +
      '<link rel="preload" as="font" href="/assets/font.woff2"/>' +
      '<img src="/images/photos/AAAA-l1280.jpg" srcset="/images/photos/AAAA-l480.jpg 480w"/>';
    const pictures = madePictures(html);
    expect(pictures).toEqual(['/images/photos/AAAA-p360.webp', '/images/photos/AAAA-l480.webp']);
    expect(
      visitorsMix('/assets/app-X.js', pictures)
        .map((request) => request.path)
        .slice(-2),
    ).toEqual(pictures);
  });
});
