import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Rehearsal } from '../../shared/rehearsal.ts';
import { useAppData } from '../app-data.tsx';
import { LtrData, withElements } from '../data-text.tsx';

/** What the rehearsal's banner says, in one language. */
export interface RehearsalTexts {
  label: string;
  text: ReactNode[];
}

/**
 * The banner's texts from a language's `t`: the event clock's reading at start and its zone set
 * apart as data. The server's error page, which has no React i18n of its own, asks here too.
 */
export function rehearsalTexts(
  t: (key: string, values: Record<string, unknown>) => string,
  rehearsal: Rehearsal,
): RehearsalTexts {
  return {
    label: t('rehearsal.label', {}),
    text: withElements(t, 'rehearsal.text', {
      clock: <LtrData>{rehearsal.clockAtStart}</LtrData>,
      zone: <LtrData>{rehearsal.timeZone}</LtrData>,
    }),
  };
}

/**
 * The mark of a rehearsal (REHEARSAL_CLOCK), at the top of every page while one is on: that this
 * is not the event, and what the event clock read when the server started. In the server's HTML,
 * in the flow above everything else, so it is read before any script runs and covers nothing.
 */
export function RehearsalBanner({ texts }: { texts: RehearsalTexts }) {
  return (
    <div className="rehearsal-banner" role="note" data-testid="rehearsal">
      <strong>{texts.label}</strong> {texts.text}
    </div>
  );
}

/** The banner of the page's rehearsal, in the page's language; nothing on the real clock. */
export function PageRehearsalBanner() {
  const { t } = useTranslation();
  const { rehearsal } = useAppData();
  if (!rehearsal) return null;
  return <RehearsalBanner texts={rehearsalTexts((key, values) => t(key, values), rehearsal)} />;
}
