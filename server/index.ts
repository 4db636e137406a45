import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import { createApp } from './app.ts';
import { loadClientAssets } from './static/client-assets.ts';
import { loadConfig } from './config/environment.ts';
import { checkEditorFiles } from './content/editor-files.ts';
import { ContentError } from './content/site-content.ts';
import { rehearsalClock } from './content/rehearsal-clock.ts';
import type { Rehearsal } from '../shared/rehearsal.ts';
import { fileLiveSource } from './live/file-source.ts';
import { createReadiness } from './ops/health.ts';
import { createHttpServer } from './ops/http-server.ts';
import { loadTranslations } from './content/translations.ts';
import { createLogging } from './ops/logger.ts';
import { createMetrics } from './ops/metrics.ts';
import { metricsListener } from './ops/metrics-server.ts';
import { CLIENT_BUILD_DIR } from './config/paths.ts';
import { processExit } from './ops/process-exit.ts';
import { exitOnUncaughtError, gracefulShutdown } from './ops/shutdown.ts';
import { liveRulesOf } from './content/live-rules.ts';

// ---- Start-up: everything is read and checked once; a problem stops the server with one line.
let started;
try {
  const config = loadConfig();
  // The content file and the translations, every problem counted, as npm run check:content lists them.
  // The live file is its source's to check: a broken one is refused, and never stops a start.
  const checked = checkEditorFiles({
    contentPath: config.contentPath,
    contentShown: config.contentPathAsGiven,
    localesDir: config.localesPath,
    localesShown: config.localesPathAsGiven,
  });
  if (!checked.content) throw new ContentError(checked.problems);
  const content = checked.content;
  const languages = content.public.languages.map((language) => language.code);
  const translations = await loadTranslations(config.localesPath, languages);
  const clientAssets = loadClientAssets(CLIENT_BUILD_DIR);
  const { logger, processLogger, output } = createLogging({
    level: config.logLevel,
    bufferBytes: config.logBufferBytes,
  });
  const exits = processExit(output, (error) =>
    processLogger.error({ err: error }, 'the exit watchdog failed: a hung exit may not be ended'),
  );
  exitOnUncaughtError(process, processLogger, exits.exit);
  if (content.placeholders.length > 0) {
    processLogger.warn({ fields: content.placeholders }, 'content file still holds sample values');
  }
  // A rehearsal's event clock reads REHEARSAL_CLOCK now, in the content file's zone, and runs on from here.
  let rehearsal: Rehearsal | null = null;
  if (config.rehearsalClock) {
    rehearsal = rehearsalClock(config.rehearsalClock, content.event.timeZone, Date.now());
    processLogger.warn(
      { rehearsalClock: config.rehearsalClock.given, ...rehearsal },
      'rehearsal: the event clock is shifted, every page is marked and noindex',
    );
  }
  const metrics = createMetrics({ droppedLogLines: output.droppedLines });
  const readiness = createReadiness();
  // With a backend, its row is the live state (createApp reads it); without, the live file, read
  // again whenever it changes. Either way a change the check refuses leaves the last good state.
  const liveSource = config.backend
    ? undefined
    : fileLiveSource({
        path: config.live.path,
        shown: config.live.pathAsGiven,
        rules: liveRulesOf(content),
        checkEveryMs: config.live.fileCheckSeconds * 1000,
        logger,
        observer: metrics.liveObserver,
      });
  if (config.backend && existsSync(config.live.path))
    processLogger.warn(
      { file: config.live.pathAsGiven },
      'the live file is not followed: with a backend, the live state is its live_state row',
    );
  // With SUPABASE_URL and SUPABASE_ANON_KEY this creates the backend client and reads the cache snapshot.
  const app = createApp({
    config,
    content,
    translations,
    clientAssets,
    logger,
    metrics,
    cacheObserver: metrics.cacheObserver,
    liveSource,
    readiness,
    rehearsal,
  });
  started = { config, processLogger, app, metrics, readiness, exits };
} catch (error) {
  console.error(`Cannot start: ${String((error as Error).message).replace(/\s*\n\s*/g, ' ')}`);
  process.exit(1);
}

const { config, processLogger, app, metrics, readiness, exits } = started;

// ---- Listen: the visitors' port and, apart from it, the metrics port.
const server = createHttpServer(app, config);
const metricsServer = createHttpServer(metricsListener(metrics, readiness), config);
const listening = (listener: Server, port: number) =>
  new Promise<number>((resolve) => {
    const cannotListen = (error: Error) => {
      console.error(`Cannot start: ${error.message}`);
      process.exit(1);
    };
    listener.once('error', cannotListen);
    listener.listen(port, config.host, () => {
      listener.off('error', cannotListen);
      const address = listener.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
const [port, metricsPort] = await Promise.all([
  listening(server, config.port),
  listening(metricsServer, config.metricsPort),
]);

// ---- Stop: readiness fails, in-flight requests finish, then exit (forced after SHUTDOWN_TIMEOUT_MS,
// and by a watchdog thread shortly after that should the main thread be held).
const shutdown = gracefulShutdown({
  server,
  readiness,
  logger: processLogger,
  timeoutMs: config.shutdownTimeoutMs,
  exit: exits.exit,
});
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    exits.exitWithin(config.shutdownTimeoutMs);
    // The metrics port takes no new scrape or probe (a refused probe fails readiness, as it
    // should now); one under way finishes.
    metricsServer.close();
    metricsServer.closeIdleConnections();
    shutdown(signal);
  });
}

// Logged once the signals are handled: a supervisor that signals on this line finds the server ready to stop.
processLogger.info({ port, metricsPort, host: config.host, production: config.production }, 'listening');
