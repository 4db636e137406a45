import { createApp } from './app.ts';
import { loadClientAssets } from './assets.ts';
import { loadConfig } from './config.ts';
import { loadContent } from './content.ts';
import { loadTranslations } from './i18n.ts';
import { createLogger } from './logger.ts';
import { CLIENT_BUILD_DIR, LOCALES_DIR } from './paths.ts';

// ---- Start-up: everything is read and checked once; a problem stops the server with one line.
let started;
try {
  const config = loadConfig();
  const content = loadContent(config.contentPath);
  const translations = await loadTranslations(LOCALES_DIR);
  const clientAssets = loadClientAssets(CLIENT_BUILD_DIR);
  const logger = createLogger(config.logLevel);
  if (content.placeholders.length > 0) {
    logger.warn({ fields: content.placeholders }, 'content file still holds sample values');
  }
  // With SUPABASE_URL and SUPABASE_ANON_KEY this creates the backend client and reads the cache snapshot.
  const app = createApp({ config, content, translations, clientAssets, logger });
  started = { config, logger, app };
} catch (error) {
  console.error(`Cannot start: ${String((error as Error).message).replace(/\s*\n\s*/g, ' ')}`);
  process.exit(1);
}

const { config, logger, app } = started;

// ---- Listen.
const server = app.listen(config.port, config.host, (error?: Error) => {
  if (error) {
    console.error(`Cannot start: ${error.message}`);
    process.exit(1);
  }
  const address = server.address();
  logger.info({ port: typeof address === 'object' && address ? address.port : config.port, host: config.host }, 'listening');
});

// ---- Stop: finish what is in flight, then exit.
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    logger.info({ signal }, 'shutting down');
    server.close(() => process.exit(0));
  });
}
