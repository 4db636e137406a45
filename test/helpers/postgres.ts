import { execFile, spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { APP_ROOT } from '../../server/config/paths.ts';

/**
 * A throwaway PostgreSQL cluster (Debian's `postgresql`), started as a child process in a
 * temporary folder, listening on a Unix socket there only (no TCP port), stopped by its own id.
 * As root, initdb and postgres run as the `postgres` user the package creates (they refuse root).
 */
export interface Postgres {
  /** Runs SQL through psql as the owner; its output, or rejects with psql's error. */
  sql(text: string, options?: { file?: string }): Promise<string>;
  /** The same, resolving with what the server said besides the output: its notices and warnings. */
  messages(options: { text?: string; file?: string }): Promise<string>;
  stop(): Promise<void>;
}

const SUPERUSER = 'postgres';

/** The project's migrations, in the Supabase CLI's layout: applied in the order of their names. */
export const MIGRATIONS = path.join(APP_ROOT, 'supabase/migrations');

// What a Supabase project has before any migration of ours: its API roles, and every new table
// and function in public granted to them (supabase/postgres' own setup).
const SUPABASE_ROLES = `
  create role anon nologin noinherit;
  create role authenticated nologin noinherit;
  create role service_role nologin noinherit bypassrls;
  grant usage on schema public to anon, authenticated, service_role;
  alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
  alter default privileges in schema public grant all on functions to anon, authenticated, service_role;
`;

/** The migrations' file names, in order. */
export const migrationFiles = () => readdirSync(MIGRATIONS).sort();

/**
 * A fresh database as a Supabase project has it, with the migrations applied in order: every one,
 * or those `until` says yes to (the rest then applied with `db.migrate`).
 */
export async function startSupabaseDatabase({ until }: { until?: (file: string) => boolean } = {}): Promise<
  Postgres & { migrate(files: string[]): Promise<string> }
> {
  const db = await startPostgres();
  await db.sql(SUPABASE_ROLES);
  const migrate = async (files: string[]) => {
    let messages = '';
    for (const file of files) messages += await db.messages({ file: path.join(MIGRATIONS, file) });
    return messages;
  };
  await migrate(migrationFiles().filter((file) => until?.(file) ?? true));
  return { ...db, migrate };
}

/** Debian's server binaries: /usr/lib/postgresql/<version>/bin, the newest version installed. */
export function postgresBinaries(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((name) => existsSync(path.join(root, name, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : null;
}

export async function startPostgres(): Promise<Postgres> {
  const bin = postgresBinaries();
  if (!bin) throw new Error('PostgreSQL is not installed: apt-get install -y postgresql (this suite never skips)');
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'postgres-'));
  chmodSync(dir, 0o700);
  if (asRoot) {
    const user = spawnSync('id', ['-u', SUPERUSER], { encoding: 'utf8' });
    const group = spawnSync('id', ['-g', SUPERUSER], { encoding: 'utf8' });
    chownSync(dir, Number(user.stdout), Number(group.stdout));
  }
  // setpriv execs the program itself, so the child's id is the postmaster's.
  const asOwner = (program: string, args: string[]): [string, string[]] =>
    asRoot
      ? ['setpriv', ['--reuid', SUPERUSER, '--regid', SUPERUSER, '--init-groups', '--', program, ...args]]
      : [program, args];

  const data = path.join(dir, 'data');
  const [initdb, initArgs] = asOwner(path.join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    SUPERUSER,
    '--auth=trust',
    '--no-sync',
    '--encoding=UTF8',
    '--locale=C',
  ]);
  const init = spawnSync(initdb, initArgs, { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.error?.message}`);

  const port = '5432';
  const [postgres, serverArgs] = asOwner(path.join(bin, 'postgres'), [
    '-D',
    data,
    '-k',
    dir,
    '-p',
    port,
    '-c',
    'listen_addresses=',
    '-c',
    'fsync=off',
  ]);
  const child = spawn(postgres, serverArgs, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const psql = (args: string[]) =>
    promisify(execFile)(
      'psql',
      [
        '-h',
        dir,
        '-p',
        port,
        '-U',
        SUPERUSER,
        '-d',
        'postgres',
        '-X',
        '-q',
        '-A',
        '-t',
        '-v',
        'ON_ERROR_STOP=1',
        ...args,
      ],
      { encoding: 'utf8' },
    );
  for (let tries = 0; ; tries++) {
    try {
      await psql(['-c', 'select 1']);
      break;
    } catch (error) {
      if (tries > 100 || child.exitCode !== null) {
        child.kill('SIGINT');
        throw new Error(`postgres did not start: ${log || String(error)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const run = async (args: string[]) => {
    try {
      return await psql(args);
    } catch (error) {
      throw new Error((error as { stderr?: string }).stderr?.trim() || String(error));
    }
  };

  return {
    async sql(text, options = {}) {
      return (await run(options.file ? ['-f', options.file] : ['-c', text])).stdout.trim();
    },
    async messages({ text, file }) {
      return (await run(file ? ['-f', file] : ['-c', text ?? ''])).stderr;
    },
    async stop() {
      // Fast shutdown: sessions end, the cluster stops cleanly.
      child.kill('SIGINT');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
