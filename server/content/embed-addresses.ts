/**
 * The addresses a provider lets another site show in a frame. A page address (a YouTube watch
 * page, a Google Maps search) is refused by the provider inside a frame, so the page would show
 * an empty box on the day: each is told with the embed address it should be, where that can be
 * worked out.
 */

const YOUTUBE_EMBED_HOSTS = new Set([
  'www.youtube.com',
  'youtube.com',
  'www.youtube-nocookie.com',
  'youtube-nocookie.com',
]);
const YOUTUBE_PAGE_HOSTS = new Set(['www.youtube.com', 'youtube.com', 'm.youtube.com', 'music.youtube.com']);
const YOUTUBE_ID = /^[\w-]{11}$/;
/** The player without YouTube's controls, as the page's stream is shown; the privacy-enhanced host. */
const YOUTUBE_PLAYER_PARAMETERS = 'controls=0&rel=0&playsinline=1';

const GOOGLE_HOSTS = new Set(['www.google.com', 'google.com', 'maps.google.com']);

/**
 * Hosts of this machine: a stand-in for a provider that answers the providers' paths (the browser
 * tests' fake provider, which counts what reaches it). No visitor can reach one, so the check
 * accepts it with a warning (embedStandInWarning) and refuses every other host it does not know.
 */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** For editors' tools (content/event.schema.json): the same forms as a pattern. */
export const VIDEO_EMBED_PATTERN =
  '^https://((www\\.)?youtube(-nocookie)?\\.com/embed/[\\w-]{11}|player\\.vimeo\\.com/video/\\d+)([?#].*)?$';
export const MAP_EMBED_PATTERN =
  '^https://(((www|maps)\\.)?google\\.com/maps(/embed([/?].*)?|\\?([^#]*&)?output=embed(&.*|#.*)?)|www\\.openstreetmap\\.org/export/embed\\.html([?#].*)?)$';

const VIDEO_FORMS =
  'https://www.youtube-nocookie.com/embed/<id>, https://www.youtube.com/embed/<id> or https://player.vimeo.com/video/<id>';
const MAP_FORMS =
  'Google Maps\u2019 https://www.google.com/maps/embed?pb=… or https://www.google.com/maps?q=<address>&output=embed, or OpenStreetMap\u2019s https://www.openstreetmap.org/export/embed.html?bbox=…';

/** Why a video address cannot be framed, with the embed address it should be; null when it can. */
export function videoEmbedProblem(address: string): string | null {
  const url = httpsUrl(address);
  if (!url) return null;
  const host = url.hostname;
  const standIn = LOOPBACK_HOSTS.has(host);
  if ((YOUTUBE_EMBED_HOSTS.has(host) || standIn) && /^\/embed\/[\w-]{11}$/.test(url.pathname)) return null;
  if ((host === 'player.vimeo.com' || standIn) && /^\/video\/\d+$/.test(url.pathname)) return null;

  const youtubeId =
    (YOUTUBE_PAGE_HOSTS.has(host) && url.pathname === '/watch' && url.searchParams.get('v')) ||
    (YOUTUBE_PAGE_HOSTS.has(host) && /^\/(?:live|shorts)\/([\w-]{11})$/.exec(url.pathname)?.[1]) ||
    (host === 'youtu.be' && url.pathname.slice(1));
  if (youtubeId && YOUTUBE_ID.test(youtubeId))
    return `is a YouTube page, which YouTube does not let other sites frame; did you mean https://www.youtube-nocookie.com/embed/${youtubeId}?${YOUTUBE_PLAYER_PARAMETERS}?`;
  const vimeoId = (host === 'vimeo.com' || host === 'www.vimeo.com') && /^\/(\d+)$/.exec(url.pathname)?.[1];
  if (vimeoId)
    return `is a Vimeo page, which Vimeo does not let other sites frame; did you mean https://player.vimeo.com/video/${vimeoId}?`;
  return `is not a video player address its provider lets other sites frame: use ${VIDEO_FORMS}`;
}

/** Why a map address cannot be framed, with the embed address it should be; null when it can. */
export function mapEmbedProblem(address: string): string | null {
  const url = httpsUrl(address);
  if (!url) return null;
  const host = url.hostname;
  if (GOOGLE_HOSTS.has(host) || LOOPBACK_HOSTS.has(host)) {
    if (url.pathname === '/maps/embed' || url.pathname.startsWith('/maps/embed/')) return null;
    if (url.pathname === '/maps' && url.searchParams.get('output') === 'embed') return null;
  }
  if (host === 'www.openstreetmap.org' && url.pathname === '/export/embed.html') return null;

  // A Google Maps search or place: the same search, in the form Google frames. Kept as written.
  const search = GOOGLE_HOSTS.has(host)
    ? (/[?&](?:query|q)=([^&#]+)/.exec(url.search)?.[1] ?? /^\/maps\/place\/([^/]+)/.exec(url.pathname)?.[1])
    : undefined;
  const suggestion = search ? `; did you mean https://www.google.com/maps?q=${search}&output=embed?` : '';
  return `is not a map address its provider lets other sites frame (use ${MAP_FORMS})${suggestion}`;
}

/** The warning for an embed address on this machine, which no visitor can reach; null for any other. */
export function embedStandInWarning(address: string): string | null {
  const url = httpsUrl(address);
  if (!url || !LOOPBACK_HOSTS.has(url.hostname)) return null;
  return 'is on this machine, a stand-in for the provider that no visitor can reach: set the provider’s address before going live';
}

/**
 * Where the stream can be watched at its provider, for a visitor without scripts: the watch page
 * of a YouTube player (on youtube.com, whichever of its hosts plays it), the page of a Vimeo one.
 */
export function watchAddress(embedUrl: string): string {
  const url = new URL(embedUrl);
  const youtubeId = /^\/embed\/([\w-]{11})$/.exec(url.pathname)?.[1];
  if (youtubeId) {
    const host = url.hostname.includes('youtube') ? 'https://www.youtube.com' : url.origin;
    return `${host}/watch?v=${youtubeId}`;
  }
  const vimeoId = /^\/video\/(\d+)$/.exec(url.pathname)?.[1];
  if (vimeoId) return url.hostname === 'player.vimeo.com' ? `https://vimeo.com/${vimeoId}` : `${url.origin}/${vimeoId}`;
  return url.href;
}

function httpsUrl(address: string): URL | null {
  const url = URL.parse(address);
  return url?.protocol === 'https:' ? url : null;
}
