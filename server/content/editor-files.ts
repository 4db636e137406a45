import { readFileSync } from 'node:fs';
import { formatFinding } from './findings.ts';
import { checkContentText, listedLanguageCodes, type SiteContent } from './site-content.ts';
import { checkTranslations } from './translation-check.ts';

/** The files an editor writes, where they are and how the operator named them (for messages). */
export interface EditorFiles {
  contentPath: string;
  contentShown: string;
  localesDir: string;
  localesShown: string;
}

/** Everything the check found in the editor's files: each problem and warning once, as one line. */
export interface EditorCheck {
  /** The content, when no file has a problem. */
  content: SiteContent | null;
  problems: string[];
  warnings: string[];
}

/**
 * Checks the content file and the translations of the languages it lists, all of it at once:
 * a problem in one file does not hide those of another. What the server checks at start, what
 * `npm run check:content` prints, and what `npm run dev` lists.
 */
export function checkEditorFiles(files: EditorFiles, now = Date.now()): EditorCheck {
  let text: string;
  try {
    text = readFileSync(files.contentPath, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    return { content: null, problems: [`${files.contentShown}: cannot be read (${reason})`], warnings: [] };
  }
  const checked = checkContentText(text, now, files.localesDir, files.localesShown);
  const translations = checkTranslations(files.localesDir, listedLanguageCodes(text), files.localesShown);
  const problems = [
    ...checked.problems.map((finding) => formatFinding(files.contentShown, finding)),
    ...translations.problems,
  ];
  const warnings = [
    ...checked.warnings.map((finding) =>
      formatFinding(files.contentShown, { ...finding, message: `warning: ${finding.message}` }),
    ),
    ...translations.warnings,
  ];
  return { content: problems.length > 0 ? null : checked.content, problems, warnings };
}
