import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DrawnLogo } from './DrawnLogo.tsx';

/**
 * The logo: the image the content or the backend names, used as it is, or the sample's mark drawn
 * with the event's name when there is none or it does not load.
 * Before scripts run a broken image shows its alt text, which is the same name;
 * once hydrated, an image that already failed is caught by checking it directly,
 * since its error event fired before React was listening. It loads at low priority, like the
 * first slide: the hero's text paints without it, and the page's script is needed sooner.
 */
export function Logo({ url }: { url: string | null }) {
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
      className="logo"
      src={url}
      alt={t('product')}
      width={240}
      height={80}
      decoding="async"
      fetchPriority="low"
      onError={() => setFailed(true)}
    />
  );
}
