import { findNodeAtLocation, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';

/** A JSON file's text, parsed, able to tell on which line each field stands. */
export interface JsonSource {
  value: unknown;
  /**
   * The 1-based line of the field at `path` (of its name, for an object's field; of the value,
   * for a list's item), or of the nearest enclosing field the file has.
   */
  lineOf(path: readonly PropertyKey[]): number;
}

/** A file that is not JSON: where and why. */
export class JsonSyntaxError extends Error {
  override name = 'JsonSyntaxError';
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

/** Parses strict JSON (no comments, no trailing commas), keeping where everything stands. */
export function parseJsonSource(text: string): JsonSource {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  const lineAt = lineIndex(text);
  const first = errors[0];
  if (first || !root) {
    throw new JsonSyntaxError(lineAt(first?.offset ?? 0), `not valid JSON here: ${describe(first)}`);
  }
  return {
    value: JSON.parse(text) as unknown,
    lineOf(path) {
      for (let depth = path.length; depth >= 0; depth--) {
        const node = findNodeAtLocation(root, path.slice(0, depth).map(segment));
        if (node) return lineAt(fieldStart(node));
      }
      return 1;
    },
  };
}

function segment(key: PropertyKey): string | number {
  return typeof key === 'number' ? key : String(key);
}

/** Where a field begins: its name for an object's field, else the value itself. */
function fieldStart(node: Node): number {
  return node.parent?.type === 'property' ? node.parent.offset : node.offset;
}

function describe(error: ParseError | undefined): string {
  if (!error) return 'the file is empty';
  return printParseErrorCode(error.error)
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
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
