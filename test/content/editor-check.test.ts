import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { formatFinding } from '../../server/content/findings.ts';
import { contentJsonSchema } from '../../server/content/json-schema.ts';
import { checkContentText } from '../../server/content/site-content.ts';
import { LANGUAGES } from '../helpers/languages.ts';
import { tempDir } from '../helpers/temp-dirs.ts';
import { checkTranslations } from '../../server/content/translation-check.ts';
import { APP_ROOT, DEFAULT_CONTENT_PATH, LOCALES_DIR } from '../../server/config/paths.ts';
import { LOCALE_TEXT_LIMITS, TEXT_LIMITS } from '../../server/content/text-limits.ts';

/**
 * The content check as an editor meets it: one broken file per rule, each with the exact line
 * `npm run check:content` prints for it; and the editor's JSON Schema refusing the same files
 * wherever a JSON Schema can say so.
 */
const SHIPPED = readFileSync(DEFAULT_CONTENT_PATH, 'utf8');
const FILE = 'content/event.json';
/** Before the sample event: nothing has passed yet. */
const NOW = Date.parse('2026-11-25T00:00:00Z');

/** The 1-based line of the first occurrence of `needle` (after `after`, when given). */
function lineOf(text: string, needle: string, after = ''): number {
  const start = after ? text.indexOf(after) : 0;
  const index = text.indexOf(needle, start);
  if (start < 0 || index < 0) throw new Error(`not in the file: ${after} ${needle}`);
  return text.slice(0, index).split('\n').length;
}

function replaced(search: string, replacement: string, after = ''): string {
  const start = after ? SHIPPED.indexOf(after) : 0;
  const index = SHIPPED.indexOf(search, start);
  if (index < 0) throw new Error(`not in the file: ${search}`);
  return SHIPPED.slice(0, index) + replacement + SHIPPED.slice(index + search.length);
}

function edited(edit: (content: any) => void): string {
  const content = JSON.parse(SHIPPED);
  edit(content);
  return `${JSON.stringify(content, null, 2)}\n`;
}

const studioBlock = (index: number) => `"id": "${JSON.parse(SHIPPED).studios[index].id}"`;

interface Case {
  rule: string;
  text: string;
  /** The line, or lines, the check prints for it. */
  line: (text: string) => string | string[];
  /** Whether the editor's JSON Schema can refuse it too (unique ids and end after start are the check's alone). */
  schema: boolean;
}

const recordingUrl = '"recordingURL": "https://video.example.com/replay",';
const twiceDate = (date: string) => replaced('"date": "2027-03-18",', `"date": "2027-03-18",\n    "date": "${date}",`);

/** Issue 32, item 1: every object refuses a key it does not know, and a key written twice. */
const NOTHING_UNKNOWN_TWICE_OR_EMPTY: Case[] = [
  {
    rule: 'a misspelt optional field of the event, the file otherwise right',
    text: replaced('"status": "EventScheduled",', `"status": "EventScheduled",\n    ${recordingUrl}`),
    line: (t) =>
      `${FILE}:${lineOf(t, '"recordingURL"')}: \`event.recordingURL\` is not a field; did you mean \`event.recordingUrl\`?`,
    schema: true,
  },
  {
    rule: "a misspelt field of a studio's picture",
    text: replaced('"width": 960', '"widht": 960', studioBlock(1)),
    line: (t) =>
      `${FILE}:${lineOf(t, '"widht"')}: \`studios.1.picture.widht\` is not a field; did you mean \`studios.1.picture.width\`?`,
    schema: true,
  },
  {
    rule: 'a field written twice',
    text: twiceDate('2027-03-19'),
    line: (t) =>
      `${FILE}:${lineOf(t, '"date": "2027-03-19"')}: event.date "2027-03-19" is written a second time (first on line ${lineOf(t, '"date"')}); a field may be written once`,
    // Both writings are the same field to a JSON Schema.
    schema: false,
  },
  {
    rule: 'a field written twice, the later one wrong',
    text: twiceDate('2027-02-30'),
    line: (t) => [
      `${FILE}:${lineOf(t, '"date": "2027-02-30"')}: event.date "2027-02-30" is written a second time (first on line ${lineOf(t, '"date"')}); a field may be written once`,
      `${FILE}:${lineOf(t, '"date": "2027-02-30"')}: event.date "2027-02-30" is not a date in the calendar`,
    ],
    schema: true,
  },
];

const YOUTUBE_ID = 'M7lc1UVf-VE';
const embedUrl = (address: string) => edited((c) => (c.video.embedUrl = address));
const VIDEO_FORMS =
  'https://www.youtube-nocookie.com/embed/<id>, https://www.youtube.com/embed/<id> or https://player.vimeo.com/video/<id>';
const MAP_FORMS =
  'Google Maps’ https://www.google.com/maps/embed?pb=… or https://www.google.com/maps?q=<address>&output=embed, or OpenStreetMap’s https://www.openstreetmap.org/export/embed.html?bbox=…';
const countryCode = (code: string) => replaced('"countryCode": "AT"', `"countryCode": "${code}"`, '"company"');

/** Issue 32, item 3: addresses a provider frames, assigned country codes, known time zones. */
const ADDRESSES_THAT_WORK: Case[] = [
  ...[`https://www.youtube.com/watch?v=${YOUTUBE_ID}`, `https://youtu.be/${YOUTUBE_ID}`].map((address): Case => ({
    rule: `a YouTube page as the stream: ${address}`,
    text: embedUrl(address),
    line: (t) =>
      `${FILE}:${lineOf(t, '"embedUrl"')}: video.embedUrl "${address}" is a YouTube page, which YouTube does not let other sites frame; did you mean https://www.youtube-nocookie.com/embed/${YOUTUBE_ID}?controls=0&rel=0&playsinline=1?`,
    schema: true,
  })),
  {
    rule: 'a Vimeo page as the stream',
    text: embedUrl('https://vimeo.com/76979871'),
    line: (t) =>
      `${FILE}:${lineOf(t, '"embedUrl"')}: video.embedUrl "https://vimeo.com/76979871" is a Vimeo page, which Vimeo does not let other sites frame; did you mean https://player.vimeo.com/video/76979871?`,
    schema: true,
  },
  {
    rule: 'a stream from a provider the page cannot frame',
    text: embedUrl('https://www.twitch.tv/horizonlive'),
    line: (t) =>
      `${FILE}:${lineOf(t, '"embedUrl"')}: video.embedUrl "https://www.twitch.tv/horizonlive" is not a video player address its provider lets other sites frame: use ${VIDEO_FORMS}`,
    schema: true,
  },
  {
    rule: "a studio's map link where its embed address belongs",
    text: edited(
      (c) => (c.studios[1].mapEmbedUrl = 'https://www.google.com/maps/search/?api=1&query=Avenida+del+Mar+12'),
    ),
    line: (t) =>
      `${FILE}:${lineOf(t, '"mapEmbedUrl"', studioBlock(1))}: studios.1.mapEmbedUrl "https://www.google.com/maps/search/?api=1&query=Avenida+del+Mar+12" is not a map address its provider lets other sites frame (use ${MAP_FORMS}); did you mean https://www.google.com/maps?q=Avenida+del+Mar+12&output=embed?`,
    schema: true,
  },
  {
    rule: 'a map from a site that is no map provider',
    text: edited((c) => (c.studios[2].mapEmbedUrl = 'https://maps.example.com/embed?q=Wien')),
    line: (t) =>
      `${FILE}:${lineOf(t, '"mapEmbedUrl"', studioBlock(2))}: studios.2.mapEmbedUrl "https://maps.example.com/embed?q=Wien" is not a map address its provider lets other sites frame (use ${MAP_FORMS})`,
    schema: true,
  },
  {
    rule: 'UK, which ISO keeps for the United Kingdom without assigning it',
    text: countryCode('UK'),
    line: (t) =>
      `${FILE}:${lineOf(t, '"countryCode"', '"company"')}: company.countryCode "UK" is not an ISO 3166-1 country code; did you mean GB?`,
    schema: false,
  },
  // Known to Intl, but no country's code: the Union, the Nations, user-assigned codes.
  ...['EU', 'UN', 'XK', 'ZZ', 'QO'].map((code): Case => ({
    rule: `the code ${code}, which ISO has assigned to no country`,
    text: countryCode(code),
    line: (t) =>
      `${FILE}:${lineOf(t, '"countryCode"', '"company"')}: company.countryCode "${code}" is not an ISO 3166-1 country code (two letters such as AT, DE or GB)`,
    schema: false,
  })),
  {
    rule: 'a misspelt time zone far from the example',
    text: replaced('"timeZone": "Europe/Vienna"', '"timeZone": "America/New_Yrok"'),
    line: (t) =>
      `${FILE}:${lineOf(t, '"timeZone"')}: event.timeZone "America/New_Yrok" is not an IANA time zone; did you mean America/New_York?`,
    schema: false,
  },
];

/** Issue 36, item 7: the frames' providers, named in the content, and their placeholder's picture from this site. */
const EMBED_PROVIDERS: Case[] = [
  {
    rule: 'a stream whose provider is not named',
    text: edited((c) => delete c.video.provider),
    line: (t) => `${FILE}:${lineOf(t, '"video"')}: video.provider is missing`,
    schema: true,
  },
  {
    rule: 'a provider loaded in a way the page does not know',
    text: replaced('"load": "on-click"', '"load": "on-scroll"', '"maps"'),
    line: (t) =>
      `${FILE}:${lineOf(t, '"load"', '"maps"')}: maps.provider.load "on-scroll" must be one of "on-click", "at-once"`,
    schema: true,
  },
  {
    rule: 'a placeholder picture from another site, which would tell that site of the visit',
    text: edited((c) => (c.video.poster = { src: 'https://photos.example.org/stage.jpg' })),
    line: (t) =>
      `${FILE}:${lineOf(t, '"src": "https://photos.example.org/stage.jpg"')}: video.poster.src "https://photos.example.org/stage.jpg" must be a file of this site, starting with "/"`,
    schema: true,
  },
  {
    rule: 'a stream from another host that serves a player path',
    text: embedUrl(`https://player.example.net/embed/${YOUTUBE_ID}`),
    line: (t) =>
      `${FILE}:${lineOf(t, '"embedUrl"')}: video.embedUrl "https://player.example.net/embed/${YOUTUBE_ID}" is not a video player address its provider lets other sites frame: use ${VIDEO_FORMS}`,
    schema: true,
  },
];

/** Issue 32, item 4: a syntax error on its own line, in plain words, and the rest still read. */
const EVERY_PROBLEM_AT_ONCE: Case[] = [
  {
    rule: 'a trailing comma',
    text: replaced('"updated": "2026-11-01T09:00:00Z"', '"updated": "2026-11-01T09:00:00Z",'),
    line: (t) =>
      `${FILE}:${lineOf(t, '"updated"')}: not valid JSON here: a trailing comma after the last field (JSON allows none)`,
    schema: false,
  },
  {
    rule: 'a trailing comma in a list, and a mistake after it',
    text: replaced('"languages": ["de", "en", "es"]', '"languages": ["de", "en", "es",]').replace(
      '"countryCode": "CH"',
      '"countryCode": "UK"',
    ),
    line: (t) => [
      `${FILE}:${lineOf(t, '"languages"')}: not valid JSON here: a trailing comma after the last item (JSON allows none)`,
      `${FILE}:${lineOf(t, '"countryCode": "UK"')}: studios.3.countryCode "UK" is not an ISO 3166-1 country code; did you mean GB?`,
    ],
    schema: false,
  },
];

const { studioName: NAME_LIMIT, city: CITY_LIMIT } = TEXT_LIMITS;
/** One letter `length` times: each rule's own letter, so that its line is found by its value. */
const letters = (letter: string, length: number) => letter.repeat(length);

/** The studios' names and cities the hero shows, each within the limit the layout is tested at. */
const TEXTS_THE_HERO_HOLDS: Case[] = [
  {
    rule: "a studio's name one character over its limit",
    text: edited((c) => (c.studios[1].name = letters('N', NAME_LIMIT + 1))),
    line: (t) =>
      `${FILE}:${lineOf(t, '"name"', studioBlock(1))}: studios.1.name "${letters('N', NAME_LIMIT + 1)}" has ${NAME_LIMIT + 1} characters, at most ${NAME_LIMIT}`,
    schema: true,
  },
  {
    rule: "a studio's name, a display city and a city in another language, each over its limit, all told",
    text: edited((c) => {
      c.studios[0].name = letters('A', NAME_LIMIT + 30);
      c.studios[3].displayCity = letters('B', CITY_LIMIT + 1);
      c.studios[2].localized.es.city = letters('C', CITY_LIMIT + 2);
    }),
    line: (t) => [
      `${FILE}:${lineOf(t, '"AAA')}: studios.0.name "${letters('A', 77)}..." has ${NAME_LIMIT + 30} characters, at most ${NAME_LIMIT}`,
      `${FILE}:${lineOf(t, '"CCC')}: studios.2.localized.es.city "${letters('C', CITY_LIMIT + 2)}" has ${CITY_LIMIT + 2} characters, at most ${CITY_LIMIT}`,
      `${FILE}:${lineOf(t, '"BBB')}: studios.3.displayCity "${letters('B', CITY_LIMIT + 1)}" has ${CITY_LIMIT + 1} characters, at most ${CITY_LIMIT}`,
    ],
    schema: true,
  },
];

/** The programme: what would tell a visitor a wrong time or studio is refused, on the segment's line. */
const segmentLine = (t: string, id: string) => lineOf(t, `"id": "${id}"`);
const PROGRAMME_THAT_HOLDS: Case[] = [
  {
    rule: 'a segment before the start',
    text: replaced('"start": "18:00"', '"start": "17:50"'),
    line: (t) => `${FILE}:${segmentLine(t, 'welcome')}: programme.0.start "17:50" is before event.startTime "18:00"`,
    schema: false,
  },
  {
    rule: 'a segment at the end',
    text: replaced('"start": "21:15"', '"start": "21:30"'),
    line: (t) =>
      `${FILE}:${segmentLine(t, 'farewell')}: programme.6.start "21:30" is not before event.endTime "21:30": the segment would never be on air`,
    schema: false,
  },
  {
    rule: 'segments out of order',
    text: replaced('"start": "18:55"', '"start": "18:10"'),
    line: (t) =>
      `${FILE}:${segmentLine(t, 'products')}: programme.2.start "18:10" is before programme.1.start "18:15": list the segments in their order`,
    schema: false,
  },
  {
    rule: 'two segments at the same minute',
    text: replaced('"start": "18:15"', '"start": "18:00"'),
    line: (t) =>
      `${FILE}:${segmentLine(t, 'keynote')}: programme.1.start "18:00" is programme.0's start too: each segment needs its own minute`,
    schema: false,
  },
  {
    rule: 'a segment from a studio that is not there',
    text: replaced('"studio": "munich" }', '"studio": "berlin" }'),
    line: (t) =>
      `${FILE}:${segmentLine(t, 'keynote')}: programme.1.studio "berlin" is not the id of a studio; the ids are munich, marbella, vienna, zurich`,
    schema: false,
  },
  {
    rule: 'two segments with one id',
    text: replaced('"id": "panel"', '"id": "keynote"'),
    line: (t) =>
      `${FILE}:${lineOf(t, '"id": "keynote"', '"start": "19:40"')}: programme.4.id "keynote" is already the id of programme.1`,
    schema: false,
  },
  {
    rule: 'a segment whose start is not a time',
    text: replaced('"start": "19:40"', '"start": "7:40 pm"'),
    line: (t) => `${FILE}:${segmentLine(t, 'music')}: programme.3.start "7:40 pm" must be a time like 18:00`,
    schema: true,
  },
  {
    rule: 'a segment id a locale key cannot hold',
    text: replaced('"id": "music"', '"id": "Music.Break"'),
    line: (t) =>
      `${FILE}:${lineOf(t, '"Music.Break"')}: programme.3.id "Music.Break" must be lower-case letters, digits and dashes`,
    schema: true,
  },
];

const CASES: Case[] = [
  {
    rule: 'a day February does not have',
    text: replaced('"date": "2027-03-18"', '"date": "2027-02-30"'),
    line: (t) => `${FILE}:${lineOf(t, '"date"')}: event.date "2027-02-30" is not a date in the calendar`,
    schema: true,
  },
  {
    rule: '29 February of a common year',
    text: replaced('"date": "2027-03-18"', '"date": "2027-02-29"'),
    line: (t) => `${FILE}:${lineOf(t, '"date"')}: event.date "2027-02-29" is not a date in the calendar`,
    schema: true,
  },
  {
    rule: '31 April',
    text: replaced('"date": "2027-03-18"', '"date": "2027-04-31"'),
    line: (t) => `${FILE}:${lineOf(t, '"date"')}: event.date "2027-04-31" is not a date in the calendar`,
    schema: true,
  },
  {
    rule: 'a date written another way',
    text: replaced('"date": "2027-03-18"', '"date": "18.03.2027"'),
    line: (t) => `${FILE}:${lineOf(t, '"date"')}: event.date "18.03.2027" must be a date like 2027-03-18`,
    schema: true,
  },
  {
    rule: 'the hour 24',
    text: replaced('"startTime": "18:00"', '"startTime": "24:00"'),
    line: (t) => `${FILE}:${lineOf(t, '"startTime"')}: event.startTime "24:00" is not a time of day (00:00 to 23:59)`,
    schema: true,
  },
  {
    rule: 'the minute 60',
    text: replaced('"startTime": "18:00"', '"startTime": "18:60"'),
    line: (t) => `${FILE}:${lineOf(t, '"startTime"')}: event.startTime "18:60" is not a time of day (00:00 to 23:59)`,
    schema: true,
  },
  {
    rule: 'a misspelt time zone',
    text: replaced('"timeZone": "Europe/Vienna"', '"timeZone": "Europe/Viena"'),
    line: (t) =>
      `${FILE}:${lineOf(t, '"timeZone"')}: event.timeZone "Europe/Viena" is not an IANA time zone; did you mean Europe/Vienna?`,
    // A pattern cannot know which zones exist.
    schema: false,
  },
  {
    rule: 'an offset instead of a zone',
    text: replaced('"timeZone": "Europe/Vienna"', '"timeZone": "+01:00"'),
    line: (t) =>
      `${FILE}:${lineOf(t, '"timeZone"')}: event.timeZone "+01:00" is not an IANA time zone such as Europe/Vienna`,
    schema: true,
  },
  {
    rule: 'an end before the start',
    text: replaced('"endTime": "21:30"', '"endTime": "17:00"'),
    line: (t) =>
      `${FILE}:${lineOf(t, '"endTime"')}: event.endTime "17:00" must be later than event.startTime "18:00" (an event ends by midnight of its date)`,
    schema: false,
  },
  {
    rule: 'an end at the start',
    text: replaced('"endTime": "21:30"', '"endTime": "18:00"'),
    line: (t) =>
      `${FILE}:${lineOf(t, '"endTime"')}: event.endTime "18:00" must be later than event.startTime "18:00" (an event ends by midnight of its date)`,
    schema: false,
  },
  {
    rule: 'a misspelt field',
    text: replaced('"startTime"', '"startTim"'),
    line: (t) =>
      `${FILE}:${lineOf(t, '"startTim"')}: \`event.startTim\` is not a field; did you mean \`event.startTime\`?`,
    schema: true,
  },
  {
    rule: 'a misspelt field nested in a studio',
    text: replaced('"postalCode"', '"postcode"', studioBlock(2)),
    line: (t) =>
      `${FILE}:${lineOf(t, '"postcode"')}: \`studios.2.postcode\` is not a field; did you mean \`studios.2.postalCode\`?`,
    schema: true,
  },
  {
    rule: 'three studios',
    text: edited((c) => {
      const { id } = c.studios.pop();
      c.heroSlides.pop();
      c.programme = c.programme.filter((segment: { studio: string }) => segment.studio !== id);
    }),
    line: (t) => `${FILE}:${lineOf(t, '"studios"')}: studios lists 3 studios; the page has exactly 4`,
    schema: true,
  },
  {
    rule: 'five studios',
    text: edited((c) => c.studios.push({ ...c.studios[0], id: 'berlin' })),
    line: (t) => `${FILE}:${lineOf(t, '"studios"')}: studios lists 5 studios; the page has exactly 4`,
    schema: true,
  },
  {
    rule: 'two studios with one id',
    text: edited((c) => {
      const { id } = c.studios[3];
      c.studios[3].id = c.studios[1].id;
      c.heroSlides[3].studio = c.studios[1].id;
      for (const segment of c.programme) if (segment.studio === id) segment.studio = c.studios[1].id;
    }),
    line: (t) =>
      `${FILE}:${lineOf(t, studioBlock(1), studioBlock(2))}: studios.3.id "${JSON.parse(SHIPPED).studios[1].id}" is already the id of studios.1`,
    schema: false,
  },
  {
    rule: 'a hero slide that names its studio by name',
    text: replaced('"studio": "vienna"', '"studio": "Studio Wien"'),
    line: (t) =>
      `${FILE}:${lineOf(t, '"Studio Wien"')}: heroSlides.2.studio "Studio Wien" names a studio, not its id; did you mean \`vienna\`?`,
    schema: true,
  },
  {
    rule: 'a hero slide that names its studio by its city in another language',
    text: replaced('"studio": "zurich"', '"studio": "Zurich"'),
    line: (t) =>
      `${FILE}:${lineOf(t, '"Zurich"')}: heroSlides.3.studio "Zurich" names a studio, not its id; did you mean \`zurich\`?`,
    schema: true,
  },
  {
    rule: 'a hero slide with a misspelt studio id',
    text: replaced('"studio": "marbella"', '"studio": "marbela"'),
    line: (t) =>
      `${FILE}:${lineOf(t, '"marbela"')}: heroSlides.1.studio "marbela" is not the id of a studio; did you mean \`marbella\`?`,
    // A pattern cannot know which ids the studios have.
    schema: false,
  },
  {
    rule: 'a hero slide of a studio that is not listed',
    text: replaced('"studio": "munich"', '"studio": "berlin"'),
    line: (t) =>
      `${FILE}:${lineOf(t, '"berlin"')}: heroSlides.0.studio "berlin" is not the id of a studio; the ids are munich, marbella, vienna, zurich`,
    schema: false,
  },
  {
    rule: 'a studio renamed by its id, which its slide and the programme still name',
    text: replaced(studioBlock(2), '"id": "wien"'),
    line: (t) => [
      `${FILE}:${lineOf(t, '"studio": "vienna"')}: heroSlides.2.studio "vienna" names a studio, not its id; did you mean \`wien\`?`,
      ...['welcome', 'panel'].map(
        (id) =>
          `${FILE}:${lineOf(t, `"id": "${id}"`)}: programme.${id === 'welcome' ? 0 : 4}.studio "vienna" names a studio, not its id; did you mean \`wien\`?`,
      ),
    ],
    schema: false,
  },
  {
    rule: 'an embed address that is not https',
    text: replaced('"embedUrl": "https://', '"embedUrl": "http://'),
    line: (t) =>
      `${FILE}:${lineOf(t, '"embedUrl"')}: video.embedUrl "${JSON.parse(t).video.embedUrl.slice(0, 77)}..." must be an absolute https:// address`,
    schema: true,
  },
  {
    rule: 'a link without its scheme',
    text: edited((c) => (c.studios[1].siteUrl = 'studio-marbella.example.com')),
    line: (t) =>
      `${FILE}:${lineOf(t, '"siteUrl"', studioBlock(1))}: studios.1.siteUrl "studio-marbella.example.com" must be an absolute https:// address`,
    schema: true,
  },
  {
    rule: 'a file that is not JSON',
    text: replaced('"endTime": "21:30",', '"endTime": "21:30",,'),
    line: (t) => `${FILE}:${lineOf(t, ',,')}: not valid JSON here: a comma too many`,
    schema: false,
  },
  ...NOTHING_UNKNOWN_TWICE_OR_EMPTY,
  ...ADDRESSES_THAT_WORK,
  ...EMBED_PROVIDERS,
  ...EVERY_PROBLEM_AT_ONCE,
  ...TEXTS_THE_HERO_HOLDS,
  ...PROGRAMME_THAT_HOLDS,
];

function validateWithSchema(text: string): boolean {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats.default(ajv);
  return ajv.compile(contentJsonSchema())(JSON.parse(text));
}

describe('the content check, one broken file per rule', () => {
  it('finds nothing wrong with the shipped file', () => {
    expect(checkContentText(SHIPPED, NOW).problems).toEqual([]);
    expect(validateWithSchema(SHIPPED)).toBe(true);
  });

  it("tells a slide's unknown studio beside a value of the wrong type elsewhere", () => {
    // A value of the wrong type stops zod's checks of the whole object unless they say otherwise.
    const text = replaced('"studio": "munich"', '"studio": "berlin"').replace(
      '"date": "2027-03-18"',
      '"date": 20270318',
    );
    const lines = checkContentText(text, NOW).problems.map((finding) => formatFinding(FILE, finding));
    expect(lines).toEqual(
      expect.arrayContaining([
        `${FILE}:${lineOf(text, '20270318')}: event.date 20270318 must be text`,
        `${FILE}:${lineOf(text, '"berlin"')}: heroSlides.0.studio "berlin" is not the id of a studio; the ids are munich, marbella, vienna, zurich`,
      ]),
    );
  });

  it.each(CASES.map((c) => [c.rule, c] as const))('%s', (_rule, { text, line, schema }) => {
    const lines = checkContentText(text, NOW).problems.map((finding) => formatFinding(FILE, finding));
    expect(lines).toEqual([line(text)].flat());
    if (schema) expect(validateWithSchema(text), 'the JSON Schema lets it through').toBe(false);
  });

  it('accepts texts at their limits, counting characters, not UTF-16 units', () => {
    const text = edited((c) => {
      // 🎬 is one character of two UTF-16 units.
      c.studios[1].name = `${letters('N', NAME_LIMIT - 1)}🎬`;
      c.studios[1].city = letters('ü', CITY_LIMIT);
      c.studios[0].localized.en.displayCity = letters('M', CITY_LIMIT);
    });
    expect(checkContentText(text, NOW).problems).toEqual([]);
    expect(validateWithSchema(text)).toBe(true);
  });

  it('accepts a byte-order mark, with a warning', () => {
    const checked = checkContentText(`\uFEFF${SHIPPED}`, NOW);
    expect(checked.problems).toEqual([]);
    expect(checked.content?.raw.event.date).toBe('2027-03-18');
    expect(checked.warnings.map((finding) => formatFinding(FILE, finding))).toContain(
      `${FILE}:1: the file starts with a byte-order mark, which is ignored (save it as UTF-8 without BOM)`,
    );
  });

  it('every object of the schema refuses a field it does not know', () => {
    const objects: Record<string, unknown>[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        const schema = node as Record<string, unknown>;
        if (schema.type === 'object' && schema.properties) objects.push(schema);
        Object.values(schema).forEach(walk);
      }
    };
    walk(contentJsonSchema());
    expect(objects.length).toBeGreaterThan(5);
    for (const object of objects)
      expect(object.additionalProperties, Object.keys(object.properties as object).join(', ')).toBe(false);
  });

  it('accepts a stand-in provider on this machine (the browser tests’ fake), with a warning', () => {
    const standIn = `https://127.0.0.1:8443/embed/${YOUTUBE_ID}?controls=0`;
    const text = edited((c) => {
      c.video.embedUrl = standIn;
      c.studios[0].mapEmbedUrl = 'https://127.0.0.1:8443/maps?q=Medienallee+7&output=embed';
    });
    const checked = checkContentText(text, NOW);
    expect(checked.problems).toEqual([]);
    const lines = checked.warnings.map((finding) => formatFinding(FILE, finding));
    expect(lines).toContain(
      `${FILE}:${lineOf(text, '"embedUrl"')}: video.embedUrl "${standIn}" is on this machine, a stand-in for the provider that no visitor can reach: set the provider’s address before going live`,
    );
    expect(lines.filter((line) => line.includes('studios.0.mapEmbedUrl'))).toHaveLength(1);
    expect(checked.content!.public.video.watchUrl).toBe(`https://127.0.0.1:8443/watch?v=${YOUTUBE_ID}`);
    // Only in the providers' own paths.
    expect(checkContentText(embedUrl('https://127.0.0.1:8443/live.html'), NOW).problems).toHaveLength(1);
  });

  it('names each provider, loads on a click unless told otherwise, and shows this site’s picture', () => {
    const { video, mapProvider } = checkContentText(SHIPPED, NOW).content!.public;
    expect(video.provider).toEqual({
      name: 'YouTube',
      privacyUrl: 'https://policies.google.com/privacy',
      load: 'on-click',
    });
    expect(mapProvider.name).toBe('Google Maps');
    expect(video.poster!.src).toBe('/images/hero/vienna-1600.jpg');
    const defaults = checkContentText(
      edited((c) => {
        delete c.video.poster;
        delete c.maps.provider.load;
      }),
      NOW,
    ).content!.public;
    expect(defaults.mapProvider.load).toBe('on-click');
    expect(defaults.video.poster!.src).toBe('/images/hero/munich-1600.jpg');
  });

  it('warns, without refusing, when the date has passed and where sample values remain', () => {
    const after = Date.parse('2027-03-19T00:00:00Z');
    const checked = checkContentText(SHIPPED, after);
    expect(checked.problems).toEqual([]);
    const lines = checked.warnings.map((finding) => formatFinding(FILE, finding));
    expect(lines).toContain(
      `${FILE}:${lineOf(SHIPPED, '"date"')}: event.date "2027-03-18" has passed: the page shows the broadcast as over`,
    );
    expect(lines).toContain(
      `${FILE}:${lineOf(SHIPPED, '"placeholder"', '"video"')}: video still holds sample values (its "placeholder" note)`,
    );
    expect(checkContentText(SHIPPED, NOW).warnings.map((w) => w.message)).not.toContainEqual(
      expect.stringContaining('has passed'),
    );
  });
});

describe('npm run check:content', () => {
  const run = promisify(execFile);
  const folder = mkdtempSync(path.join(tmpdir(), 'editor-check-'));

  it('prints every problem, with the path as given, and exits 1', async () => {
    const text = replaced('"date": "2027-03-18"', '"date": "2027-02-30"').replace('"startTime"', '"startTim"');
    writeFileSync(path.join(folder, 'event.json'), text);
    const failure = await run(
      process.execPath,
      ['--import', 'tsx', path.join(APP_ROOT, 'scripts/check-content.ts'), 'event.json'],
      {
        // As npm runs it: in the project, told where the command was typed.
        cwd: APP_ROOT,
        env: { ...process.env, INIT_CWD: folder },
      },
    ).catch((error: { code: number; stderr: string }) => error);
    expect('code' in failure && failure.code).toBe(1);
    expect(failure.stderr.trim().split('\n')).toEqual([
      `event.json:${lineOf(text, '"date"')}: event.date "2027-02-30" is not a date in the calendar`,
      `event.json:${lineOf(text, '"startTim"')}: \`event.startTim\` is not a field; did you mean \`event.startTime\`?`,
      '2 problems: the server would not start.',
    ]);
  });
});

describe('the translation check, one broken file per rule', () => {
  const de = readFileSync(path.join(LOCALES_DIR, 'de/translation.json'), 'utf8');
  const en = readFileSync(path.join(LOCALES_DIR, 'en/translation.json'), 'utf8');
  const es = readFileSync(path.join(LOCALES_DIR, 'es/translation.json'), 'utf8');

  function checkWith(language: 'de' | 'en' | 'es', text: string): string[] {
    const dir = mkdtempSync(path.join(tmpdir(), 'locales-'));
    cpSync(LOCALES_DIR, dir, { recursive: true });
    writeFileSync(path.join(dir, language, 'translation.json'), text);
    return checkTranslations(dir, LANGUAGES, 'locales').problems;
  }
  const editedJson = (text: string, edit: (t: any) => void) => {
    const json = JSON.parse(text);
    edit(json);
    return `${JSON.stringify(json, null, 2)}\n`;
  };

  it('finds nothing wrong with the shipped files', () => {
    expect(checkTranslations(LOCALES_DIR, LANGUAGES, 'locales')).toEqual({ problems: [], warnings: [] });
    expect(de).toBeTruthy();
  });

  it('a key the default has and a translation lacks', () => {
    const text = editedJson(en, (t) => delete t.hero.tagline);
    expect(checkWith('en', text)).toEqual([
      `locales/en/translation.json:${lineOf(text, '"hero"')}: hero.tagline is missing (de has it)`,
    ]);
  });

  it('a text the page says of the broadcast, missing in every language, the default too', () => {
    // As locale files written before the stream's section said why a cancelled event has no stream.
    const dir = tempDir('locales-');
    cpSync(LOCALES_DIR, dir, { recursive: true });
    const expected = LANGUAGES.map((language) => {
      const file = path.join(dir, language, 'translation.json');
      const text = editedJson(readFileSync(file, 'utf8'), (t) => delete t.video.introCancelled);
      writeFileSync(file, text);
      return `locales/${language}/translation.json:${lineOf(text, '"video"')}: video.introCancelled is missing: the page says it when the event is cancelled`;
    });
    expect(checkTranslations(dir, LANGUAGES, 'locales').problems).toEqual(expected);
  });

  describe("the programme's texts", () => {
    const SEGMENTS = ['welcome', 'keynote', 'products', 'music', 'panel', 'awards', 'farewell'];
    const checkWithProgramme = (language: 'de' | 'en' | 'es', text: string, segments = SEGMENTS) => {
      const dir = tempDir('locales-');
      cpSync(LOCALES_DIR, dir, { recursive: true });
      writeFileSync(path.join(dir, language, 'translation.json'), text);
      return checkTranslations(dir, LANGUAGES, 'locales', segments);
    };

    it('finds every segment of the shipped programme in the shipped files', () => {
      expect(checkTranslations(LOCALES_DIR, LANGUAGES, 'locales', SEGMENTS)).toEqual({ problems: [], warnings: [] });
    });

    it('a segment whose title a language lacks, told once, with the segment', () => {
      const text = editedJson(es, (t) => delete t.programme.segments.keynote.title);
      expect(checkWithProgramme('es', text).problems).toEqual([
        `locales/es/translation.json:${lineOf(text, '"keynote"')}: programme.segments.keynote.title is missing: the content file's programme lists "keynote"`,
      ]);
    });

    it('a segment no language has a title for, the default included', () => {
      const { problems } = checkWithProgramme('de', de, [...SEGMENTS, 'q-and-a']);
      expect(problems).toEqual(
        LANGUAGES.map(
          (language) =>
            `locales/${language}/translation.json:${lineOf({ de, en, es }[language], '"segments"')}: programme.segments.q-and-a.title is missing: the content file's programme lists "q-and-a"`,
        ),
      );
    });

    it('a title or a description longer than the programme is laid out for', () => {
      const text = editedJson(en, (t) => {
        t.programme.segments.keynote.title = letters('K', TEXT_LIMITS.segmentTitle + 1);
        t.programme.segments.panel.description = letters('P', TEXT_LIMITS.segmentDescription);
      });
      expect(checkWithProgramme('en', text).problems).toEqual([
        `locales/en/translation.json:${lineOf(text, '"KKK')}: programme.segments.keynote.title has ${TEXT_LIMITS.segmentTitle + 1} characters, at most ${TEXT_LIMITS.segmentTitle}`,
      ]);
    });

    it('a text a segment does not have', () => {
      const text = editedJson(en, (t) => (t.programme.segments.keynote.speaker = 'Anna Berger'));
      expect(checkWithProgramme('en', text).problems).toContain(
        `locales/en/translation.json:${lineOf(text, '"speaker"')}: programme.segments.keynote.speaker is not a text of a segment (title, description)`,
      );
    });

    it('warns of the texts of a segment the programme does not list, which no page shows', () => {
      const { problems, warnings } = checkWithProgramme(
        'de',
        de,
        SEGMENTS.filter((id) => id !== 'music'),
      );
      expect(problems).toEqual([]);
      expect(warnings).toEqual(
        LANGUAGES.map(
          (language) =>
            `locales/${language}/translation.json:${lineOf({ de, en, es }[language], '"music"')}: warning: programme.segments.music is not a segment of the content file's programme: no page shows it`,
        ),
      );
    });
  });

  it('a key the default lacks', () => {
    const text = en.replace('"tagline"', '"tagLine"');
    expect(checkWith('en', text)).toEqual([
      `locales/en/translation.json:${lineOf(text, '"hero"')}: hero.tagline is missing (de has it)`,
      `locales/en/translation.json:${lineOf(text, '"tagLine"')}: hero.tagLine is not a key of de; did you mean hero.tagline?`,
    ]);
  });

  it('a plural form the language does not have, and one it has', () => {
    const few = editedJson(en, (t) => (t.countdown.days_few = '{{count}} days'));
    expect(checkWith('en', few)).toEqual([
      `locales/en/translation.json:${lineOf(few, '"days_few"')}: countdown.days_few is not a plural form of en (its forms: one, other)`,
    ]);
    // Spanish has a "many" form (un millón de días): allowed, not required.
    const many = editedJson(es, (t) => (t.countdown.days_many = '{{count}} de días'));
    expect(checkWith('es', many)).toEqual([]);
  });

  it('an interpolation a translation drops or invents', () => {
    const dropped = en.replace('"Live from: {{studio}}"', '"Live from our studio"');
    expect(checkWith('en', dropped)).toEqual([
      `locales/en/translation.json:${lineOf(dropped, '"currentStudio"')}: hero.currentStudio must keep {{studio}}`,
    ]);
    const invented = en.replace('"Live from: {{studio}}"', '"Live from: {{studio}} in {{city}}"');
    expect(checkWith('en', invented)).toEqual([
      `locales/en/translation.json:${lineOf(invented, '"currentStudio"')}: hero.currentStudio uses {{city}}, which de does not`,
    ]);
  });

  it('an empty text, and a blank one', () => {
    const text = en
      .replace('"product": "Horizon Live 2027"', '"product": ""')
      .replace('"cta": "Watch the live stream"', '"cta": "  "');
    expect(checkWith('en', text)).toEqual([
      `locales/en/translation.json:${lineOf(text, '"product"')}: product is empty: every text needs words`,
      `locales/en/translation.json:${lineOf(text, '"cta"')}: hero.cta is empty: every text needs words`,
    ]);
  });

  it('a key written twice', () => {
    const text = en.replace('"skipToContent"', '"product": "Horizon",\n  "skipToContent"');
    expect(checkWith('en', text)).toEqual([
      `locales/en/translation.json:${lineOf(text, '"product": "Horizon"')}: product "Horizon" is written a second time (first on line ${lineOf(text, '"product"')}); a field may be written once`,
    ]);
  });

  it('a trailing comma, told once and on its own line, and the problems after it', () => {
    const text = en
      .replace(
        '"subtitle": "Please choose your preferred language"',
        '"subtitle": "Please choose your preferred language",',
      )
      .replace('"Live from: {{studio}}"', '"Live from our studio"');
    expect(checkWith('en', text)).toEqual([
      `locales/en/translation.json:${lineOf(text, '"subtitle"')}: not valid JSON here: a trailing comma after the last field (JSON allows none)`,
      `locales/en/translation.json:${lineOf(text, '"currentStudio"')}: hero.currentStudio must keep {{studio}}`,
    ]);
  });

  const EN = 'locales/en/translation.json';

  it('a text the hero shows one character over its limit, told with the limit; one at its limit passes', () => {
    const limit = LOCALE_TEXT_LIMITS['hero.tagline']!;
    const over = editedJson(en, (t) => (t.hero.tagline = letters('T', limit + 1)));
    expect(checkWith('en', over)).toEqual([
      `${EN}:${lineOf(over, '"tagline"')}: hero.tagline has ${limit + 1} characters, at most ${limit}`,
    ]);
    // 🎬 is one character of two UTF-16 units.
    const at = editedJson(en, (t) => (t.hero.tagline = `${letters('T', limit - 1)}🎬`));
    expect(checkWith('en', at)).toEqual([]);
  });

  it('the name over its limit, told once: not again for the title that shows it', () => {
    const limit = LOCALE_TEXT_LIMITS.product!;
    const text = editedJson(en, (t) => (t.product = letters('P', limit + 1)));
    expect(checkWith('en', text)).toEqual([
      `${EN}:${lineOf(text, '"product"')}: product has ${limit + 1} characters, at most ${limit}`,
    ]);
  });

  it('a title within its limit in the file, over it as shown, with the name it refers to', () => {
    const limit = LOCALE_TEXT_LIMITS['hero.title']!;
    const name = 'Horizon Live 2027';
    const text = editedJson(en, (t) => (t.hero.title = `$t(product): ${letters('L', limit - name.length)}`));
    expect(checkWith('en', text)).toEqual([
      `${EN}:${lineOf(text, '"title": "$t(product):')}: hero.title has ${limit + 2} characters with $t(product), at most ${limit}`,
    ]);
  });

  it('several texts over their limits in several files, a button and a plural form among them: all told', () => {
    const { button, countdownUnit, phaseSentence } = TEXT_LIMITS;
    const english = editedJson(en, (t) => {
      t.hero.cta = letters('C', button + 1);
      t.countdown.days_other = `{{count}} ${letters('D', countdownUnit)}`;
    });
    const spanish = editedJson(es, (t) => (t.hero.postponed = letters('E', phaseSentence + 5)));
    const dir = mkdtempSync(path.join(tmpdir(), 'locales-'));
    cpSync(LOCALES_DIR, dir, { recursive: true });
    writeFileSync(path.join(dir, 'en/translation.json'), english);
    writeFileSync(path.join(dir, 'es/translation.json'), spanish);
    expect(checkTranslations(dir, LANGUAGES, 'locales').problems).toEqual([
      `${EN}:${lineOf(english, '"cta"')}: hero.cta has ${button + 1} characters, at most ${button}`,
      `${EN}:${lineOf(english, '"days_other"')}: countdown.days_other has ${countdownUnit + 10} characters, at most ${countdownUnit}`,
      `locales/es/translation.json:${lineOf(spanish, '"postponed"')}: hero.postponed has ${phaseSentence + 5} characters, at most ${phaseSentence}`,
    ]);
  });

  it('a reference to a key that does not exist', () => {
    const text = en.replace('"Live from: {{studio}}"', '"$t(prodct): {{studio}}"');
    expect(checkWith('en', text)).toEqual([
      `locales/en/translation.json:${lineOf(text, '"currentStudio"')}: hero.currentStudio refers to $t(prodct), which is not a key of en`,
    ]);
  });
});
