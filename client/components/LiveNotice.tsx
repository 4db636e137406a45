import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { languageInfo } from '../../shared/languages.ts';
import { noticeFor, type LiveNotice as Notice } from '../../shared/live-state.ts';
import { useAppData } from '../app-data.tsx';
import { useLanguage } from '../language.tsx';

/*
 * The event team's notice, in two places, so that nothing the visitor reads ever moves
 * (docs/decisions.md): the notice the page was rendered with sits at the top, in the flow, and a
 * notice that comes later floats in a bar at the bottom of the viewport. A place a notice has
 * taken keeps its room, the notice hidden, once it is replaced or taken down.
 */

/**
 * The notice the page was rendered with, at the top of every page, as text in the server's HTML.
 * Once the live state has another (or none), its room stays, empty, above the language bar.
 */
export function LiveNotice() {
  const { live } = useAppData();
  const [rendered] = useState(live.notice);
  if (!rendered) return null;
  const current = sameNotice(live.notice, rendered);
  return (
    <div className="live-notice-slot">
      <NoticeText notice={rendered} shown={current} />
    </div>
  );
}

/**
 * A notice that came after the page was rendered, in a polite live region (there from the start,
 * empty, so that a screen reader hears the notice once, when it comes) in a bar at the end of the
 * page: it sticks to the bottom of the viewport, over the page, and takes its room only at the
 * page's end, so that the footer can be scrolled clear of it. The visitor may close it, for that
 * notice: the next one shows again. Closed or taken down, it keeps that room, hidden. The button
 * is beside the live region, not in it, so that its name is not read out with the notice.
 */
export function LateLiveNotice() {
  const { t } = useTranslation();
  const { live } = useAppData();
  const [rendered] = useState(live.notice);
  const [last, setLast] = useState<Notice | null>(null);
  const [closed, setClosed] = useState<Notice | null>(null);
  const late = live.notice && !sameNotice(live.notice, rendered) ? live.notice : null;
  if (late && late !== last) setLast(late);
  const notice = late ?? last;
  const shown = late !== null && !sameNotice(late, closed);
  return (
    <div className="live-notice-bar">
      <div className="live-notice-region" aria-live="polite">
        {notice && <NoticeText notice={notice} shown={shown} />}
      </div>
      {shown && (
        <button
          type="button"
          className="live-notice-bar__close"
          aria-label={t('liveNotice.close')}
          onClick={() => setClosed(late)}
        >
          <span aria-hidden="true">×</span>
        </button>
      )}
    </div>
  );
}

/**
 * The notice in the page's language or else the default language's (marked as written in it).
 * Plain text: whatever the notice holds is shown as it is written. Not `shown`: it keeps its room.
 */
function NoticeText({ notice, shown }: { notice: Notice; shown: boolean }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { content } = useAppData();
  const text = noticeFor(notice, language, content.languages[0]!.code);
  return (
    <p
      className={`live-notice live-notice--${notice.level}${shown ? '' : ' live-notice--kept'}`}
      data-testid={shown ? 'live-notice' : undefined}
      aria-hidden={shown ? undefined : true}
    >
      <strong className="live-notice__label">{t(`liveNotice.${notice.level}`)}</strong>{' '}
      {text.language === language ? (
        <span>{text.text}</span>
      ) : (
        <span lang={text.language} dir={languageInfo(content.languages, text.language).dir}>
          {text.text}
        </span>
      )}
    </p>
  );
}

function sameNotice(a: Notice | null, b: Notice | null): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
