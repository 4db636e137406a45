import type { ContentFile } from './site-content.ts';

/**
 * The origins the page's frames come from: the content file's video, its recording and the studios' maps. The
 * Content-Security-Policy's `frame-src` allows exactly these, fixed at start; a backup stream the
 * live state names is checked against the same list, since a frame from any other origin would
 * stay empty.
 */
export function frameOrigins(file: ContentFile): string[] {
  const embeds = [
    file.video.embedUrl,
    ...(file.video.recording ? [file.video.recording.embedUrl] : []),
    ...file.studios.map((studio) => studio.mapEmbedUrl),
  ];
  return [...new Set(embeds.filter((address) => URL.canParse(address)).map((address) => new URL(address).origin))];
}
