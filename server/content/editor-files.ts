import { readFileSync } from 'node:fs';
import { formatFinding } from './findings.ts';
import { checkLiveFile, type LiveChanges } from './live-file.ts';
import { checkContentText, listedLanguageCodes, type SiteContent } from './site-content.ts';
import { checkTranslations } from './translation-check.ts';

/** The files an editor writes, where they are and how the operator named them (for messages). */
export interface EditorFiles {
  contentPath: string;
  contentShown: string;
  localesDir: string;
  localesShown: string;
  /** The live file (LIVE_PATH, beside the content file by default); a missing one means no live changes. */
  livePath: string;
  liveShown: string;
}

/** Everything the check found in the editor's files: each problem and warning once, as one line. */
export interface EditorCheck {
  /** The content, when no file has a problem. */
  content: SiteContent | null;
  /** What the live file says, when no file has a problem. */
  live: LiveChanges | null;
  problems: string[];
  warnings: string[];
}

/**
 * Checks the content file, the translations of the languages it lists and the live file, all of it at once:
 * a problem in one file does not hide those of another. What the server checks at start, what
 * `npm run check:content` prints, and what `npm run dev` lists.
 */
export function checkEditorFiles(files: EditorFiles, now = Date.now()): EditorCheck {
  let text: string;
  try {
    text = readFileSync(files.contentPath, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    return { content: null, live: null, problems: [`${files.contentShown}: cannot be read (${reason})`], warnings: [] };
  }
  const checked = checkContentText(text, now, files.localesDir, files.localesShown);
  const languages = listedLanguageCodes(text);
  const translations = checkTranslations(files.localesDir, languages, files.localesShown);
  const live = checkLiveFile(files.livePath, files.liveShown, languages);
  const problems = [
    ...checked.problems.map((finding) => formatFinding(files.contentShown, finding)),
    ...translations.problems,
    ...live.problems,
  ];
  const warnings = [
    ...checked.warnings.map((finding) =>
      formatFinding(files.contentShown, { ...finding, message: `warning: ${finding.message}` }),
    ),
    ...translations.warnings,
    ...live.warnings,
  ];
  const usable = problems.length === 0;
  return { content: usable ? checked.content : null, live: usable ? live.live : null, problems, warnings };
}
