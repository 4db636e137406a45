/**
 * The player's address for a page in `language`: captions and the player's interface in that
 * language, and, when the visitor has just clicked to play, asked to start; from `start` seconds in
 * where given (a chapter of the recording). A YouTube player is told by its `/embed/<id>` path, a
 * Vimeo player by `/video/<id>` (the content check allows no other host; a stand-in on this
 * machine has the same paths).
 */
export function playerAddress(
  embedUrl: string,
  language: string,
  { autoplay, start = 0 }: { autoplay: boolean; start?: number },
): string {
  const url = new URL(embedUrl);
  const set = (name: string, value: string) => url.searchParams.set(name, value);
  if (isVimeo(url)) {
    set('texttrack', language);
    if (autoplay) set('autoplay', '1');
    if (start > 0) url.hash = `t=${start}s`;
  } else {
    set('cc_load_policy', '1');
    set('cc_lang_pref', language);
    set('hl', language);
    if (autoplay) set('autoplay', '1');
    if (start > 0) set('start', String(start));
  }
  return url.href;
}

/** The provider's watch page (`watchUrl`) from `start` seconds in: YouTube's `t` parameter, Vimeo's `#t`. */
export function watchAddressAt(watchUrl: string, start: number): string {
  const url = new URL(watchUrl);
  if (start <= 0) return url.href;
  if (url.searchParams.has('v')) url.searchParams.set('t', `${start}s`);
  else url.hash = `t=${start}s`;
  return url.href;
}

const isVimeo = (url: URL) => /^\/video\/\d+$/.test(url.pathname);
