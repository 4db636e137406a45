import { spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Replays a Dockerfile without a container engine, for the subset of instructions a plain
 * multi-stage Node image uses: FROM (a node:24 image or an earlier stage), WORKDIR, COPY
 * (from the build context through .dockerignore, or --from a stage), RUN, ENV, USER, EXPOSE,
 * HEALTHCHECK, CMD and LABEL. Each stage gets a folder standing for its filesystem root. The
 * node:24 base image is stood in for by a Node 24 on PATH. Anything else fails the replay.
 */

export interface Instruction {
  keyword: string;
  args: string;
  line: number;
}

interface Stage {
  name: string;
  base: string;
  instructions: Instruction[];
}

interface ImageConfig {
  env: Record<string, string>;
  workdir: string;
  user: string;
  exposed: number[];
  cmd: string[];
  healthcheck: string[] | null;
}

export interface ReplayedImage extends ImageConfig {
  /** The folder standing for the image's filesystem root. */
  root: string;
  /** Where WORKDIR is, on this machine. */
  cwd: string;
}

export interface ReplayOptions {
  /** The build context: the folder `docker build` would be given. */
  context: string;
  dockerfile: string;
  /** An empty folder to build in. */
  workDir: string;
  /** A folder holding Node 24's `node`, standing in for the base image's. */
  nodeBinDir: string;
  /** Extra environment for RUN steps, as a build machine's own settings (never the image's). */
  buildEnv?: Record<string, string>;
}

/** The base images the replay can stand in for. */
const NODE_24_IMAGE = /^node:24([.-][\w.-]*)?$/;

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

function stagesOf(instructions: Instruction[]): Stage[] {
  const stages: Stage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const match = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(instruction.args);
      if (!match) throw new Error(`line ${instruction.line}: cannot read FROM ${instruction.args}`);
      stages.push({ base: match[1]!, name: match[2] ?? String(stages.length), instructions: [] });
    } else {
      const stage = stages.at(-1);
      if (!stage) throw new Error(`line ${instruction.line}: ${instruction.keyword} before FROM`);
      stage.instructions.push(instruction);
    }
  }
  return stages;
}

/** .dockerignore as a test: Go-style patterns with **, a match on a folder covering what is in it, ! to take back. */
export function dockerignore(context: string): (relative: string) => boolean {
  const file = path.join(context, '.dockerignore');
  const rules = (existsSync(file) ? readFileSync(file, 'utf8') : '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const negate = line.startsWith('!');
      const pattern = path.posix.normalize((negate ? line.slice(1) : line).trim()).replace(/^\/+|\/+$/g, '');
      const source = pattern
        .split(/(\*\*\/?|\*|\?)/)
        .map((part) => {
          if (part === '**/') return '(?:.*/)?';
          if (part === '**') return '.*';
          if (part === '*') return '[^/]*';
          if (part === '?') return '[^/]';
          return part.replace(/[.+^${}()|[\]\\]/g, '\\$&');
        })
        .join('');
      return { negate, regex: new RegExp(`^${source}$`) };
    });
  return (relative) => {
    const parts = relative.split('/');
    const prefixes = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
    let ignored = false;
    for (const { negate, regex } of rules) {
      if (prefixes.some((prefix) => regex.test(prefix))) ignored = !negate;
    }
    return ignored;
  };
}

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

/** An exec-form (JSON array) command; the shell form is refused, since it would not receive signals. */
function execForm(args: string, line: number): string[] {
  try {
    const parsed: unknown = JSON.parse(args);
    if (Array.isArray(parsed) && parsed.length > 0 && parsed.every((part) => typeof part === 'string'))
      return parsed as string[];
  } catch {
    // Falls through to the error below.
  }
  throw new Error(`line ${line}: expected an exec-form command like ["node", "server.js"], got ${args}`);
}

function run(command: string, options: { cwd: string; env: Record<string, string> }): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += String(chunk)));
    child.stderr.on('data', (chunk) => (output += String(chunk)));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`RUN ${command} exited with ${code}:\n${output.slice(-3000)}`));
    });
  });
}

export async function replayDockerfile(options: ReplayOptions): Promise<ReplayedImage> {
  const stages = stagesOf(parseDockerfile(readFileSync(options.dockerfile, 'utf8')));
  const ignored = dockerignore(options.context);
  chmodSync(options.workDir, 0o755);

  // How often each stage is used later; a stage used once, as another's base, is moved rather than copied.
  const uses = new Map<string, number>();
  for (const stage of stages) {
    uses.set(stage.base, (uses.get(stage.base) ?? 0) + 1);
    for (const { keyword, args } of stage.instructions) {
      const from = keyword === 'COPY' ? /--from=(\S+)/.exec(args)?.[1] : undefined;
      if (from) uses.set(from, (uses.get(from) ?? 0) + 2);
    }
  }

  // Node 24 first, as in the image; then the image's PATH; then wherever this machine keeps npm,
  // but nothing from the build context, whose tools must not stand in for the image's own.
  const hostPath = (process.env.PATH ?? '')
    .split(':')
    .filter((dir) => dir && !path.resolve(dir).startsWith(path.resolve(options.context)));
  const buildPath = (imagePath: string) => [options.nodeBinDir, imagePath, ...hostPath].join(':');

  const built = new Map<string, Promise<ReplayedImage>>();
  const build = (name: string): Promise<ReplayedImage> => {
    const stage = stages.find((s) => s.name === name);
    if (!stage) throw new Error(`no stage named ${name}`);
    if (!built.has(name)) built.set(name, buildStage(stage));
    return built.get(name)!;
  };

  async function buildStage(stage: Stage): Promise<ReplayedImage> {
    // Stages this one copies from are built meanwhile, as BuildKit does.
    for (const { keyword, args } of stage.instructions) {
      const from = keyword === 'COPY' ? /--from=(\S+)/.exec(args)?.[1] : undefined;
      if (from) void build(from).catch(() => undefined);
    }

    const root = path.join(options.workDir, stage.name);
    let config: ImageConfig;
    if (stages.some((s) => s.name === stage.base)) {
      const base = await build(stage.base);
      if (uses.get(stage.base) === 1) renameSync(base.root, root);
      else cpSync(base.root, root, { recursive: true, verbatimSymlinks: true });
      config = structuredClone({
        env: base.env,
        workdir: base.workdir,
        user: base.user,
        exposed: base.exposed,
        cmd: base.cmd,
        healthcheck: base.healthcheck,
      });
    } else if (NODE_24_IMAGE.test(stage.base)) {
      mkdirSync(root, { mode: 0o755 });
      config = {
        env: { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' },
        workdir: '/',
        user: 'root',
        exposed: [],
        cmd: ['node'],
        healthcheck: null,
      };
    } else {
      throw new Error(`FROM ${stage.base}: only node:24 images and earlier stages can be replayed`);
    }
    const inImage = (containerPath: string) => path.join(root, path.posix.resolve(config.workdir, containerPath));

    for (const { keyword, args, line } of stage.instructions) {
      switch (keyword) {
        case 'WORKDIR':
          config.workdir = path.posix.resolve(config.workdir, args);
          mkdirSync(inImage('.'), { recursive: true, mode: 0o755 });
          break;
        case 'ENV':
          Object.assign(config.env, parseEnv(args, line));
          break;
        case 'USER':
          config.user = args;
          break;
        case 'EXPOSE':
          config.exposed.push(...args.split(/\s+/).map((port) => Number.parseInt(port, 10)));
          break;
        case 'CMD':
          config.cmd = execForm(args, line);
          break;
        case 'HEALTHCHECK': {
          const at = args.indexOf('CMD');
          if (at === -1) throw new Error(`line ${line}: HEALTHCHECK without CMD`);
          config.healthcheck = execForm(args.slice(at + 3).trim(), line);
          break;
        }
        case 'LABEL':
          break;
        case 'RUN':
          if (config.user !== 'root') throw new Error(`line ${line}: RUN as ${config.user} is not replayed`);
          await run(args, {
            cwd: inImage('.'),
            env: {
              ...config.env,
              ...options.buildEnv,
              HOME: process.env.HOME ?? '/root',
              PATH: buildPath(config.env.PATH ?? ''),
            },
          });
          break;
        case 'COPY':
          await copy(args, line, inImage);
          break;
        default:
          throw new Error(`line ${line}: ${keyword} is not replayed`);
      }
    }
    return { ...config, root, cwd: inImage('.') };
  }

  async function copy(args: string, line: number, inImage: (containerPath: string) => string): Promise<void> {
    const words = args.split(/\s+/);
    const flags = words.filter((word) => word.startsWith('--'));
    const paths = words.filter((word) => !word.startsWith('--'));
    const unknown = flags.find((flag) => !flag.startsWith('--from='));
    if (unknown) throw new Error(`line ${line}: COPY ${unknown} is not replayed`);
    if (paths.length < 2) throw new Error(`line ${line}: COPY needs a source and a destination`);
    const from = flags[0]?.slice('--from='.length);
    const destination = paths.pop()!;
    const intoFolder = destination.endsWith('/') || paths.length > 1;
    const stageRoot = from ? (await build(from)).root : undefined;

    for (const source of paths) {
      let sourcePath: string;
      let filter: ((file: string) => boolean) | undefined;
      if (stageRoot) {
        sourcePath = path.join(stageRoot, path.posix.resolve('/', source));
      } else {
        const relative = path.posix.normalize(source).replace(/^(\.\/)+|\/+$/g, '');
        if (relative.startsWith('..') || path.posix.isAbsolute(relative))
          throw new Error(`line ${line}: COPY ${source} is outside the context`);
        sourcePath = path.join(options.context, relative);
        if (relative !== '.' && ignored(relative))
          throw new Error(`line ${line}: COPY ${source}: not found (excluded by .dockerignore)`);
        filter = (file) => {
          const inContext = path.relative(options.context, file).split(path.sep).join('/');
          return inContext === '' || !ignored(inContext);
        };
      }
      if (!existsSync(sourcePath)) throw new Error(`line ${line}: COPY ${source}: not found`);
      const target = statSync(sourcePath).isDirectory()
        ? inImage(destination)
        : intoFolder
          ? path.join(inImage(destination), path.basename(sourcePath))
          : inImage(destination);
      mkdirSync(statSync(sourcePath).isDirectory() ? target : path.dirname(target), { recursive: true, mode: 0o755 });
      cpSync(sourcePath, target, { recursive: true, verbatimSymlinks: true, filter });
    }
  }

  return build(stages.at(-1)!.name);
}
