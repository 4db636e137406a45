import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as REGION_FLAGS from 'country-flag-icons/string/3x2';
import type { LanguageInfo } from '../../shared/languages.ts';
import { formatFinding, quoted } from './findings.ts';
import { parseJsonSource, type JsonSource } from './json-source.ts';

/** The fields of a locale file's `language` block that describe the language itself. */
export const LANGUAGE_BLOCK_FIELDS = ['name', 'locale', 'dir', 'flag'] as const;

/** A region code the flag set draws ("FR", "GB-SCT"), or a file in the language's folder ("flag.svg"). */
const REGION_CODE = /^[A-Z]{2}(?:-[A-Z]{2,3})?$/;
const SVG_FILE = /^[\w.-]+\.svg$/;

/** What is wrong with one listed language: one line naming its locale file, the line and the field. */
export interface LanguageProblem {
  code: string;
  message: string;
}

/**
 * Reads each listed language's description from the `language` block at the top of its
 * `locales/<code>/translation.json`: its own name, its BCP 47 locale, its writing direction and,
 * optionally, its flag. Every problem is one line naming the file, the line and the field.
 */
export function readLanguages(
  localesDir: string,
  codes: readonly string[],
  displayDir = 'locales',
): { languages: LanguageInfo[]; problems: LanguageProblem[] } {
  const languages: LanguageInfo[] = [];
  const problems: LanguageProblem[] = [];
  for (const code of codes) {
    const displayPath = path.join(displayDir, code, 'translation.json');
    let source: JsonSource;
    try {
      // A syntax error of the file is the translation check's to tell, on the file's own line;
      // the language block is read past it.
      source = parseJsonSource(readFileSync(path.join(localesDir, code, 'translation.json'), 'utf8'));
    } catch (error) {
      problems.push({
        code,
        message: `${displayPath}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      });
      continue;
    }
    const found: string[] = [];
    const report = (field: string, message: string) =>
      found.push(formatFinding(displayPath, { line: source.lineOf(['language', field]), message }));
    const block = (source.value as { language?: Record<string, unknown> } | null)?.language ?? {};
    const { name, locale, dir, flag } = block;

    if (typeof name !== 'string' || name.trim() === '') {
      report('name', `language.name must be the language's name in itself, such as "Français"`);
    }
    let canonicalLocale: string | undefined;
    try {
      if (typeof locale === 'string' && locale !== '') canonicalLocale = Intl.getCanonicalLocales(locale)[0];
    } catch {
      // reported below
    }
    if (!canonicalLocale) {
      report('locale', `language.locale${quoted(locale)} must be a BCP 47 locale such as "fr-FR"`);
    }
    if (dir !== 'ltr' && dir !== 'rtl') report('dir', `language.dir${quoted(dir)} must be "ltr" or "rtl"`);
    const flagSvg = flagDrawing(flag, path.join(localesDir, code), (message) => report('flag', message));

    problems.push(...found.map((message) => ({ code, message })));
    if (found.length === 0) {
      languages.push({
        code,
        name: (name as string).trim(),
        locale: canonicalLocale!,
        dir: dir as LanguageInfo['dir'],
        flagSvg,
      });
    }
  }
  return { languages, problems };
}

/** The flag's SVG markup: a region's from the flag set, the language folder's own file, or null for none. */
function flagDrawing(flag: unknown, folder: string, report: (message: string) => void): string | null {
  if (flag === undefined) return null;
  if (typeof flag === 'string' && REGION_CODE.test(flag)) {
    const drawing = (REGION_FLAGS as Record<string, string | undefined>)[flag.replace('-', '_')] ?? null;
    if (!drawing) report(`language.flag "${flag}" is not a region the flag set draws (ISO 3166 codes such as "FR")`);
    return drawing;
  }
  if (typeof flag === 'string' && SVG_FILE.test(flag)) {
    let svg: string;
    try {
      svg = readFileSync(path.join(folder, flag), 'utf8').trim();
    } catch {
      report(`language.flag "${flag}" is not a file in the language's folder`);
      return null;
    }
    // Drawn inline in the page: a drawing only, nothing that runs or loads.
    if (
      !/^(?:<\?xml[^>]*>\s*)?<svg[\s>]/.test(svg) ||
      /<script|<foreignObject|\son\w+\s*=|(?:href|src)\s*=\s*["']?(?!#)/i.test(svg)
    ) {
      report(`language.flag "${flag}" must be an SVG drawing without scripts, event handlers or outside references`);
      return null;
    }
    return svg.replace(/^<\?xml[^>]*>\s*/, '');
  }
  report(`language.flag${quoted(flag)} must be a region code such as "FR" or an .svg file in the language's folder`);
  return null;
}
