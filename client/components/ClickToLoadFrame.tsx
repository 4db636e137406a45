import { useEffect, useRef, useState, type IframeHTMLAttributes, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { EmbedProvider } from '../../shared/embeds.ts';
import { allowProvider, useProviderAllowed } from '../embed-consent.ts';
import { useLanguage } from '../language.tsx';
import { useHydrated } from '../use-media.ts';

interface Props {
  provider: EmbedProvider;
  /** The frame's title, its address (asked to start when `clicked`) and its other attributes. */
  frame: (clicked: boolean) => IframeHTMLAttributes<HTMLIFrameElement> & { src: string; title: string };
  /** The button's text, which names the provider. */
  loadLabel: string;
  /** Without scripts the placeholder is this link to the content at the provider, in a new tab. */
  link: { href: string; label: string };
  /** Under the plate: a picture of this site's. */
  backdrop?: ReactNode;
  className: string;
}

/**
 * A third party's frame (the stream, a map) behind a placeholder of the site's own: nothing
 * reaches the provider until the visitor clicks its button, or has chosen to always load it, or
 * the content loads it at once. Even then it waits for hydration and, on a first visit, for the
 * language choice. After a click the frame takes the focus; the box keeps its size throughout.
 */
export function ClickToLoadFrame({ provider, frame, loadLabel, link, backdrop, className }: Props) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const { chosen } = useLanguage();
  const allowed = useProviderAllowed(provider.name);
  const [clicked, setClicked] = useState(false);
  const [remember, setRemember] = useState(false);
  const frameRef = useRef<HTMLIFrameElement>(null);
  const loads = hydrated && chosen && (provider.load === 'at-once' || allowed || clicked);

  useEffect(() => {
    if (clicked && loads) frameRef.current?.focus();
  }, [clicked, loads]);

  if (loads) {
    const { title, ...attributes } = frame(clicked);
    return <iframe {...attributes} ref={frameRef} title={title} className={className} />;
  }
  return (
    <div className={`${className} embed-placeholder`}>
      {backdrop}
      <div className="embed-placeholder__plate">
        <button
          type="button"
          className="button button--primary embed-placeholder__load"
          disabled={!hydrated}
          onClick={() => {
            setClicked(true);
            allowProvider(provider.name, { remember });
          }}
        >
          {loadLabel}
        </button>
        <label className="embed-placeholder__always">
          <input
            type="checkbox"
            checked={remember}
            disabled={!hydrated}
            onChange={(event) => setRemember(event.target.checked)}
          />
          {t('embeds.always', { provider: provider.name })}
        </label>
        <a className="embed-placeholder__link" href={link.href} target="_blank" rel="noopener noreferrer">
          {link.label} <span className="visually-hidden">{t('studios.newTab')}</span>
        </a>
        <p className="embed-placeholder__notice">
          {t('embeds.notice', { provider: provider.name })}{' '}
          <a href={provider.privacyUrl} target="_blank" rel="noopener noreferrer">
            {t('embeds.privacy', { provider: provider.name })}
            <span className="visually-hidden"> {t('studios.newTab')}</span>
          </a>
        </p>
      </div>
    </div>
  );
}
