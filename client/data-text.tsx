import { Fragment, isValidElement, type ReactElement, type ReactNode } from 'react';

/**
 * Data from the content file shown as written, set apart from the text around it (`<bdi>`), so a
 * right-to-left page does not reorder it ("1020 Wien" would read "Wien 1020"). Its direction is
 * its own first strong letter's: left to right for a Latin address, right to left for one a
 * language's `localized` block writes in Arabic or Hebrew letters.
 */
export function Data({ children }: { children: ReactNode }) {
  return <bdi>{children}</bdi>;
}

/**
 * Data that is left to right whatever it holds: a phone number (no letters to tell a direction
 * by), an e-mail or web address.
 */
export function LtrData({ children }: { children: ReactNode }) {
  return <bdi dir="ltr">{children}</bdi>;
}

const MARK = /\uE000(\d+)\uE001/;

/**
 * A text of the dictionary with elements in the places of some of its interpolations (data set
 * apart with `Data`). i18next interpolates strings only, so each element's place is marked in the
 * text with private-use characters and the element set there; the text content is the same as
 * `translate` would give with the elements' text.
 */
export function withElements(
  translate: (key: string, values: Record<string, unknown>) => string,
  key: string,
  values: Record<string, string | number | ReactElement>,
): ReactNode[] {
  const elements: ReactElement[] = [];
  const marked: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(values)) {
    if (!isValidElement(value)) marked[name] = value;
    else marked[name] = `\uE000${elements.push(value) - 1}\uE001`;
  }
  return translate(key, marked)
    .split(MARK)
    .map((part, i) => <Fragment key={i}>{i % 2 === 1 ? elements[Number(part)] : part}</Fragment>);
}
