import sharp, { type Metadata, type OutputInfo, type Sharp } from 'sharp';
import { PhotoError, type EncodeLimits, type Rendition } from './photo-encoding.ts';
import { FORMATS, planRenditions, type PhotoFormat, type PhotoKind } from './renditions.ts';

// libvips on one thread and without its operation cache: an encode never takes more than one
// core from the pages, and holds no memory once done (the cache would keep up to 50 MB).
sharp.concurrency(1);
sharp.cache(false);

/** What sharp may be given: photos and logos as editors export them. SVG and PDF are refused (they are programs to render). */
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'heif', 'gif', 'tiff']);

/**
 * The photo is decoded once into at most this box, and every rendition is cut from that: a
 * landscape photo keeps enough height for the widest portrait crop (1440 × 9/16 ≥ 720).
 */
const DECODED_BOX = 2560;

/**
 * Every rendition of one photo the page needs (renditions.ts), in each of its kind's formats.
 * The photo is checked from its header first (format, pixel count), then decoded once, turned
 * upright by its EXIF orientation, shrunk into DECODED_BOX (JPEGs shrink while they are decoded)
 * and, for a slide, laid on the hero's blue where it is transparent. Metadata is not copied:
 * no camera, place or time leaves the server.
 */
export async function encodePhoto(input: Buffer, kind: PhotoKind, limits: EncodeLimits): Promise<Rendition[]> {
  const largest = Math.max(limits.maxPixels.jpeg, limits.maxPixels.other);
  const reading = { failOn: 'warning', autoOrient: true, pages: 1 } as const;
  let header: Metadata;
  try {
    header = await sharp(input, { ...reading, limitInputPixels: largest }).metadata();
  } catch (error) {
    throw new PhotoError(`not an image sharp can read (${oneLine(error)})`);
  }
  if (!header.format || !ACCEPTED_FORMATS.has(header.format))
    throw new PhotoError(`a ${header.format} file, not a photo`);
  const { width, height } = header.autoOrient;
  const maxPixels = header.format === 'jpeg' ? limits.maxPixels.jpeg : limits.maxPixels.other;
  if (width * height > maxPixels)
    throw new PhotoError(`${width} × ${height} pixels, more than the ${maxPixels} a ${header.format} photo may have`);
  // A page shows a slide's landscape picture and a logo's pictures: a photo too small for any
  // (a 1 × 1 placeholder) is no photo, and its slide shows the gradient.
  if (!planRenditions(kind, width, height).some(({ crop }) => crop !== 'portrait'))
    throw new PhotoError(`${width} × ${height} pixels, too small for any picture`);
  // sharp checks the limit again as it decodes.
  const options = { ...reading, limitInputPixels: maxPixels };

  let decoded: { data: Buffer; info: OutputInfo };
  try {
    let pipeline = sharp(input, options).resize({
      width: DECODED_BOX,
      height: DECODED_BOX,
      fit: 'inside',
      withoutEnlargement: true,
    });
    if (kind === 'slide') pipeline = pipeline.flatten({ background: HERO_BLUE });
    decoded = await pipeline.raw().toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw new PhotoError(`cannot be decoded (${oneLine(error)})`);
  }
  const raw = { width: decoded.info.width, height: decoded.info.height, channels: decoded.info.channels };

  const renditions: Rendition[] = [];
  for (const plan of planRenditions(kind, raw.width, raw.height)) {
    for (const format of FORMATS[kind]) {
      const resized = sharp(decoded.data, { raw }).resize({
        width: plan.width,
        height: plan.height,
        fit: 'cover',
        // The portrait crop keeps the part of the photo that draws the eye (edges, saturation, skin).
        position: plan.crop === 'portrait' ? sharp.strategy.attention : 'centre',
      });
      if (kind === 'slide') resized.blur(SLIDE_BLUR_SIGMA);
      renditions.push({ ...plan, format, bytes: await encoded(resized, format) });
    }
  }
  return renditions;
}

/**
 * A slide is seen under the hero's shade, where a camera's grain is not, yet the grain is most of
 * a picture's bytes (a dim studio's 607 × 1080 crop: 121 KiB in WebP, 24 KiB smoothed). A Gaussian
 * blur of this deviation, in the picture's own pixels after resizing, smooths it away; it is the
 * least sharp applies (0.5 leaves the picture as it was).
 */
const SLIDE_BLUR_SIGMA = 0.8;

/** The hero's blue (`--blue`): what shows through a transparent slide. */
const HERO_BLUE = '#0a2a66';

function encoded(image: Sharp, format: PhotoFormat): Promise<Buffer> {
  switch (format) {
    case 'webp':
      return image.webp({ quality: 72, effort: 4 }).toBuffer();
    case 'jpeg':
      // As scripts/make-images.ts makes the shipped slides.
      return image.jpeg({ quality: 72, mozjpeg: true, progressive: true }).toBuffer();
    case 'png':
      return image.png({ compressionLevel: 9, palette: true, quality: 90 }).toBuffer();
  }
}

function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s+/g, ' ').slice(0, 160);
}
