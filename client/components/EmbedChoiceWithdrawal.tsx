import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { forgetProviders } from '../embed-consent.ts';
import { useHydrated } from '../use-media.ts';

/** The privacy policy's one button that withdraws the visitor's choice to always load the frames. */
export function EmbedChoiceWithdrawal() {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const [withdrawn, setWithdrawn] = useState(false);
  return (
    <div className="legal__withdraw">
      <button
        type="button"
        className="button button--quiet"
        disabled={!hydrated}
        onClick={() => {
          forgetProviders();
          setWithdrawn(true);
        }}
      >
        {t('privacy.embeds.withdrawButton')}
      </button>
      <p role="status">{withdrawn ? t('privacy.embeds.withdrawn') : ''}</p>
    </div>
  );
}
