import { Window } from 'happy-dom';

/** The server's HTML as a browser with scripting off builds it (<noscript> children are elements). */
export function parseHtml(html: string): Document {
  const window = new Window();
  return new window.DOMParser().parseFromString(html, 'text/html') as unknown as Document;
}

/** The content of a `<meta name|property>`; undefined when the head has none. */
export function metaContent(doc: Document, key: string): string | undefined {
  const meta = doc.head.querySelector(`meta[property="${key}"], meta[name="${key}"]`);
  return meta?.getAttribute('content') ?? undefined;
}

export function metaContents(doc: Document, key: string): string[] {
  return [...doc.head.querySelectorAll(`meta[property="${key}"], meta[name="${key}"]`)].map((meta) =>
    meta.getAttribute('content')!,
  );
}

/** The one JSON-LD block of a page, parsed. */
export function jsonLdOf(html: string): Record<string, any> {
  const blocks = [...html.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)];
  if (blocks.length !== 1) throw new Error(`expected one JSON-LD block, found ${blocks.length}`);
  return JSON.parse(blocks[0]![1]!) as Record<string, any>;
}
