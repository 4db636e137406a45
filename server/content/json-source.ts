import { getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { fieldName, quoted, type Finding } from './findings.ts';

/** A JSON file's text, parsed as far as it can be, able to tell on which line each field stands. */
export interface JsonSource {
  /** The file's value; where the text is not JSON, what could be read around the mistakes. */
  value: unknown;
  /**
   * The 1-based line of the field at `path` (of its name, for an object's field; of the value,
   * for a list's item), or of the nearest enclosing field the file has. A field written twice is
   * the later one, as that is the one a JSON reader keeps.
   */
  lineOf(path: readonly PropertyKey[]): number;
  /** What makes the text unusable: each syntax error, and each field written twice. */
  problems: Finding[];
  /** What is accepted but better not there: a byte-order mark. */
  warnings: Finding[];
}

const BYTE_ORDER_MARK = '\uFEFF';

/**
 * Parses strict JSON (no comments, no trailing commas), keeping where everything stands. A syntax
 * error does not end the reading: jsonc-parser goes on past it, so the rest of the file can
 * still be checked.
 */
export function parseJsonSource(fileText: string): JsonSource {
  const warnings: Finding[] = [];
  let text = fileText;
  if (text.startsWith(BYTE_ORDER_MARK)) {
    // Written by some editors on Windows; it changes no offset that matters but the first.
    text = text.slice(BYTE_ORDER_MARK.length);
    warnings.push({
      line: 1,
      message: 'the file starts with a byte-order mark, which is ignored (save it as UTF-8 without BOM)',
    });
  }
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  const lineAt = lineIndex(text);
  const problems = syntaxProblems(text, errors, lineAt);
  if (root) problems.push(...fieldsWrittenTwice(root, [], lineAt));
  return {
    value: root ? (getNodeValue(root) as unknown) : undefined,
    lineOf(path) {
      let node = root;
      let found = node;
      for (const key of path) {
        node = node && childAt(node, key);
        if (!node) break;
        found = node;
      }
      return found ? lineAt(fieldStart(found)) : 1;
    },
    problems: problems.sort((a, b) => a.line - b.line),
    warnings,
  };
}

/** The value under an object's key (its last writing) or a list's index. */
function childAt(node: Node, key: PropertyKey): Node | undefined {
  if (node.type === 'array' && typeof key === 'number') return node.children?.[key];
  if (node.type !== 'object') return undefined;
  const properties = (node.children ?? []).filter((property) => property.children?.[0]?.value === String(key));
  return properties.at(-1)?.children?.[1];
}

/** Where a field begins: its name for an object's field, else the value itself. */
function fieldStart(node: Node): number {
  return node.parent?.type === 'property' ? node.parent.offset : node.offset;
}

/** Each field written a second time in one object, on that writing's line, with its value. */
function fieldsWrittenTwice(node: Node, at: PropertyKey[], lineAt: (offset: number) => number): Finding[] {
  const findings: Finding[] = [];
  if (node.type === 'array')
    node.children?.forEach((item, index) => findings.push(...fieldsWrittenTwice(item, [...at, index], lineAt)));
  if (node.type !== 'object') return findings;
  const firstLine = new Map<string, number>();
  for (const property of node.children ?? []) {
    const [name, value] = property.children ?? [];
    if (typeof name?.value !== 'string') continue;
    const key = name.value;
    const line = lineAt(property.offset);
    const first = firstLine.get(key);
    if (first === undefined) firstLine.set(key, line);
    else
      findings.push({
        line,
        message: `${fieldName([...at, key])}${value ? quoted(getNodeValue(value)) : ''} is written a second time (first on line ${first}); a field may be written once`,
      });
    if (value) findings.push(...fieldsWrittenTwice(value, [...at, key], lineAt));
  }
  return findings;
}

const IN_WORDS: Partial<Record<ReturnType<typeof printParseErrorCode>, string>> = {
  InvalidSymbol: 'a character JSON does not allow here',
  InvalidNumberFormat: 'a number JSON cannot read',
  PropertyNameExpected: 'a field name in double quotes expected',
  ValueExpected: 'a value expected',
  ColonExpected: 'a colon expected after the field name',
  CommaExpected: 'a comma missing before this',
  CloseBraceExpected: 'a closing } missing',
  CloseBracketExpected: 'a closing ] missing',
  EndOfFileExpected: 'more text after the end of the JSON',
  InvalidCommentToken: 'a comment, which JSON does not allow',
  UnexpectedEndOfComment: 'a comment, which JSON does not allow',
  UnexpectedEndOfString: 'a text without its closing double quote on its line',
  UnexpectedEndOfNumber: 'a number cut short',
  InvalidUnicode: 'a \\u escape without four hexadecimal digits',
  InvalidEscapeCharacter: 'a backslash escape JSON does not know (a \\ in text is written \\\\)',
  InvalidCharacter: 'a tab or line break inside a text (written \\t or \\n)',
};

/**
 * Each syntax error in plain words, on its own line. One mistake often sets off more errors
 * just after it: only the first on a line is told.
 */
function syntaxProblems(text: string, errors: readonly ParseError[], lineAt: (offset: number) => number): Finding[] {
  if (text.trim() === '') return [{ line: 1, message: 'not valid JSON: the file is empty' }];
  const findings: Finding[] = [];
  const lines = new Set<number>();
  for (const error of errors) {
    const trailingComma = trailingCommaBefore(text, error);
    const line = lineAt(trailingComma ?? error.offset);
    if (lines.has(line)) continue;
    lines.add(line);
    const cause =
      trailingComma === null
        ? (IN_WORDS[printParseErrorCode(error.error)] ?? 'not JSON')
        : text[error.offset] === ','
          ? 'a comma too many'
          : `a trailing comma after the last ${text[error.offset] === ']' ? 'item' : 'field'} (JSON allows none)`;
    findings.push({ line, message: `not valid JSON here: ${cause}` });
  }
  return findings;
}

/** The offset of the comma that a `}`, `]` or another comma follows, when that is what the error is about. */
function trailingCommaBefore(text: string, error: ParseError): number | null {
  const code = printParseErrorCode(error.error);
  if (code !== 'PropertyNameExpected' && code !== 'ValueExpected') return null;
  if (!['}', ']', ','].includes(text[error.offset]!)) return null;
  let before = error.offset - 1;
  while (before >= 0 && /\s/.test(text[before]!)) before--;
  return text[before] === ',' ? before : null;
}

/** The 1-based line of an offset. */
function lineIndex(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  };
}
