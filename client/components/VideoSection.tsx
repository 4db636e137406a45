import { useTranslation } from 'react-i18next';
import { useAppData } from '../app-data.tsx';

export function VideoSection() {
  const { t } = useTranslation();
  const { content } = useAppData();
  return (
    <section id="rsvp" className="section section--video" aria-labelledby="video-heading">
      <h2 id="video-heading">{t('video.heading')}</h2>
      <p className="section__intro">{t('video.intro')}</p>
      <div className="video-frame">
        <iframe
          src={content.videoEmbedUrl}
          title={t('video.frameTitle')}
          loading="lazy"
          allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
          referrerPolicy="strict-origin-when-cross-origin"
        />
      </div>
    </section>
  );
}
