/**
 * The player's address for a page in `language`: captions and the player's interface in that
 * language, and, when the visitor has just clicked to play, asked to start. A YouTube player is
 * told by its `/embed/<id>` path, a Vimeo player by `/video/<id>` (the content check allows no
 * other host; a stand-in on this machine has the same paths).
 */
export function playerAddress(embedUrl: string, language: string, { autoplay }: { autoplay: boolean }): string {
  const url = new URL(embedUrl);
  const set = (name: string, value: string) => url.searchParams.set(name, value);
  if (/^\/video\/\d+$/.test(url.pathname)) {
    set('texttrack', language);
    if (autoplay) set('autoplay', '1');
  } else {
    set('cc_load_policy', '1');
    set('cc_lang_pref', language);
    set('hl', language);
    if (autoplay) set('autoplay', '1');
  }
  return url.href;
}
