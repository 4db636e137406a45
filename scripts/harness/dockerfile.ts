import { readFileSync } from 'node:fs';
import path from 'node:path';
import { APP_ROOT } from '../../server/config/paths.ts';

/** One instruction of a Dockerfile, its continuation lines joined. */
export interface Instruction {
  keyword: string;
  args: string;
  /** The line it starts on. */
  line: number;
}

export function parseDockerfile(text: string): Instruction[] {
  const instructions: Instruction[] = [];
  let pending = '';
  let startLine = 0;
  text.split('\n').forEach((raw, index) => {
    const line = raw.trimEnd();
    if (!pending && (line.trim() === '' || line.trim().startsWith('#'))) return;
    if (pending && line.trim().startsWith('#')) return;
    if (!pending) startLine = index + 1;
    if (line.endsWith('\\')) {
      pending += line.slice(0, -1) + ' ';
      return;
    }
    const whole = (pending + line).trim();
    pending = '';
    const [keyword] = whole.split(/\s+/);
    instructions.push({ keyword: keyword!.toUpperCase(), args: whole.slice(keyword!.length).trim(), line: startLine });
  });
  return instructions;
}

/** One ENV instruction's settings, in either of its forms (`KEY=value …` or `KEY value`). */
export function parseEnv(args: string, line: number): Record<string, string> {
  const unquote = (value: string) => (/^(["']).*\1$/.test(value) ? value.slice(1, -1) : value);
  if (!/^[\w.-]+=/.test(args)) {
    const [key, ...value] = args.split(/\s+/);
    if (!key || value.length === 0) throw new Error(`line ${line}: cannot read ENV ${args}`);
    return { [key]: value.join(' ') };
  }
  const pairs = [...args.matchAll(/([\w.-]+)=("(?:[^"\\]|\\.)*"|'[^']*'|\S*)/g)];
  if (pairs.map((m) => m[0]).join(' ') !== args.replace(/\s+/g, ' '))
    throw new Error(`line ${line}: cannot read ENV ${args}`);
  return Object.fromEntries(pairs.map((m) => [m[1]!, unquote(m[2]!)]));
}

/** The project's Dockerfile, read: the image's own settings, for tests and benchmarks that run the server as the image does. */
export function readDockerfile(): Instruction[] {
  return parseDockerfile(readFileSync(path.join(APP_ROOT, 'Dockerfile'), 'utf8'));
}

/** The final stage of the project's Dockerfile: the image's own instructions. */
function finalStage(): Instruction[] {
  const instructions = readDockerfile();
  return instructions.slice(instructions.findLastIndex((instruction) => instruction.keyword === 'FROM'));
}

/** The environment the final stage of the project's Dockerfile sets. */
export function imageEnv(): Record<string, string> {
  return Object.assign(
    {},
    ...finalStage()
      .filter((instruction) => instruction.keyword === 'ENV')
      .map(({ args, line }) => parseEnv(args, line)),
  ) as Record<string, string>;
}

/** The image's command, as its CMD gives it: `node`, Node's own flags, the server's script. */
export function imageCommand(): string[] {
  const cmd = finalStage().findLast((instruction) => instruction.keyword === 'CMD');
  const command: unknown = cmd ? JSON.parse(cmd.args) : null;
  if (!Array.isArray(command) || command[0] !== 'node' || command.at(-1) !== 'dist/server/index.js')
    throw new Error(`the Dockerfile's CMD is not ["node", …, "dist/server/index.js"]: ${cmd?.args}`);
  return command as string[];
}

/** The flags the image gives Node before the server's script. */
export function imageNodeArgs(): string[] {
  return imageCommand().slice(1, -1);
}
