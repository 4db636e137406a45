import { readFileSync } from 'node:fs';
import { formatFinding } from './findings.ts';
import { checkLiveFile, type LiveChanges } from './live-file.ts';
import { liveRulesOf, liveRulesOfLanguages } from './live-rules.ts';
import { checkContentText, listedLanguageCodes, listedSegmentIds, type SiteContent } from './site-content.ts';
import { checkTranslations } from './translation-check.ts';

/** The files an editor writes, where they are and how the operator named them (for messages). */
export interface EditorFiles {
  contentPath: string;
  contentShown: string;
  localesDir: string;
  localesShown: string;
  /**
   * The live file (LIVE_PATH, beside the content file by default); a missing one means no live
   * changes. Left out where its own source checks it (the server: a broken one never stops it).
   */
  livePath?: string;
  liveShown?: string;
}

/** Everything the check found in the editor's files: each problem and warning once, as one line. */
export interface EditorCheck {
  /** The content, when neither it nor the translations have a problem. */
  content: SiteContent | null;
  /** What the live file says, when it was checked and has no problem. */
  live: LiveChanges | null;
  /** Every problem: the content file's and the translations' first, then the live file's. */
  problems: string[];
  /** How many of the problems are the live file's (the server starts with those, and refuses the file). */
  liveProblems: number;
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
    return {
      content: null,
      live: null,
      problems: [`${files.contentShown}: cannot be read (${reason})`],
      liveProblems: 0,
      warnings: [],
    };
  }
  const checked = checkContentText(text, now, files.localesDir, files.localesShown);
  const languages = listedLanguageCodes(text);
  const translations = checkTranslations(files.localesDir, languages, files.localesShown, listedSegmentIds(text));
  const live =
    files.livePath === undefined
      ? { live: null, problems: [], warnings: [] }
      : checkLiveFile(
          files.livePath,
          files.liveShown ?? files.livePath,
          checked.content ? liveRulesOf(checked.content) : liveRulesOfLanguages(languages),
        );
  const startProblems = checked.problems.length + translations.problems.length;
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
  return {
    content: startProblems === 0 ? checked.content : null,
    live: live.problems.length === 0 ? live.live : null,
    problems,
    liveProblems: live.problems.length,
    warnings,
  };
}
