import { createApp } from './app.ts';
import { loadClientAssets } from './files/client-assets.ts';
import { loadConfig } from './config.ts';
import { loadContent } from './content/site-content.ts';
import { createReadiness } from './ops/health.ts';
import { createHttpServer } from './ops/http-server.ts';
import { loadTranslations } from './pages/i18n.ts';
import { createLogger } from './ops/logger.ts';
import { createMetrics } from './ops/metrics.ts';
import { CLIENT_BUILD_DIR, LOCALES_DIR } from './paths.ts';
import { exitOnUncaughtError, gracefulShutdown } from './ops/shutdown.ts';

const exit = (code: number) => process.exit(code);

// ---- Start-up: everything is read and checked once; a problem stops the server with one line.
let started;
try {
  const config = loadConfig();
  const content = loadContent(config.contentPath);
  const translations = await loadTranslations(LOCALES_DIR);
  const clientAssets = loadClientAssets(CLIENT_BUILD_DIR);
  const logger = createLogger(config.logLevel);
  exitOnUncaughtError(process, logger, exit);
  if (content.placeholders.length > 0) {
    logger.warn({ fields: content.placeholders }, 'content file still holds sample values');
  }
  const metrics = createMetrics();
  const readiness = createReadiness();
  // With SUPABASE_URL and SUPABASE_ANON_KEY this creates the backend client and reads the cache snapshot.
  const app = createApp({
    config,
    content,
    translations,
    clientAssets,
    logger,
    metrics,
    cacheObserver: metrics.cacheObserver,
    readiness,
  });
  started = { config, logger, app, readiness };
} catch (error) {
  console.error(`Cannot start: ${String((error as Error).message).replace(/\s*\n\s*/g, ' ')}`);
  process.exit(1);
}

const { config, logger, app, readiness } = started;

// ---- Listen.
const server = createHttpServer(app, config);
const cannotListen = (error: Error) => {
  console.error(`Cannot start: ${error.message}`);
  process.exit(1);
};
server.once('error', cannotListen);
server.listen(config.port, config.host, () => {
  server.off('error', cannotListen);
  const address = server.address();
  logger.info(
    { port: typeof address === 'object' && address ? address.port : config.port, host: config.host },
    'listening',
  );
});

// ---- Stop: readiness fails, in-flight requests finish, then exit (forced after SHUTDOWN_TIMEOUT_MS).
const shutdown = gracefulShutdown({ server, readiness, logger, timeoutMs: config.shutdownTimeoutMs, exit });
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => shutdown(signal));
