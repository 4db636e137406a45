import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONTENT_PATH } from '../../server/config/paths.ts';
import { checkLiveText } from '../../server/content/live-file.ts';
import { liveRulesOf } from '../../server/content/live-rules.ts';
import { loadContent } from '../../server/content/site-content.ts';
import { bootstrapOf, testApp } from '../helpers/app.ts';
import { parseHtml } from '../helpers/html.ts';
import { changeableLive } from '../helpers/live.ts';

/**
 * The page as the server renders it shows the backup stream the live state names: its placeholder,
 * and without scripts its watch link; no page rendered with the content's stream is served after.
 */
const content = loadContent(DEFAULT_CONTENT_PATH);
const BACKUP = 'https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ?controls=0&rel=0';
const stream = checkLiveText(JSON.stringify({ stream: { embedUrl: BACKUP } }), liveRulesOf(content)).live!.stream;

const landing = async (app: Parameters<typeof request>[0]) => {
  const res = await request(app).get('/').set('Cookie', 'selectedLanguage=en').expect(200);
  return { html: res.text, doc: parseHtml(res.text) };
};
const watchLink = (doc: ReturnType<typeof parseHtml>) =>
  doc.querySelector('#rsvp .embed-placeholder__link')!.getAttribute('href');

describe('a backup stream in the server’s page', () => {
  it('is the placeholder’s stream and watch link from the next page rendered, and the content’s again once removed', async () => {
    const live = changeableLive();
    const { app } = await testApp({ liveSource: live });
    expect(watchLink((await landing(app)).doc)).toBe(content.public.video.watchUrl);

    live.set({ stream });
    const { doc, html } = await landing(app);
    expect(watchLink(doc)).toBe('https://www.youtube.com/watch?v=aqz-KE-bpKQ');
    expect(doc.querySelectorAll('iframe')).toHaveLength(0);
    expect(bootstrapOf(html).app.live.stream).toEqual(stream);
    // The content's video stays in the data: the page goes back to it once the backup is removed.
    expect(bootstrapOf(html).app.content.video).toEqual(content.public.video);

    live.set({ stream: null });
    expect(watchLink((await landing(app)).doc)).toBe(content.public.video.watchUrl);
  });

  it('keeps the Content-Security-Policy fixed at start, which the backup’s origin is one of', async () => {
    const live = changeableLive({ stream });
    const { app } = await testApp({ liveSource: live });
    const res = await request(app).get('/').set('Cookie', 'selectedLanguage=en').expect(200);
    const frameSrc = /frame-src ([^;]*)/.exec(String(res.headers['content-security-policy']))![1]!.split(' ');
    expect(frameSrc).toEqual(liveRulesOf(content).stream!.frameOrigins);
    expect(frameSrc).toContain(new URL(BACKUP).origin);
  });
});
