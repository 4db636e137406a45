import { serializeForScript } from '../../shared/bootstrap.ts';
import { languageInfo, type LanguageInfo } from '../../shared/languages.ts';
import { effectiveRecording, effectiveVideo, eventWithLive, noticeFor, startMoved } from '../../shared/live-state.ts';
import { PAGE_PATHS } from '../../shared/routes.ts';
import { absoluteUrl, languageAlternates, pageUrl } from '../discovery/public-urls.ts';
import type { PageRequest } from './page-request.ts';
import { previewImage } from './preview-image.ts';
import { eventStructuredData } from '../../shared/structured-data.ts';

export interface SeoHeadProps {
  page: PageRequest;
  title: string;
  description: string;
}

/**
 * What search engines and link previews read from the head: the canonical address and
 * its languages, Open Graph and Twitter card tags, and (on the landing page) the event
 * as JSON-LD. Every address is built from the public origin, never from request headers,
 * so no Host or X-Forwarded-Host header can change the page. A 404 is only marked noindex, and so
 * is every page of a rehearsal, whose event clock is not the real one.
 */
export function SeoHead({ page, title, description }: SeoHeadProps) {
  if (page.kind === 'notFound') return <meta name="robots" content="noindex" />;
  const noindex = page.bootstrap.app.rehearsal && <meta name="robots" content="noindex" />;
  const { language, app } = page.bootstrap;
  const { languages } = app.content;

  // A page reached by another spelling (`/impressum/`) still names its own path as canonical.
  const path = PAGE_PATHS[page.kind];
  const canonical = pageUrl(page.publicOrigin, path, language);
  const image = previewImage(app, page.publicOrigin);
  const recording = page.moment === 'recording' ? effectiveRecording(app.live, app.content) : null;
  const video = recording ?? effectiveVideo(app.live, app.content.video);
  return (
    <>
      {noindex}
      <link rel="canonical" href={canonical} />
      {languageAlternates(
        page.publicOrigin,
        path,
        languages.map((offered) => offered.code),
      ).map(({ hreflang, href }) => (
        <link key={hreflang} rel="alternate" hrefLang={hreflang} href={href} />
      ))}
      <meta property="og:type" content="website" />
      <meta property="og:site_name" content={page.i18n.t('product')} />
      <meta property="og:title" content={title} />
      <meta property="og:description" content={description} />
      <meta property="og:url" content={canonical} />
      {image && <meta property="og:image" content={image.url} />}
      {image?.type && <meta property="og:image:type" content={image.type} />}
      {image?.width && <meta property="og:image:width" content={String(image.width)} />}
      {image?.height && <meta property="og:image:height" content={String(image.height)} />}
      <meta property="og:locale" content={openGraphLocale(languageInfo(languages, language))} />
      {languages
        .filter((other) => other.code !== language)
        .map((other) => (
          <meta key={other.code} property="og:locale:alternate" content={openGraphLocale(other)} />
        ))}
      <meta name="twitter:card" content={image ? 'summary_large_image' : 'summary'} />
      <meta name="twitter:title" content={title} />
      <meta name="twitter:description" content={description} />
      {image && <meta name="twitter:image" content={image.url} />}
      {page.kind === 'landing' && (
        <script
          type="application/ld+json"
          dangerouslySetInnerHTML={{
            __html: serializeForScript(
              eventStructuredData({
                event: eventWithLive(app.content.event, app.live),
                plannedStart: startMoved(app.live, app.content.event) ? app.content.event : null,
                studios: app.content.studios,
                company: app.content.company,
                language,
                name: page.i18n.t('hero.title'),
                description,
                pageUrl: canonical,
                imageUrl: image?.url ?? null,
                notice: app.live.notice ? noticeFor(app.live.notice, language, languages[0]!.code).text : null,
                segmentName: (id) => page.i18n.t(`programme.segments.${id}.title`),
                moment: page.moment,
                stream: {
                  embedUrl: video.embedUrl,
                  pictureUrl: video.poster && absoluteUrl(page.publicOrigin, video.poster.src),
                  beginsAtSeconds: recording?.beginsAtSeconds,
                },
              }),
            ),
          }}
        />
      )}
    </>
  );
}

/** Open Graph writes locales with an underscore: en_GB. */
function openGraphLocale(language: LanguageInfo): string {
  return language.locale.replace('-', '_');
}
