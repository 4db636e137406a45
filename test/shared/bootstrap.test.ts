import { describe, expect, it } from 'vitest';
import { serializeForScript } from '../../shared/bootstrap.ts';

describe('serializeForScript', () => {
  const hostile = [
    '</script><script>alert(1)</script>',
    '</SCRIPT\t>',
    '<!--<script>',
    'a & b > c',
    '\u2028\u2029',
    '"]}\'',
  ];

  it('leaves no character that could end the script element or break a string', () => {
    const json = serializeForScript({ values: hostile });
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
  });

  it('reads back unchanged with JSON.parse', () => {
    const value = { values: hostile, nested: { n: 1, ok: true, none: null } };
    expect(JSON.parse(serializeForScript(value))).toEqual(value);
  });
});
