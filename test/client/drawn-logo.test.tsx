import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DrawnLogo, logoLines } from '../../client/components/DrawnLogo.tsx';
import { TEXT_LIMITS } from '../../server/content/text-limits.ts';
import { parseHtml } from '../helpers/html.ts';

describe('the drawn logo’s lines', () => {
  it('sets the first word large and the rest beneath it, as the sample’s mark does', () => {
    expect(logoLines('Horizon Live 2027')).toEqual({ lead: 'Horizon', rest: 'Live 2027', size: 'full' });
  });

  it('sets a name of one word on one line', () => {
    expect(logoLines('  Nordlicht ')).toEqual({ lead: 'Nordlicht', rest: '', size: 'full' });
  });

  it('sets a right-to-left name by its words in written order: the page’s direction places them', () => {
    expect(logoLines('أفق مباشر 2027')).toMatchObject({ lead: 'أفق', rest: 'مباشر 2027' });
  });

  it('shrinks as the name grows, counting characters rather than UTF-16 units', () => {
    expect(logoLines('x'.repeat(20)).size).toBe('full');
    expect(logoLines('x'.repeat(21)).size).toBe('middle');
    expect(logoLines('😀'.repeat(20)).size).toBe('full');
    expect(logoLines('x'.repeat(40)).size).toBe('middle');
    expect(logoLines('x'.repeat(41)).size).toBe('small');
    expect(logoLines('x'.repeat(TEXT_LIMITS.name)).size).toBe('small');
  });
});

describe('the drawn logo', () => {
  it('is one image named by the event’s name, its mark hidden from assistive technology', () => {
    const doc = parseHtml(renderToString(<DrawnLogo name="Northern Lights Gala 2028" />));
    const logo = doc.querySelector('.logo')!;
    expect(logo.getAttribute('role')).toBe('img');
    expect(logo.getAttribute('aria-label')).toBe('Northern Lights Gala 2028');
    expect(logo.className).toBe('logo logo--drawn logo--middle');
    expect(logo.querySelector('.logo__name')!.textContent).toBe('Northern Lights Gala 2028');
    expect(logo.querySelector('svg')!.getAttribute('aria-hidden')).toBe('true');
  });

  it('escapes the name: markup in a locale file stays text', () => {
    const html = renderToString(<DrawnLogo name={'<img src=x onerror=alert(1)> "Gala"'} />);
    expect(html).not.toContain('<img');
    expect(parseHtml(html).querySelector('.logo__lead')!.textContent).toBe('<img');
  });
});
