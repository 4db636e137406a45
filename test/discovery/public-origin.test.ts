import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { keepRedirectsOnOrigin, staysOnOrigin } from '../../server/ops/redirects.ts';
import { testApp } from '../helpers/app.ts';

const SPOOFED = {
  Host: 'evil.example',
  'X-Forwarded-Host': 'evil.example',
  'X-Forwarded-Proto': 'http',
  'X-Forwarded-For': '203.0.113.9',
};

describe('Host and X-Forwarded-* headers', () => {
  it.each(['/', '/impressum', '/no/such/page', '/?lng=en', '/impressum?lng=es'])(
    'leave the HTML of %s byte for byte the same, even from a trusted proxy',
    async (path) => {
      const { app } = await testApp(
        {},
        { NODE_ENV: 'test', PUBLIC_ORIGIN: 'https://event.example.com', TRUST_PROXY: 'loopback' },
      );
      const plain = await request(app).get(path).set('Cookie', 'selectedLanguage=en');
      const spoofed = await request(app).get(path).set('Cookie', 'selectedLanguage=en').set(SPOOFED);
      expect(spoofed.status).toBe(plain.status);
      expect(spoofed.text).toBe(plain.text);
      expect(spoofed.headers.etag).toBe(plain.headers.etag);
      expect(spoofed.text).not.toContain('evil.example');
      expect(spoofed.headers.location).toBeUndefined();
    },
  );
});

describe('redirects', () => {
  const origin = 'https://event.example.com';

  it.each([
    '/',
    '/impressum',
    '/impressum#Datenschutzerklärung',
    '?lng=en',
    'impressum',
    '/%2F%2Fevil.example',
    `${origin}/impressum`,
  ])('may go to %s, which stays on the site', (url) => expect(staysOnOrigin(url, origin)).toBe(true));

  it.each([
    '//evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    '/\t/evil.example',
    '///evil.example',
    'https://evil.example',
    'http://event.example.com',
    'https://event.example.com.evil.example',
    'javascript:alert(1)',
    'http:evil.example',
  ])('never to %j', (url) => expect(staysOnOrigin(url, origin)).toBe(false));

  it('that would leave the site go to the home page instead', async () => {
    const app = express();
    keepRedirectsOnOrigin(app, origin);
    app.get('/to', (req, res) => res.redirect(String(req.query.url)));
    for (const url of ['//evil.example', '/\\evil.example', 'https://evil.example/x']) {
      const res = await request(app).get('/to').query({ url }).expect(302);
      expect(res.headers.location).toBe('/');
    }
    const res = await request(app).get('/to').query({ url: '/impressum?lng=en' }).expect(302);
    expect(res.headers.location).toBe('/impressum?lng=en');
  });
});
