import { z } from 'zod';
import type { PublicVideo } from '../../shared/page-data.ts';
import { embedStandInWarning, watchAddress } from './embed-addresses.ts';
import { quoted, type Finding } from './findings.ts';
import { frameOrigins } from './frame-origins.ts';
import { playerEmbedUrl, type SiteContent } from './site-content.ts';

/**
 * A backup stream: the live state naming another player address in place of the content file's
 * video, for a stream that fails on the day. It takes the forms the content file's
 * `video.embedUrl` takes, and must come from an origin the page's Content-Security-Policy lets
 * frames come from: that policy is fixed at start from the content file, so a player from any
 * other origin would stay an empty box in every browser.
 */

/** The live file's `stream` field: the content file's `video` as far as a backup changes it, its address. */
export const liveStreamField = z
  .strictObject({
    embedUrl: playerEmbedUrl.describe(
      'The backup player’s address, in the forms of the content file’s video.embedUrl and from an origin it lists',
    ),
  })
  .nullable()
  .optional()
  .describe('A backup stream in place of the content file’s video; remove it (or null) to go back to that');

export type LiveStreamValue = z.infer<typeof liveStreamField>;

/** What a backup stream is checked against and formed with: the content file's frames and video. */
export interface LiveStreamRules {
  /** The origins the Content-Security-Policy's `frame-src` allows, fixed at start from the content file. */
  frameOrigins: readonly string[];
  /** The content file's video as the page shows it: a backup keeps its provider and its placeholder picture. */
  video: PublicVideo;
}

/** The rules of a content file that loaded. */
export function liveStreamRulesOf(content: SiteContent): LiveStreamRules {
  return { frameOrigins: frameOrigins(content.raw), video: content.public.video };
}

/** A backup stream checked: the video the page shows in its place (null: the content file's), and its findings. */
export interface LiveStreamCheck {
  stream: PublicVideo | null;
  problems: Finding[];
  warnings: Finding[];
}

/** Where the field is and what it is called: the live file's line and field, or the row's column (live-file.ts's LiveFields). */
export interface StreamField {
  lineOf(path: readonly PropertyKey[]): number;
  nameOf(path: readonly PropertyKey[]): string;
}

/**
 * Checks a backup stream whose form the schema took against the content file's frame origins, and
 * forms it as the content file's video is formed for the page.
 */
export function checkLiveStream(
  value: LiveStreamValue,
  fields: StreamField,
  rules: LiveStreamRules | null,
): LiveStreamCheck {
  if (!value) return { stream: null, problems: [], warnings: [] };
  return checkLivePlayer(value.embedUrl, ['stream', 'embedUrl'], fields, rules);
}

/**
 * Checks a player's address the live state names (a backup stream, the recording) against the
 * content file's frame origins, and forms it as the content file's video is formed for the page.
 * Without the content file's rules (it has problems of its own, which already keep the server from
 * starting) the origin cannot be checked: the player is left out, with a warning.
 */
export function checkLivePlayer(
  embedUrl: string,
  path: readonly PropertyKey[],
  fields: StreamField,
  rules: LiveStreamRules | null,
): LiveStreamCheck {
  const line = fields.lineOf(path);
  const named = `${fields.nameOf(path)}${quoted(embedUrl)}`;
  if (!rules)
    return {
      stream: null,
      problems: [],
      warnings: [
        {
          line,
          message: `${named} is left out: its origin is checked against the content file’s frames, which are known once the content file has no problems`,
        },
      ],
    };

  const origin = new URL(embedUrl).origin;
  if (!rules.frameOrigins.includes(origin))
    return {
      stream: null,
      problems: [
        {
          line,
          message: `${named} is on ${origin}, which the page’s Content-Security-Policy does not let frames come from: its frame-src is fixed at start from the content file’s video.embedUrl, video.recording and studios’ mapEmbedUrl, and allows only ${rules.frameOrigins.join(', ')}; use a player on one of these, or name the origin in the content file and restart the server`,
        },
      ],
      warnings: [],
    };

  const standIn = embedStandInWarning(embedUrl);
  return {
    stream: formStream(embedUrl, rules.video),
    problems: [],
    warnings: standIn ? [{ line, message: `${named} ${standIn}` }] : [],
  };
}

/**
 * The backup stream as the page shows it: its own address and watch link, the content file's
 * provider (a backup comes from an origin the content file's frames come from, its provider's)
 * and placeholder picture.
 */
function formStream(embedUrl: string, video: PublicVideo): PublicVideo {
  return { embedUrl, watchUrl: watchAddress(embedUrl), provider: video.provider, poster: video.poster };
}
