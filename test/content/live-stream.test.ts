import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { checkLiveRow } from '../../server/backend/live-row.ts';
import { DEFAULT_CONTENT_PATH } from '../../server/config/paths.ts';
import { formatFinding } from '../../server/content/findings.ts';
import { checkLiveText, NO_LIVE_CHANGES } from '../../server/content/live-file.ts';
import { liveRulesOf, liveRulesOfLanguages } from '../../server/content/live-rules.ts';
import { loadContent } from '../../server/content/site-content.ts';
import { fileLiveSource } from '../../server/live/file-source.ts';
import { withVersion } from '../../server/live/live-version.ts';
import { createMetrics } from '../../server/ops/metrics.ts';
import { EMPTY_LIVE_ROW } from '../../scripts/harness/fake-supabase.ts';
import { editedContent } from '../helpers/content-file.ts';

/**
 * A backup stream named in the live state: the forms the content file's video.embedUrl takes, from
 * an origin the page's Content-Security-Policy (fixed at start from the content file) lets frames
 * come from, formed as the content file's video is for the page. The live file and the row alike.
 */
const content = loadContent(DEFAULT_CONTENT_PATH);
const RULES = liveRulesOf(content);
const BACKUP = 'https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ?controls=0&rel=0';
const ALLOWED = 'https://www.youtube-nocookie.com, https://www.google.com';
const WHY = `its frame-src is fixed at start from the content file’s video.embedUrl, video.recording and studios’ mapEmbedUrl, and allows only ${ALLOWED}; use a player on one of these, or name the origin in the content file and restart the server`;

const check = (text: string) => checkLiveText(text, RULES);
const lines = (text: string) => check(text).problems.map((finding) => formatFinding('live.json', finding));
const fileWith = (stream: unknown) => `{\n  "status": null,\n  "stream": ${JSON.stringify(stream)}\n}\n`;

const row = (columns: Record<string, unknown>) => ({ ...EMPTY_LIVE_ROW, ...columns });
const checkRow = (columns: Record<string, unknown>) => {
  const rows = [row(columns)];
  return checkLiveRow(rows, JSON.stringify(rows), RULES);
};

describe('a backup stream in the live file', () => {
  it('is the content’s video with the backup’s address and watch link, its provider and placeholder picture kept', () => {
    const checked = check(fileWith({ embedUrl: BACKUP }));
    expect(checked.problems).toEqual([]);
    expect(checked.live?.stream).toEqual({
      embedUrl: BACKUP,
      watchUrl: 'https://www.youtube.com/watch?v=aqz-KE-bpKQ',
      provider: { name: 'YouTube', privacyUrl: 'https://policies.google.com/privacy', load: 'on-click' },
      poster: content.public.video.poster,
    });
    expect(content.public.video.poster).not.toBeNull();
  });

  it('is none when removed or null: the content file’s video stands', () => {
    expect(check('{}').live?.stream).toBeNull();
    expect(check('{ "stream": null }').live?.stream).toBeNull();
  });

  it('refuses an address in a form the content file’s video.embedUrl refuses, on its line', () => {
    expect(lines(fileWith({ embedUrl: 'https://www.youtube.com/watch?v=aqz-KE-bpKQ' }))).toEqual([
      'live.json:3: stream.embedUrl "https://www.youtube.com/watch?v=aqz-KE-bpKQ" is a YouTube page, which YouTube does not let other sites frame; did you mean https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ?controls=0&rel=0&playsinline=1?',
    ]);
    expect(lines(fileWith({ embedUrl: 'http://www.youtube-nocookie.com/embed/aqz-KE-bpKQ' }))).toEqual([
      'live.json:3: stream.embedUrl "http://www.youtube-nocookie.com/embed/aqz-KE-bpKQ" must be an absolute https:// address',
    ]);
    expect(lines(fileWith({ embedUrl: BACKUP, poster: '/x.jpg' }))).toEqual([
      'live.json:3: `stream.poster` is not a field',
    ]);
  });

  it('refuses a player on an origin the page’s frame-src does not allow, naming the origin, the allowed ones and why', () => {
    // A form the content file takes, on YouTube's other host: its origin is not the content's.
    const other = 'https://www.youtube.com/embed/aqz-KE-bpKQ';
    const checked = check(fileWith({ embedUrl: other }));
    expect(checked.live).toBeNull();
    expect(lines(fileWith({ embedUrl: other }))).toEqual([
      `live.json:3: stream.embedUrl "${other}" is on https://www.youtube.com, which the page’s Content-Security-Policy does not let frames come from: ${WHY}`,
    ]);
  });

  it('takes a player on any origin the content file’s frames come from, a map’s included', () => {
    const rules = liveRulesOf(
      editedContent((file) => {
        file.video.embedUrl = 'https://player.vimeo.com/video/76979871';
      }),
    );
    expect(rules.stream?.frameOrigins).toEqual(['https://player.vimeo.com', 'https://www.google.com']);
    const checked = checkLiveText(fileWith({ embedUrl: 'https://player.vimeo.com/video/1084537' }), rules);
    expect(checked.live?.stream).toMatchObject({
      embedUrl: 'https://player.vimeo.com/video/1084537',
      watchUrl: 'https://vimeo.com/1084537',
    });
  });

  it('is left out with a warning while the content file has problems: its frames, which the origin is checked against, are not known', () => {
    const checked = checkLiveText(fileWith({ embedUrl: BACKUP }), liveRulesOfLanguages(['de', 'en', 'es']));
    expect(checked.problems).toEqual([]);
    expect(checked.live?.stream).toBeNull();
    expect(checked.warnings.map((finding) => formatFinding('live.json', finding))).toEqual([
      `live.json:3: stream.embedUrl "${BACKUP}" is left out: its origin is checked against the content file’s frames, which are known once the content file has no problems`,
    ]);
  });

  it('on this machine, as the content file’s may be, is taken with its warning', () => {
    const standIn = 'https://127.0.0.1:8443/embed/aqz-KE-bpKQ';
    const rules = liveRulesOf(
      editedContent((file) => {
        file.video.embedUrl = 'https://127.0.0.1:8443/embed/M7lc1UVf-VE';
      }),
    );
    const checked = checkLiveText(fileWith({ embedUrl: standIn }), rules);
    expect(checked.live?.stream?.watchUrl).toBe('https://127.0.0.1:8443/watch?v=aqz-KE-bpKQ');
    expect(checked.warnings.map((finding) => finding.message)).toEqual([
      `stream.embedUrl "${standIn}" is on this machine, a stand-in for the provider that no visitor can reach: set the provider’s address before going live`,
    ]);
  });
});

describe('a backup stream in the live row', () => {
  it('is the column stream_embed_url, formed as the file’s', () => {
    const checked = checkRow({ stream_embed_url: BACKUP });
    expect(checked.live?.stream).toEqual(check(fileWith({ embedUrl: BACKUP })).live?.stream);
  });

  it('is none with the column blank, as the row’s other columns, or not there (a table made before it)', () => {
    for (const blank of [null, '', '   ']) expect(checkRow({ stream_embed_url: blank }).live?.stream).toBeNull();
    const { stream_embed_url: _, ...older } = row({});
    expect(checkLiveRow([older], JSON.stringify([older]), RULES).live).toEqual({
      notice: null,
      status: null,
      schedule: null,
      stream: null,
      recording: null,
    });
  });

  it('is refused from another origin or in another form, naming the column', () => {
    const other = 'https://www.youtube.com/embed/aqz-KE-bpKQ';
    expect(checkRow({ stream_embed_url: other })).toEqual({
      live: null,
      problems: [
        `stream_embed_url "${other}" is on https://www.youtube.com, which the page’s Content-Security-Policy does not let frames come from: ${WHY}`,
      ],
      warnings: [],
    });
    expect(checkRow({ stream_embed_url: 'https://vimeo.com/1084537' })).toMatchObject({
      live: null,
      problems: [
        'stream_embed_url "https://vimeo.com/1084537" is a Vimeo page, which Vimeo does not let other sites frame; did you mean https://player.vimeo.com/video/1084537?',
      ],
    });
  });

  it('names the column meant for a misspelt one, which names no backup', () => {
    expect(checkRow({ stream_embed_ur: BACKUP })).toMatchObject({
      live: { stream: null },
      warnings: [
        "warning: `stream_embed_ur` is a column this server does not read (a later release's?); it is left out; did you mean `stream_embed_url`?",
      ],
    });
  });
});

describe('the live state’s version', () => {
  const at = new Date('2027-03-18T08:00:00.000Z');
  const stream = check(fileWith({ embedUrl: BACKUP })).live!.stream;

  it('changes with the backup stream, and back with its removal', () => {
    const none = withVersion({ ...NO_LIVE_CHANGES }, at);
    const backup = withVersion({ ...NO_LIVE_CHANGES, stream }, at);
    const another = withVersion({ ...NO_LIVE_CHANGES, stream: { ...stream!, embedUrl: `${BACKUP}&start=1` } }, at);
    expect(new Set([none.version, backup.version, another.version]).size).toBe(3);
    expect(withVersion({ ...NO_LIVE_CHANGES }, at).version).toBe(none.version);
    expect(backup.stream).toEqual(stream);
  });

  it('without a stream or a recording is the version it was before there were either, which replicas of every release name alike', () => {
    const before = createHash('sha256')
      .update(JSON.stringify([null, 'EventPostponed']))
      .digest('base64url')
      .slice(0, 16);
    expect(withVersion({ ...NO_LIVE_CHANGES, status: 'EventPostponed' }, at).version).toBe(before);
  });
});

describe('a backup stream the live file’s source refuses', () => {
  it('leaves the last good state, logged once with the origin and the allowed ones, and counted once', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'live-stream-'));
    const file = path.join(folder, 'live.json');
    const logs: { msg: string }[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) logs.push(JSON.parse(line));
        done();
      },
    });
    const metrics = createMetrics();
    writeFileSync(file, fileWith({ embedUrl: BACKUP }));
    const source = fileLiveSource({
      path: file,
      shown: 'live.json',
      rules: RULES,
      checkEveryMs: 20,
      folderEvents: false,
      logger: pino({ level: 'info' }, sink),
      observer: metrics.liveObserver,
    });
    try {
      const good = await source.get();
      expect(good.stream?.embedUrl).toBe(BACKUP);
      writeFileSync(file, fileWith({ embedUrl: 'https://www.youtube.com/embed/aqz-KE-bpKQ' }));
      await expect.poll(() => logs.filter((log) => log.msg.startsWith('live file change refused')).length).toBe(1);
      // Read again several times over: the same text is neither logged nor counted again.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await source.get()).toBe(good);
      expect(logs.filter((log) => log.msg.startsWith('live file change refused')).map((log) => log.msg)).toEqual([
        `live file change refused; the live state stays as it was: live.json:3: stream.embedUrl "https://www.youtube.com/embed/aqz-KE-bpKQ" is on https://www.youtube.com, which the page’s Content-Security-Policy does not let frames come from: ${WHY}`,
      ]);
      const refused = await metrics.registry.getSingleMetric('live_changes_refused_total')!.get();
      expect(refused.values.find((value) => value.labels.source === 'file')?.value).toBe(1);
    } finally {
      source.close();
    }
  });
});
