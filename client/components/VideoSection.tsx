import { useTranslation } from 'react-i18next';
import { useAppData } from '../app-data.tsx';
import { DeferredFrame } from './DeferredFrame.tsx';

export function VideoSection() {
  const { t } = useTranslation();
  const { content } = useAppData();
  return (
    <section id="rsvp" className="section section--video" aria-labelledby="video-heading">
      <h2 id="video-heading">{t('video.heading')}</h2>
      <p className="section__intro">{t('video.intro')}</p>
      <div className="video-frame">
        <DeferredFrame
          src={content.videoEmbedUrl}
          title={t('video.frameTitle')}
          allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
          referrerPolicy="strict-origin-when-cross-origin"
        />
      </div>
    </section>
  );
}
