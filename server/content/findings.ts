import { z } from 'zod';

/** One problem (or warning) in an editor's file: the line it stands on and what is wrong, field first. */
export interface Finding {
  line: number;
  message: string;
}

/** `content/event.json:12: event.date "2027-02-30" is not a date in the calendar` */
export function formatFinding(displayPath: string, finding: Finding): string {
  return `${displayPath}:${finding.line}: ${finding.message}`;
}

/** The first problem and how many more, for a one-line refusal. */
export function firstAndCount(lines: readonly string[], more: string): string {
  const rest = lines.length - 1;
  return rest > 0 ? `${lines[0]} (and ${rest} more ${rest === 1 ? 'problem' : 'problems'}; ${more})` : lines[0]!;
}

export const fieldName = (path: readonly PropertyKey[]): string =>
  path.length ? path.map(String).join('.') : '(the file)';

/** A field's value as an editor wrote it, when it is short enough to quote. */
export function quoted(value: unknown): string {
  if (typeof value === 'string') return ` ${JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value)}`;
  if (typeof value === 'number' || typeof value === 'boolean') return ` ${String(value)}`;
  return '';
}

export function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** A parsed file's value and the line each field stands on (what a JsonSource holds). */
interface LocatedValue {
  value: unknown;
  lineOf(path: readonly PropertyKey[]): number;
}

/**
 * zod's issues in an editor's words, each on the line of its own field, one per field; and every
 * field the schema does not know, with the known name it is closest to.
 */
export function describeIssues(
  issues: readonly z.core.$ZodIssue[],
  source: LocatedValue,
  schema: z.ZodType,
  nameOf: (path: readonly PropertyKey[]) => string = fieldName,
): Finding[] {
  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const { path, nearest } of unknownFields(source.value, schema, [])) {
    findings.push({
      line: source.lineOf(path),
      message: `\`${nameOf(path)}\` is not a field${nearest ? `; did you mean \`${nameOf(nearest)}\`?` : ''}`,
    });
    // A misspelt field is reported once, not again as the missing field it was meant to be.
    if (nearest) seen.add(nameOf(nearest));
  }
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') continue;
    const field = nameOf(issue.path);
    if (seen.has(field)) continue;
    seen.add(field);
    const value = valueAt(source.value, issue.path);
    findings.push({ line: source.lineOf(issue.path), message: `${field}${quoted(value)} ${inWords(issue, value)}` });
  }
  return findings.sort((a, b) => a.line - b.line);
}

/** Every field of `value` that `schema` does not know, wherever it is nested. */
function unknownFields(
  value: unknown,
  schema: z.core.$ZodType,
  at: PropertyKey[],
): { path: PropertyKey[]; nearest: PropertyKey[] | null }[] {
  const node = unwrap(schema);
  if (node instanceof z.ZodArray && Array.isArray(value))
    return value.flatMap((item, index) => unknownFields(item, node.element, [...at, index]));
  if (!isObject(value)) return [];
  if (node instanceof z.ZodRecord)
    return Object.entries(value).flatMap(([key, inner]) => unknownFields(inner, node.valueType, [...at, key]));
  if (!(node instanceof z.ZodObject)) return [];
  const shape = node.shape;
  const known = Object.keys(shape);
  return Object.entries(value).flatMap(([key, inner]) => {
    if (shape[key]) return unknownFields(inner, shape[key], [...at, key]);
    const nearest = nearestName(
      key,
      known.filter((name) => !(name in value)),
    );
    return [{ path: [...at, key], nearest: nearest ? [...at, nearest] : null }];
  });
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object { … }',
  array: 'a list [ … ]',
  null: 'null',
};

function inWords(issue: z.core.$ZodIssue, value: unknown): string {
  switch (issue.code) {
    case 'invalid_type':
      if (value === undefined) return 'is missing';
      return `must be ${TYPE_WORDS[issue.expected] ?? issue.expected}`;
    case 'too_small':
      if (issue.origin === 'string')
        return issue.minimum === 1 ? 'must not be empty' : `must be at least ${issue.minimum} characters`;
      if (issue.origin === 'array') return `must list at least ${issue.minimum}`;
      return `must be at least ${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'string') return `must be at most ${issue.maximum} characters`;
      if (issue.origin === 'array') return `must list at most ${issue.maximum}`;
      return `must be at most ${issue.maximum}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_format':
      return issue.format === 'email' ? 'must be an e-mail address' : issue.message;
    default:
      return issue.message;
  }
}

/** The schema an optional or nullable field holds. */
function unwrap(schema: z.core.$ZodType): z.core.$ZodType {
  let node = schema;
  while (node instanceof z.ZodOptional || node instanceof z.ZodNullable) node = node.unwrap();
  return node;
}

/** The known name closest to a misspelt one, if any is close enough to be what was meant. */
export function nearestName(name: string, known: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return bestDistance <= Math.max(2, Math.floor(name.length / 3)) ? best : null;
}

export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
