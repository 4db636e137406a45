import { useEffect, useRef, useState, type IframeHTMLAttributes, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { EmbedProvider } from '../../shared/embeds.ts';
import { allowProvider, rememberProvider, useProviderAllowed, useProviderRemembered } from '../embed-consent.ts';
import { useLanguage } from '../language.tsx';
import { useHydrated } from '../use-media.ts';

interface Props {
  /** Names the frame in the page's ids (the server's and the browser's trees differ above the app, so no `useId`). */
  id: string;
  provider: EmbedProvider;
  /** The frame's title, its address (asked to start when `clicked`) and its other attributes. */
  frame: (clicked: boolean) => IframeHTMLAttributes<HTMLIFrameElement> & { src: string; title: string };
  /** The button's text, which names the provider. */
  loadLabel: string;
  /** Without scripts the placeholder is this link to the content at the provider, in a new tab. */
  link: { href: string; label: string };
  /** Behind the button: a picture of this site's. */
  backdrop?: ReactNode;
  /** The box the frame or its placeholder fills, whose size the page gives it (the stream's 16:9). */
  boxClassName: string;
  /** The frame's, and its placeholder's. */
  className: string;
  /** In the button's place, this sentence: there is nothing to load (a stream called off). */
  closed?: string | null;
  /** Called once a frame is in the page (clicked, or loaded at once), before it has loaded; again for another address. */
  onFrame?: () => void;
}

/**
 * A third party's frame (the stream, a map) behind a placeholder of the site's own: nothing
 * reaches the provider until the visitor clicks its button, or has chosen to always load it, or
 * the content loads it at once. Even then it waits for hydration and, on a first visit, for the
 * language choice. After a click the frame takes the focus.
 *
 * The box holds only what fits it on the smallest phone: the picture and the one button naming
 * the provider (without scripts, the link to the content at the provider in its place). The
 * provider's notice with its privacy policy and "always load" stand in a line under the box, the
 * same before and after the frame loads, so nothing moves when it does; ticking "always load"
 * once the frame is there still keeps the choice.
 */
export function ClickToLoadFrame({
  id,
  provider,
  frame,
  loadLabel,
  link,
  backdrop,
  boxClassName,
  className,
  closed,
  onFrame,
}: Props) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const { chosen } = useLanguage();
  const allowed = useProviderAllowed(provider.name);
  const remembered = useProviderRemembered(provider.name);
  const [clicked, setClicked] = useState(false);
  // Before the frame is there, ticking is no choice yet: the click on the button makes it.
  const [ticked, setTicked] = useState(false);
  const frameRef = useRef<HTMLIFrameElement>(null);
  const noticeId = `${id}-embed-notice`;
  const onClick = provider.load === 'on-click';
  const loads = !closed && hydrated && chosen && (!onClick || allowed || clicked);

  useEffect(() => {
    if (clicked && loads) frameRef.current?.focus();
  }, [clicked, loads]);

  const shown = loads ? frame(clicked) : null;
  const shownAddress = shown?.src;
  useEffect(() => {
    if (shownAddress) onFrame?.();
  }, [shownAddress, onFrame]);

  let inBox: ReactNode;
  if (shown) {
    const { title, ...attributes } = shown;
    // Another address (a backup stream, another language, another studio's map) makes a new frame:
    // navigating the one there would add an entry to the visitor's history.
    inBox = <iframe {...attributes} key={attributes.src} ref={frameRef} title={title} className={className} />;
  } else {
    inBox = (
      <div className={`${className} embed-placeholder`}>
        {backdrop}
        {closed ? (
          <p className="embed-placeholder__closed">{closed}</p>
        ) : (
          <>
            <button
              type="button"
              className="button button--primary embed-placeholder__load"
              disabled={!hydrated}
              aria-describedby={onClick ? noticeId : undefined}
              onClick={() => {
                setClicked(true);
                allowProvider(provider.name, { remember: ticked });
              }}
            >
              {loadLabel}
            </button>
            <a
              className="button button--primary embed-placeholder__link"
              href={link.href}
              target="_blank"
              rel="noopener noreferrer"
            >
              {link.label} <span className="visually-hidden">{t('studios.newTab')}</span>
            </a>
          </>
        )}
      </div>
    );
  }
  return (
    <div className="embed">
      <div className={`${boxClassName} embed__box`}>{inBox}</div>
      {onClick && (
        <div className="embed-choice">
          <label className="embed-choice__always">
            <input
              type="checkbox"
              checked={loads ? remembered : ticked}
              disabled={!hydrated}
              onChange={(event) => {
                if (loads) rememberProvider(provider.name, event.target.checked);
                else setTicked(event.target.checked);
              }}
            />
            {t('embeds.always', { provider: provider.name })}
          </label>
          <p className="embed-choice__notice">
            <span id={noticeId}>{t('embeds.notice', { provider: provider.name })}</span>{' '}
            <a href={provider.privacyUrl} target="_blank" rel="noopener noreferrer">
              {t('embeds.privacy', { provider: provider.name })}
              <span className="visually-hidden"> {t('studios.newTab')}</span>
            </a>
          </p>
        </div>
      )}
    </div>
  );
}
