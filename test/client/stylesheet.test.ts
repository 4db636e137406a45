import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_ROOT } from '../../server/config/paths.ts';

const css = readFileSync(path.join(APP_ROOT, 'client/styles.css'), 'utf8');

describe('the stylesheet', () => {
  it('is written in logical properties, so a right-to-left language mirrors with no second copy', () => {
    const physical = css
      .split('\n')
      .map((line, index) => ({ line: index + 1, text: line.trim() }))
      .filter(({ text }) =>
        /^(?:left|right|margin-(?:left|right)|padding-(?:left|right)|border-(?:left|right)[\w-]*|float|clear)\s*:|text-align:\s*(?:left|right)/.test(
          text,
        ),
      );
    expect(physical).toEqual([]);
  });
});
