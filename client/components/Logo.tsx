import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DrawnLogo } from './DrawnLogo.tsx';

/**
 * The logo: the image the content or the backend names, 72 px high or at the `size` given for a
 * smaller picture, or the sample's mark drawn with the event's name when there is none or it does
 * not load.
 * Before scripts run a broken image shows its alt text, which is the same name;
 * once hydrated, an image that already failed is caught by checking it directly,
 * since its error event fired before React was listening. It loads at low priority, like the
 * first slide: the hero's text paints without it, and the page's script is needed sooner.
 */
export function Logo({ url, size }: { url: string | null; size?: { width: number; height: number } }) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState(false);
  const image = useRef<HTMLImageElement>(null);

  useEffect(() => {
    const img = image.current;
    if (img && img.complete && img.naturalWidth === 0) setFailed(true);
  }, [url]);

  if (!url || failed) return <DrawnLogo name={t('product')} />;
  return (
    <img
      ref={image}
      className={size ? 'logo logo--sized' : 'logo'}
      src={url}
      alt={t('product')}
      width={size?.width ?? 240}
      height={size?.height ?? 80}
      decoding="async"
      fetchPriority="low"
      onError={() => setFailed(true)}
    />
  );
}
