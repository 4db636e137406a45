import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Language } from '../../shared/languages.ts';
import { startServer, type RunningServer } from '../../scripts/harness/server-process.ts';
import { currentEngineName, launchEngine } from './driver/engines.ts';
import { VisitorLine } from './driver/line.ts';
import type { BrowserSettings, Engine, EngineName } from './driver/types.ts';
import { Visitor } from './driver/visitor.ts';
import { keepEvidenceOfFailure, visitorWitness } from './evidence.ts';

export type VisitorOptions = BrowserSettings & { language?: Language };

export interface Browsers {
  readonly engine: EngineName;
  /** The launched engine itself, for what only one engine offers. */
  readonly launched: Engine;
  /** A new visitor of the server at `serverUrl`: its own cookies and storage, and its own line. */
  visitor(serverUrl: string, options?: VisitorOptions): Promise<Visitor>;
}

/**
 * The engine this run drives (BROWSER_ENGINE), launched for one test file; every visitor is
 * closed after its test, and when the test failed, its evidence is kept first (./evidence.ts).
 */
export function setUpBrowsers(): Browsers {
  const name = currentEngineName();
  let engine: Engine;
  const open: Visitor[] = [];

  beforeAll(async () => {
    engine = await launchEngine[name]();
  }, 120_000);
  afterEach(async ({ task }) => {
    const visitors = open.splice(0);
    await keepEvidenceOfFailure(task, name, visitors.map(visitorWitness));
    await Promise.all(visitors.map((visitor) => visitor.close()));
  }, 60_000);
  afterAll(async () => {
    await engine?.close();
  });

  return {
    engine: name,
    get launched() {
      return engine;
    },
    async visitor(serverUrl, options = {}) {
      const line = await VisitorLine.open(serverUrl);
      try {
        const visitor = new Visitor(name, await engine.open(line, options), line);
        open.push(visitor);
        return visitor;
      } catch (error) {
        await line.close();
        throw error;
      }
    },
  };
}

export interface Site {
  readonly engine: EngineName;
  readonly launched: Engine;
  /** Where the server itself listens; visitors reach it through their own lines. */
  readonly serverUrl: string;
  visitor(options?: VisitorOptions): Promise<Visitor>;
}

/** The built server and the engine for one test file. `env` is the server's own. */
export function setUpSite(env: NodeJS.ProcessEnv = {}): Site {
  const browsers = setUpBrowsers();
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(env);
  });
  afterAll(async () => {
    await server?.stop();
  });
  return {
    engine: browsers.engine,
    get launched() {
      return browsers.launched;
    },
    get serverUrl() {
      return server.url;
    },
    visitor: (options) => browsers.visitor(server.url, options),
  };
}
