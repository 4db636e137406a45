import { readFileSync } from 'node:fs';
import path from 'node:path';
import { broadcastTextKeys, type BroadcastMoment } from '../../shared/broadcast-texts.ts';
import type { Language } from '../../shared/languages.ts';
import { LANGUAGE_BLOCK_FIELDS } from './languages.ts';
import { formatFinding, nearestName, type Finding } from './findings.ts';
import { parseJsonSource, type JsonSource } from './json-source.ts';
import { characterCount, localeTextLimit } from './text-limits.ts';

const PLURAL_SUFFIX = /^(.+)_(zero|one|two|few|many|other)$/;
/** `{{studio}}` and `{{date, datetime}}`: the name before any format. */
const INTERPOLATION = /{{\s*([^\s,}]+)[^}]*}}/g;
/** `$t(product)` and `$t(product, {"count": 1})`. */
const NESTING = /\$t\(\s*([^,)\s]+)/g;
/** The whole of such a reference, for putting the text it stands for in its place. */
const NESTING_WHOLE = /\$t\(\s*([^,)\s]+)[^)]*\)/g;

interface Text {
  path: string[];
  value: string;
}

interface LocaleFile {
  language: Language;
  /** The locale its `language` block names (its plural rules), else the code. */
  locale: string;
  displayPath: string;
  source: JsonSource;
  /** Every text by its dotted key. */
  texts: Map<string, Text>;
}

/** What the translation check found: each problem and each warning, one line with file and line. */
export interface TranslationCheck {
  problems: string[];
  warnings: string[];
}

/**
 * Checks the translation files against the default language's: every key of the default exists in
 * the others and no file has keys the default lacks, allowing for each language's own plural
 * forms (as Intl.PluralRules gives them); no text is empty; every interpolation a text uses is
 * kept in each translation; every `$t(key)` refers to a key; no text the hero shows is longer than
 * its limit (LOCALE_TEXT_LIMITS); where the content file's programme is known (`segmentIds`), each
 * of its segments has a title in every language, and a segment the programme does not list is
 * told as a warning. A syntax error is told on its line
 * and the file read past it. A file that cannot be read is left to readLanguages, which tells it
 * on the content file's line of the language.
 */
export function checkTranslations(
  localesDir: string,
  languages: readonly Language[],
  displayDir = 'locales',
  segmentIds?: readonly string[],
): TranslationCheck {
  const problems: string[] = [];
  const warnings: string[] = [];
  const files = new Map<Language, LocaleFile>();
  for (const language of languages) {
    const displayPath = path.join(displayDir, language, 'translation.json');
    let text: string;
    try {
      text = readFileSync(path.join(localesDir, language, 'translation.json'), 'utf8');
    } catch {
      continue;
    }
    const source = parseJsonSource(text);
    const findings = [...source.problems];
    const texts =
      source.value === undefined ? new Map<string, Text>() : textsOf(source, (finding) => findings.push(finding));
    problems.push(...findings.sort((a, b) => a.line - b.line).map((finding) => formatFinding(displayPath, finding)));
    warnings.push(
      ...source.warnings.map((finding) =>
        formatFinding(displayPath, { ...finding, message: `warning: ${finding.message}` }),
      ),
    );
    files.set(language, { language, locale: localeOf(source.value, language), displayPath, source, texts });
  }
  const reference = files.get(languages[0]!);
  if (!reference) return { problems, warnings };
  // A segment's title is told missing once, with the segment that needs it (missingSegmentTitles).
  const titleKeys = new Set(segmentIds?.map((id) => `programme.segments.${id}.title`));
  for (const file of files.values()) {
    if (segmentIds) warnings.push(...unlistedSegments(file, segmentIds));
    const findings = [
      ...missingBroadcastTexts(file),
      ...(segmentIds ? missingSegmentTitles(file, segmentIds) : []),
      ...segmentFields(file),
      ...(file === reference ? [] : compareKeys(reference, file, titleKeys)),
      ...compareInterpolations(reference, file),
      ...checkNesting(file),
      ...checkLengths(file),
    ].sort((a, b) => a.line - b.line);
    problems.push(...findings.map((finding) => formatFinding(file.displayPath, finding)));
  }
  return { problems, warnings };
}

function textsOf(source: JsonSource, report: (finding: Finding) => void): Map<string, Text> {
  const texts = new Map<string, Text>();
  const walk = (value: unknown, at: string[]) => {
    if (typeof value === 'string') {
      texts.set(at.join('.'), { path: at, value });
      // i18next shows the key's name for an empty text: in the title, the heading, the calendar.
      if (value.trim() === '')
        report({ line: source.lineOf(at), message: `${at.join('.')} is empty: every text needs words` });
    } else if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [key, inner] of Object.entries(value)) {
        // The language's own description is no text to translate: readLanguages checks it.
        if (at.length === 1 && at[0] === 'language' && (LANGUAGE_BLOCK_FIELDS as readonly string[]).includes(key))
          continue;
        walk(inner, [...at, key]);
      }
    } else
      report({
        line: source.lineOf(at),
        message: `${at.join('.') || '(the file)'} must be text or an object of texts`,
      });
  };
  walk(source.value, []);
  return texts;
}

/** A key's plural family (`countdown.days` for `countdown.days_one`), or null. */
function pluralOf(key: string): { family: string; category: string } | null {
  const match = PLURAL_SUFFIX.exec(key);
  return match ? { family: match[1]!, category: match[2]! } : null;
}

function localeOf(file: unknown, language: Language): string {
  const locale = (file as { language?: { locale?: unknown } } | null)?.language?.locale;
  try {
    return typeof locale === 'string' ? Intl.getCanonicalLocales(locale)[0]! : language;
  } catch {
    return language;
  }
}

function pluralCategories(file: LocaleFile): string[] {
  return new Intl.PluralRules(file.locale).resolvedOptions().pluralCategories;
}

function compareKeys(reference: LocaleFile, file: LocaleFile, toldElsewhere: ReadonlySet<string>): Finding[] {
  const findings: Finding[] = [];
  const categories = pluralCategories(file);
  const families = new Set([...reference.texts.keys()].map((key) => pluralOf(key)?.family).filter(Boolean));
  const lineOf = (key: string) => file.source.lineOf(key.split('.'));
  for (const key of reference.texts.keys()) {
    // A text of the broadcast is told missing once, with when the page says it (missingBroadcastTexts).
    if (file.texts.has(key) || BROADCAST_TEXT_KEYS.has(key) || toldElsewhere.has(key)) continue;
    const plural = pluralOf(key);
    // A plural form the language does not have (English has no "few") is not missing.
    if (plural && !categories.includes(plural.category)) continue;
    findings.push({ line: lineOf(key), message: `${key} is missing (${reference.language} has it)` });
  }
  // Each of the language's own plural forms of a family the default has, and `other` at least.
  for (const family of families) {
    const other = `${family}_other`;
    if (!file.texts.has(other) && !reference.texts.has(other))
      findings.push({ line: lineOf(other), message: `${other} is missing (every plural needs its "other" form)` });
  }
  for (const key of file.texts.keys()) {
    if (reference.texts.has(key)) continue;
    const plural = pluralOf(key);
    if (plural && families.has(plural.family)) {
      if (!categories.includes(plural.category))
        findings.push({
          line: lineOf(key),
          message: `${key} is not a plural form of ${file.language} (its forms: ${categories.join(', ')})`,
        });
      continue;
    }
    const nearest = nearestName(key, [...reference.texts.keys()]);
    findings.push({
      line: lineOf(key),
      message: `${key} is not a key of ${reference.language}${nearest ? `; did you mean ${nearest}?` : ''}`,
    });
  }
  return findings;
}

const BROADCAST_TEXT_KEYS = broadcastTextKeys();

/** When the page says a text of the broadcast first, for the message that names one missing. */
const MOMENT_WORDS: Record<BroadcastMoment, string> = {
  before: 'before the start',
  moved: "before a start the day's times moved",
  live: 'during the broadcast',
  after: 'after the broadcast',
  awaiting: 'after the broadcast, while the recording the content file plans is not named',
  recording: 'after the broadcast, once its recording is named',
  cancelled: 'when the event is cancelled',
  postponed: 'when the event is postponed',
};

/**
 * The texts that speak of the broadcast at each moment of the day (shared/broadcast-texts.ts) are
 * needed in every language, the default's too: without one the page would show its key.
 */
function missingBroadcastTexts(file: LocaleFile): Finding[] {
  return [...BROADCAST_TEXT_KEYS]
    .filter(([key]) => !file.texts.has(key))
    .map(([key, moment]) => ({
      line: file.source.lineOf(key.split('.')),
      message: `${key} is missing: the page says it ${MOMENT_WORDS[moment]}`,
    }));
}

/** `programme.segments.<id>.<field>`: a segment's texts, keyed by the content file's id. */
const SEGMENT_TEXT = /^programme\.segments\.([^.]+)\.(.+)$/;
const SEGMENT_FIELDS = ['title', 'description'];

/** Every segment of the content file's programme needs its title, the default language's too. */
function missingSegmentTitles(file: LocaleFile, segmentIds: readonly string[]): Finding[] {
  return segmentIds
    .filter((id) => !file.texts.has(`programme.segments.${id}.title`))
    .map((id) => ({
      line: file.source.lineOf(['programme', 'segments', id, 'title']),
      message: `programme.segments.${id}.title is missing: the content file's programme lists "${id}"`,
    }));
}

/** A segment has a title and a description, nothing else. */
function segmentFields(file: LocaleFile): Finding[] {
  return [...file.texts]
    .filter(([key]) => {
      const field = SEGMENT_TEXT.exec(key)?.[2];
      return field !== undefined && !SEGMENT_FIELDS.includes(field);
    })
    .map(([key, text]) => ({
      line: file.source.lineOf(text.path),
      message: `${key} is not a text of a segment (${SEGMENT_FIELDS.join(', ')})`,
    }));
}

/** Texts of a segment the programme does not list: no page shows them, which is likely a mistake. */
function unlistedSegments(file: LocaleFile, segmentIds: readonly string[]): string[] {
  const unlisted = new Map<string, Text>();
  for (const [key, text] of file.texts) {
    const id = SEGMENT_TEXT.exec(key)?.[1];
    if (id !== undefined && !segmentIds.includes(id) && !unlisted.has(id)) unlisted.set(id, text);
  }
  return [...unlisted].map(([id, text]) =>
    formatFinding(file.displayPath, {
      line: file.source.lineOf(text.path.slice(0, 3)),
      message: `warning: programme.segments.${id} is not a segment of the content file's programme: no page shows it`,
    }),
  );
}

const namesIn = (text: string, pattern: RegExp) => new Set([...text.matchAll(pattern)].map((match) => match[1]!));

/** The interpolations of a key, or of its whole plural family (a form may leave `{{count}}` out). */
function interpolationsOf(file: LocaleFile, key: string): Set<string> {
  const family = pluralOf(key)?.family;
  const names = new Set<string>();
  for (const [other, text] of file.texts)
    if (other === key || (family && pluralOf(other)?.family === family))
      for (const name of namesIn(text.value, INTERPOLATION)) names.add(name);
  return names;
}

function compareInterpolations(reference: LocaleFile, file: LocaleFile): Finding[] {
  const findings: Finding[] = [];
  for (const [key, text] of file.texts) {
    const referenceKey = reference.texts.has(key) ? key : samePluralFamily(reference, key);
    if (!referenceKey) continue;
    const expected = interpolationsOf(reference, referenceKey);
    const used = pluralOf(key) ? interpolationsOf(file, key) : namesIn(text.value, INTERPOLATION);
    const line = file.source.lineOf(text.path);
    for (const name of expected) if (!used.has(name)) findings.push({ line, message: `${key} must keep {{${name}}}` });
    for (const name of namesIn(text.value, INTERPOLATION))
      if (!expected.has(name))
        findings.push({ line, message: `${key} uses {{${name}}}, which ${reference.language} does not` });
  }
  return findings;
}

function samePluralFamily(reference: LocaleFile, key: string): string | null {
  const family = pluralOf(key)?.family;
  if (!family) return null;
  return [...reference.texts.keys()].find((other) => pluralOf(other)?.family === family) ?? null;
}

function checkNesting(file: LocaleFile): Finding[] {
  const findings: Finding[] = [];
  const known = (key: string) => file.texts.has(key) || file.texts.has(`${key}_other`);
  for (const [key, text] of file.texts)
    for (const target of namesIn(text.value, NESTING))
      if (!known(target))
        findings.push({
          line: file.source.lineOf(text.path),
          message: `${key} refers to $t(${target}), which is not a key of ${file.language}`,
        });
  return findings;
}

/**
 * The texts the hero shows, each at most as long as its limit, counted as shown: a `$t(key)` as the
 * text it stands for (`$t(product)` as the name), an interpolation (`{{time}}`) as written. A text
 * too long only by a reference that is itself too long (the title by the name) is told once, at the
 * reference.
 */
function checkLengths(file: LocaleFile): Finding[] {
  const over = new Map<string, Finding>();
  for (const [key, text] of file.texts) {
    const limit = limitOf(key);
    if (limit === undefined) continue;
    const count = characterCount(asShown(file, text.value));
    if (count <= limit) continue;
    const nested = [...namesIn(text.value, NESTING)].map((name) => `$t(${name})`);
    over.set(key, {
      line: file.source.lineOf(text.path),
      message: `${key} has ${count} characters${nested.length ? ` with ${nested.join(', ')}` : ''}, at most ${limit}`,
    });
  }
  return [...over]
    .filter(([key]) => ![...namesIn(file.texts.get(key)!.value, NESTING)].some((name) => over.has(name)))
    .map(([, finding]) => finding);
}

/** A key's limit, or its plural family's; undefined for a text the hero does not show. */
function limitOf(key: string): number | undefined {
  return localeTextLimit(key) ?? localeTextLimit(pluralOf(key)?.family ?? '');
}

/** A text with each `$t(key)` replaced by that key's text, as i18next shows it (a loop or unknown key: nothing). */
function asShown(file: LocaleFile, value: string, seen: readonly string[] = []): string {
  return value.replace(NESTING_WHOLE, (_whole, name: string) => {
    const target = file.texts.get(name) ?? file.texts.get(`${name}_other`);
    return target && !seen.includes(name) ? asShown(file, target.value, [...seen, name]) : '';
  });
}
