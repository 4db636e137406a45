import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_CONTENT_PATH, LOCALES_DIR } from '../../server/config/paths.ts';
import { characterCount, localeTextLimit, TEXT_LIMITS } from '../../server/content/text-limits.ts';
import { LANGUAGES } from './languages.ts';

/** The word a name may hold that is longer than any line of a phone: 60 letters, no space, no hyphen. */
export const LONG_WORD = 'Donaudampfschifffahrtselektrizitätenhauptbetriebswerkbauunte';

const WORDS = ['Übertragung', 'Abend', 'gemeinsamen', 'Bühnen', 'live', 'Sendung', 'Zuschauer', 'pünktlich'];

/**
 * A text of exactly `length` characters: `start`, then ordinary words, the last one cut to fit,
 * and `end` (an interpolation the text must keep) at the end.
 */
export function textOfLength(length: number, { start = '', end = '' } = {}): string {
  let text = start;
  for (let i = 0; characterCount(text) + characterCount(end) < length; i++)
    text += `${text ? ' ' : ''}${WORDS[i % WORDS.length]}`;
  const body = [...text].slice(0, length - characterCount(end));
  // A cut that ends on a space would be trimmed by an editor: a letter instead.
  if (body.at(-1) === ' ') body[body.length - 1] = 'x';
  return body.join('') + end;
}

const INTERPOLATION = /{{[^}]+}}/g;

/** A locale text at its limit, keeping the interpolations the shipped text has, at its end. */
function atLimit(key: string, shipped: string, limit: number): string {
  if (key === 'product') return textOfLength(limit, { start: LONG_WORD });
  // The title as shown is the name: `$t(product)`, which is as long as the limit allows.
  if (key === 'hero.title') return shipped;
  const kept = (shipped.match(INTERPOLATION) ?? []).join(' ');
  return textOfLength(limit, { start: 'Sonderveranstaltungs', end: kept ? ` ${kept}` : '' });
}

type Dictionary = { [key: string]: string | Dictionary };

/**
 * A copy of the shipped locale folders in which the name holds a 60-letter word and every text
 * the hero and the programme show is as long as its limit (TEXT_LIMITS) allows; and a content file whose studios'
 * names and cities are at their limits too, in every language, with no logo (so the hero also
 * shows the name as the logo's text), and a company whose name is one long word. Returns the
 * folder and the file, temporary, with `edit` applied to the content.
 */
export function atTheLimits(edit: (content: Record<string, any>) => void = () => {}): {
  localesDir: string;
  contentPath: string;
} {
  const root = mkdtempSync(path.join(tmpdir(), 'long-texts-'));
  const localesDir = path.join(root, 'locales');
  cpSync(LOCALES_DIR, localesDir, { recursive: true });
  for (const language of LANGUAGES) {
    const file = path.join(localesDir, language, 'translation.json');
    const dictionary = JSON.parse(readFileSync(file, 'utf8')) as Dictionary;
    const walk = (node: Dictionary, at: string[]) => {
      for (const [key, value] of Object.entries(node)) {
        const dotted = [...at, key].join('.');
        if (typeof value !== 'string') walk(value, [...at, key]);
        else {
          const limit = localeTextLimit(dotted) ?? localeTextLimit(dotted.replace(/_[a-z]+$/, ''));
          if (limit !== undefined) node[key] = atLimit(dotted, value, limit);
        }
      }
    };
    walk(dictionary, []);
    writeFileSync(file, `${JSON.stringify(dictionary, null, 2)}\n`);
  }

  const content = JSON.parse(readFileSync(DEFAULT_CONTENT_PATH, 'utf8')) as Record<string, any>;
  content.logo = null;
  content.company.name = `${LONG_WORD} GmbH`;
  for (const [index, studio] of (content.studios as Record<string, any>[]).entries()) {
    const own = { start: `Studio${index + 1}` };
    studio.name = textOfLength(TEXT_LIMITS.studioName, own);
    studio.city = textOfLength(TEXT_LIMITS.city, own);
    studio.displayCity = textOfLength(TEXT_LIMITS.city, { start: `Stadt${index + 1}` });
    studio.address = `${LONG_WORD} 1, ${studio.postalCode} ${studio.city}`;
    studio.localized = Object.fromEntries(
      LANGUAGES.slice(1).map((language) => [
        language,
        { name: studio.name, city: studio.city, displayCity: studio.displayCity },
      ]),
    );
  }
  edit(content);
  const contentPath = path.join(root, 'event.json');
  writeFileSync(contentPath, `${JSON.stringify(content, null, 2)}\n`);
  return { localesDir, contentPath };
}
