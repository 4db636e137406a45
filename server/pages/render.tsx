import { BROADCAST_TEXTS } from '../../shared/broadcast-texts.ts';
import { inLanguage, languageInfo } from '../../shared/languages.ts';
import { Writable } from 'node:stream';
import type { Response } from 'express';
import { renderToPipeableStream, renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { StaticRouter } from 'react-router-dom';
import type { i18n as I18n } from 'i18next';
import type { Logger } from 'pino';
import { App } from '../../client/App.tsx';
import { ErrorPage } from '../../client/pages/ErrorPage.tsx';
import { RehearsalBanner, rehearsalTexts, type RehearsalTexts } from '../../client/components/RehearsalBanner.tsx';
import type { Rehearsal } from '../../shared/rehearsal.ts';
import { Document, InlineStylesheet } from './document.tsx';
import type { PageRequest } from './page-request.ts';
import type { PageKind } from '../../shared/routes.ts';
import { SeoHead } from './seo-head.tsx';

/** A render that has not finished by then is cut off, so no request hangs on it. */
const RENDER_TIMEOUT_MS = 5000;
/**
 * Past this many bytes React moves a finished Suspense boundary out of place and puts it back
 * with an inline script, which the page's policy forbids. Nothing on the page waits for data
 * while it renders, so every boundary stays where it is.
 */
const INLINE_EVERY_BOUNDARY = Number.POSITIVE_INFINITY;

const TITLE_KEYS: Record<PageKind, string> = {
  landing: 'meta.title',
  impressum: 'meta.impressumTitle',
  notFound: 'meta.notFoundTitle',
};

/** The React tree of one page: the document around the app, inside a StaticRouter. */
export function pageElement(page: PageRequest) {
  const { bootstrap, i18n } = page;
  const title = i18n.t(TITLE_KEYS[page.kind]);
  const description = i18n.t(BROADCAST_TEXTS.description[page.moment], {
    cities: inLanguage(bootstrap.app.content.cityList, bootstrap.language),
  });
  return (
    <Document
      language={bootstrap.language}
      dir={languageInfo(bootstrap.app.content.languages, bootstrap.language).dir}
      title={title}
      description={description}
      head={<SeoHead page={page} title={title} description={description} />}
      assets={page.assets}
      bootstrap={bootstrap}
    >
      <I18nextProvider i18n={i18n}>
        <StaticRouter location={page.url}>
          <App page={bootstrap} showErrorStack={page.showErrorStack} />
        </StaticRouter>
      </I18nextProvider>
    </Document>
  );
}

/**
 * Renders a whole page into memory, for the page cache. Rejects on any render error,
 * so that a broken page is never kept.
 */
export function renderPageToBuffer(page: PageRequest, logger: Logger): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
      final(done) {
        resolve(Buffer.concat(chunks));
        done();
      },
    });
    let failure: unknown;
    const stream = renderToPipeableStream(pageElement(page), {
      progressiveChunkSize: INLINE_EVERY_BOUNDARY,
      onAllReady() {
        if (failure) return reject(failure);
        stream.pipe(sink);
      },
      onShellError: reject,
      onError(error) {
        failure ??= error;
        logger.error({ err: error, url: page.url }, 'page render failed');
      },
    });
    setTimeout(() => stream.abort(new Error('Render timed out')), RENDER_TIMEOUT_MS).unref();
  });
}

export interface ErrorPageOptions extends Pick<PageRequest, 'assets' | 'showErrorStack'> {
  language: string;
  /** A rehearsal's banner, in the page's language: the error page is marked like every other page. */
  rehearsal: RehearsalTexts | null;
}

/** What the error page of a page request is rendered with. */
export function errorPageOptions(page: PageRequest): ErrorPageOptions {
  return {
    language: page.bootstrap.language,
    assets: page.assets,
    showErrorStack: page.showErrorStack,
    rehearsal: page.bootstrap.app.rehearsal && errorPageRehearsal(page.i18n, page.bootstrap.app.rehearsal),
  };
}

/** The rehearsal's banner for an error page, in the language `i18n` speaks. */
export function errorPageRehearsal(i18n: I18n, rehearsal: Rehearsal): RehearsalTexts {
  return rehearsalTexts((key, values) => i18n.t(key, values), rehearsal);
}

/** The error page: status 500, never cached, the stack only outside production. */
export function sendErrorPage(res: Response, error: unknown, page: ErrorPageOptions): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const html = renderToStaticMarkup(
    <html lang={page.language}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>Unexpected Application Error!</title>
        {page.rehearsal && <meta name="robots" content="noindex" />}
        <InlineStylesheet assets={page.assets} />
      </head>
      <body>
        {page.rehearsal && <RehearsalBanner texts={page.rehearsal} />}
        <ErrorPage error={error} showStack={page.showErrorStack} />
      </body>
    </html>,
  );
  res
    .status(500)
    .setHeader('Content-Type', 'text/html; charset=utf-8')
    .setHeader('Cache-Control', 'no-store')
    .send(`<!DOCTYPE html>${html}`);
}
