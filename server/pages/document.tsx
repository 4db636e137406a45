import type { ReactNode } from 'react';
import {
  BOOTSTRAP_ELEMENT_ID,
  ROOT_ELEMENT_ID,
  serializeForScript,
  type BootstrapData,
} from '../../shared/bootstrap.ts';
import type { ClientAssets } from '../static/client-assets.ts';

export interface DocumentProps {
  language: string;
  /** The language's writing direction, on the root element so the first paint has it. */
  dir: 'ltr' | 'rtl';
  title: string;
  description: string;
  /** Further head elements: the search-engine and link-preview tags. */
  head?: ReactNode;
  assets: ClientAssets;
  bootstrap: BootstrapData;
  children: ReactNode;
}

/**
 * The whole HTML document. Nothing in it blocks the first paint: the stylesheet travels inside
 * the HTML (see InlineStylesheet), so the document alone is enough to paint the first screen, and
 * its one executable script is the build's starter, inline at the end (see InlineStarter), which
 * fetches the app module only once that paint is reported. The app's data sits in a
 * non-executable JSON element.
 *
 * The first hero slide's preload (with its imagesrcset, at low priority) comes from the hero
 * itself through React's `preload()`; the logo has none, so the head needs no preload links of
 * its own.
 */
export function Document({ language, dir, title, description, head, assets, bootstrap, children }: DocumentProps) {
  return (
    <html lang={language} dir={dir}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <FirstScreenWhole />
        <title>{title}</title>
        <meta name="description" content={description} />
        {head}
        <meta name="theme-color" content="#0a2a66" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <InlineStylesheet assets={assets} />
      </head>
      <body>
        <div id={ROOT_ELEMENT_ID}>{children}</div>
        <script
          type="application/json"
          id={BOOTSTRAP_ELEMENT_ID}
          dangerouslySetInnerHTML={{ __html: serializeForScript(bootstrap) }}
        />
        <InlineStarter assets={assets} />
      </body>
    </html>
  );
}

/**
 * Holds the first frame until the app's markup has been parsed (the data element follows it).
 * The document arrives in one piece, but its parser may yield after the top bar, and a frame
 * painted then shows that bar alone, with the hero's title, the largest element, a frame or more
 * later. Browsers without `rel=expect` paint as they did.
 */
function FirstScreenWhole() {
  return <link rel="expect" href={`#${BOOTSTRAP_ELEMENT_ID}`} blocking="render" />;
}

/**
 * The site's stylesheet as a `<style>` element: the Content-Security-Policy allows exactly
 * these bytes by the hash the build computed, so they go out unescaped and unchanged. The
 * client hydrates only the root element, so React never touches the head in the browser.
 */
export function InlineStylesheet({ assets }: { assets: ClientAssets }) {
  return <style dangerouslySetInnerHTML={{ __html: assets.inlineStyle.text }} />;
}

/**
 * The build's starter as an inline `<script>`, allowed by the Content-Security-Policy by its hash
 * like the stylesheet: inline, it costs the first paint no request of its own.
 */
function InlineStarter({ assets }: { assets: ClientAssets }) {
  return <script dangerouslySetInnerHTML={{ __html: assets.inlineScript.text }} />;
}
