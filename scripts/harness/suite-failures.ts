import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The parts of vitest's JSON report (`--reporter=json`) that name what failed. */
interface JsonReport {
  testResults: {
    name: string;
    status: string;
    message?: string;
    assertionResults: { ancestorTitles: string[]; title: string; status: string; failureMessages?: string[] }[];
  }[];
}

/** A failed journey as a run's summary names it. */
export interface SuiteFailure {
  /** The file and the journey's titles: `test/browser/x.test.ts > a describe > a test`. */
  journey: string;
  /** The first line of its error. */
  reason: string;
  /** The line of the test file its error was thrown from (`test/browser/x.test.ts:12`), where its stack names one. */
  at?: string;
  /** The folder its evidence went to, when it kept any (test/browser/evidence.ts names it in the error). */
  evidence?: string;
}

const EVIDENCE_LINE = /evidence in [^:\n]+: (\S+)/;

/** What failed in one run of a suite, from the JSON report vitest wrote: each failed test, and each file that failed outside its tests (a hook, an import). */
export function failuresInReport(report: JsonReport, root: string): SuiteFailure[] {
  const failures: SuiteFailure[] = [];
  for (const file of report.testResults) {
    const name = path.relative(root, file.name);
    const failedTests = file.assertionResults.filter((test) => test.status === 'failed');
    for (const test of failedTests) {
      const message = test.failureMessages?.join('\n') ?? '';
      failures.push({
        journey: [name, ...test.ancestorTitles, test.title].join(' > '),
        reason: firstLine(message),
        at: lineInFile(message, file.name, name),
        evidence: EVIDENCE_LINE.exec(message)?.[1],
      });
    }
    if (file.status === 'failed' && failedTests.length === 0) {
      failures.push({ journey: name, reason: firstLine(file.message ?? '') || 'failed outside its tests' });
    }
  }
  return failures;
}

/** The failures in the report at `file`; null when there is none to read (vitest did not get to write it). */
export function failuresInReportFile(file: string, root: string): SuiteFailure[] | null {
  try {
    return failuresInReport(JSON.parse(readFileSync(file, 'utf8')) as JsonReport, root);
  } catch {
    return null;
  }
}

/** The first frame of a stack in the file at `absolute`, as `shown:line`: which wait or check of a journey gave up. */
function lineInFile(message: string, absolute: string, shown: string): string | undefined {
  const frame = message.split('\n').find((line) => /^\s+at /.test(line) && line.includes(`${absolute}:`));
  const line = frame?.slice(frame.indexOf(`${absolute}:`) + absolute.length + 1).match(/^\d+/)?.[0];
  return line ? `${shown}:${line}` : undefined;
}

function firstLine(message: string): string {
  const line = message.split('\n').find((text) => text.trim() !== '') ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
