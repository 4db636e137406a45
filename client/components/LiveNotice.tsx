import { useTranslation } from 'react-i18next';
import { languageInfo } from '../../shared/languages.ts';
import { noticeFor } from '../../shared/live-state.ts';
import { useAppData } from '../app-data.tsx';
import { useLanguage } from '../language.tsx';

/**
 * The event team's notice, at the top of every page, in the page's language or else the default
 * language's (marked as written in it). Plain text: whatever the notice holds is shown as it is
 * written. The region (a polite live region, not a `status`: the hero's phase line is the page's
 * status) is there with or without a notice, so that one posted later is heard once.
 */
export function LiveNotice() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { live, content } = useAppData();
  const { notice } = live;
  const shown = notice && noticeFor(notice, language, content.languages[0]!.code);
  return (
    <div className="live-notice-region" aria-live="polite">
      {notice && shown && (
        <p className={`live-notice live-notice--${notice.level}`} data-testid="live-notice">
          <strong className="live-notice__label">{t(`liveNotice.${notice.level}`)}</strong>{' '}
          {shown.language === language ? (
            <span>{shown.text}</span>
          ) : (
            <span lang={shown.language} dir={languageInfo(content.languages, shown.language).dir}>
              {shown.text}
            </span>
          )}
        </p>
      )}
    </div>
  );
}
