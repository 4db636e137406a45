import os from 'node:os';
import path from 'node:path';
import { createClient } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  DEFAULT_PHOTOS_PATH,
  DEFAULT_SNAPSHOT_PATH,
  loadConfig,
  SUPABASE_KEY_REQUIRED,
  SUPABASE_URL_REQUIRED,
} from '../server/config/environment.ts';
import { APP_ROOT, DEFAULT_CONTENT_PATH } from '../server/config/paths.ts';

describe('loadConfig', () => {
  it('serves on port 3000 with the shipped content by default', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.contentPath).toBe(DEFAULT_CONTENT_PATH);
    expect(config.production).toBe(false);
  });

  it('keeps the backend’s live row fresh for 10 s unless LIVE_BACKEND_FRESH_SECONDS says otherwise, 1 to 60', () => {
    expect(loadConfig({}).live.backendFreshSeconds).toBe(10);
    expect(loadConfig({ LIVE_BACKEND_FRESH_SECONDS: '3' }).live.backendFreshSeconds).toBe(3);
    expect(() => loadConfig({ LIVE_BACKEND_FRESH_SECONDS: '0' })).toThrow(/^Invalid LIVE_BACKEND_FRESH_SECONDS: /);
    expect(() => loadConfig({ LIVE_BACKEND_FRESH_SECONDS: '61' })).toThrow(/^Invalid LIVE_BACKEND_FRESH_SECONDS: /);
  });

  it('takes PORT and NODE_ENV from the environment, treating empty as unset', () => {
    expect(loadConfig({ PORT: '8080', NODE_ENV: 'production' })).toMatchObject({ port: 8080, production: true });
    expect(loadConfig({ PORT: '' }).port).toBe(3000);
  });

  it("serves the metrics on a port of their own: 9464 unless METRICS_PORT says otherwise, never the visitors' port", () => {
    expect(loadConfig({}).metricsPort).toBe(9464);
    expect(loadConfig({ METRICS_PORT: '9100' }).metricsPort).toBe(9100);
    expect(loadConfig({ PORT: '0', METRICS_PORT: '0' })).toMatchObject({ port: 0, metricsPort: 0 });
    expect(() => loadConfig({ PORT: '9464' })).toThrow(/^Invalid METRICS_PORT: must differ from PORT$/);
    expect(() => loadConfig({ PORT: '8080', METRICS_PORT: '8080' })).toThrow(
      /^Invalid METRICS_PORT: must differ from PORT$/,
    );
    expect(() => loadConfig({ METRICS_PORT: '70000' })).toThrow(/^Invalid METRICS_PORT: /);
    // A port that is not a number is reported once, not again as equal to the other.
    expect(() => loadConfig({ PORT: 'x', METRICS_PORT: 'x' })).toThrow(
      /^Invalid PORT: [^;]+; Invalid METRICS_PORT: [^;]+$/,
    );
  });

  it('refuses a bad value with one line naming the variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/^Invalid PORT: .+$/);
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
  });

  it('names every bad variable at once, in one line', () => {
    const refuse = (env: NodeJS.ProcessEnv) => {
      try {
        loadConfig(env);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as ConfigError).message;
      }
      throw new Error('accepted');
    };
    const message = refuse({
      PORT: 'eighty',
      LOG_LEVEL: 'loud',
      PUBLIC_ORIGIN: 'event.example.com',
      KEEP_ALIVE_TIMEOUT_MS: '70000',
      SUPABASE_ANON_KEY: 'key',
    });
    expect(message).not.toContain('\n');
    expect(message.split('; ')).toEqual([
      expect.stringMatching(/^Invalid PORT: /),
      expect.stringMatching(/^Invalid LOG_LEVEL: /),
      expect.stringMatching(/^Invalid PUBLIC_ORIGIN: /),
      'Invalid HEADERS_TIMEOUT_MS: must be longer than KEEP_ALIVE_TIMEOUT_MS',
      SUPABASE_URL_REQUIRED,
    ]);
    // A timeout that is not a number is reported once, not again as out of order.
    expect(refuse({ KEEP_ALIVE_TIMEOUT_MS: 'soon', SUPABASE_URL: 'ftp://x' }).split('; ')).toEqual([
      expect.stringMatching(/^Invalid KEEP_ALIVE_TIMEOUT_MS: /),
      expect.stringMatching(/^Invalid SUPABASE_URL: /),
      SUPABASE_KEY_REQUIRED,
    ]);
    expect(refuse({ SUPABASE_URL: 'https://project.supabase.co', TRUST_PROXY: 'true' }).split('; ')).toEqual([
      expect.stringMatching(/^Invalid TRUST_PROXY: /),
      SUPABASE_KEY_REQUIRED,
    ]);
  });
});

describe('PUBLIC_ORIGIN', () => {
  it('defaults to localhost on the configured port', () => {
    expect(loadConfig({ PORT: '4000' }).publicOrigin).toBe('http://localhost:4000');
  });

  it('must be a bare origin', () => {
    expect(loadConfig({ PUBLIC_ORIGIN: 'https://event.example.com' }).publicOrigin).toBe('https://event.example.com');
    expect(() => loadConfig({ PUBLIC_ORIGIN: 'https://event.example.com/path' })).toThrow(/^Invalid PUBLIC_ORIGIN: /);
    expect(() => loadConfig({ PUBLIC_ORIGIN: 'event.example.com' })).toThrow(/PUBLIC_ORIGIN/);
  });
});

describe('the Supabase backend', () => {
  const url = 'https://abcdefgh.supabase.co';

  it('is off when neither variable is set, on when both are', () => {
    expect(loadConfig({}).backend).toBeNull();
    expect(loadConfig({ SUPABASE_URL: '', SUPABASE_ANON_KEY: '' }).backend).toBeNull();
    expect(loadConfig({ SUPABASE_URL: `${url}/`, SUPABASE_ANON_KEY: 'key' }).backend).toEqual({ url, anonKey: 'key' });
  });

  it("refuses half a configuration with supabase-js's own message", () => {
    const createClientMessage = (supabaseUrl: string, key: string) => {
      try {
        createClient(supabaseUrl, key);
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error('createClient accepted it');
    };
    expect(SUPABASE_URL_REQUIRED).toBe(createClientMessage('', 'key'));
    expect(SUPABASE_KEY_REQUIRED).toBe(createClientMessage(url, ''));
    expect(() => loadConfig({ SUPABASE_ANON_KEY: 'key' })).toThrow(/^supabaseUrl is required\.$/);
    expect(() => loadConfig({ SUPABASE_URL: url })).toThrow(/^supabaseKey is required\.$/);
    expect(() => loadConfig({ SUPABASE_URL: url, SUPABASE_ANON_KEY: '   ' })).toThrow('supabaseKey is required.');
  });

  it.each([
    'abcdefgh.supabase.co',
    'ftp://abcdefgh.supabase.co',
    'http://',
    'https://user:pw@abcdefgh.supabase.co',
    'https://abcdefgh.supabase.co/?x=1',
  ])('refuses the address %s with one line naming SUPABASE_URL', (bad) => {
    expect(() => loadConfig({ SUPABASE_URL: bad, SUPABASE_ANON_KEY: 'key' })).toThrow(/^Invalid SUPABASE_URL: [^\n]+$/);
  });
});

describe('cache and backend settings', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config.cache).toEqual({ freshSeconds: 60, staleSeconds: 86_400, snapshotPath: DEFAULT_SNAPSHOT_PATH });
    expect(path.dirname(DEFAULT_SNAPSHOT_PATH)).toBe(os.tmpdir());
    expect(config.upstreamTimeoutMs).toBe(2500);
    expect(config.pageEdgeSeconds).toBe(5);
    expect(config.logoFileName).toBe('logo-3d-white-on-blue.png');
    expect(config.imageHosts).toEqual([]);
    expect(config.photos).toEqual({ path: DEFAULT_PHOTOS_PATH, maxBytes: 48 * 1024 * 1024 });
    expect(path.dirname(DEFAULT_PHOTOS_PATH)).toBe(os.tmpdir());
  });

  it('reads them from the environment', () => {
    const config = loadConfig({
      CACHE_FRESH_SECONDS: '30',
      CACHE_STALE_SECONDS: '3600',
      UPSTREAM_TIMEOUT_MS: '800',
      PAGE_EDGE_SECONDS: '0',
      CACHE_SNAPSHOT_PATH: 'var/cache.json',
      LOGO_FILE_NAME: 'brand.png',
      IMAGE_HOSTS: ' images.example.com, CDN.example.org:8443 ,',
      PHOTOS_PATH: 'var/photos',
      PHOTOS_DISK_MB: '200',
    });
    expect(config.cache).toEqual({
      freshSeconds: 30,
      staleSeconds: 3600,
      snapshotPath: path.join(APP_ROOT, 'var/cache.json'),
    });
    expect(config.upstreamTimeoutMs).toBe(800);
    expect(config.pageEdgeSeconds).toBe(0);
    expect(config.logoFileName).toBe('brand.png');
    expect(config.imageHosts).toEqual(['images.example.com', 'cdn.example.org:8443']);
    expect(config.photos).toEqual({ path: path.join(APP_ROOT, 'var/photos'), maxBytes: 200 * 1024 * 1024 });
  });

  it.each([
    ['CACHE_FRESH_SECONDS', '0'],
    ['CACHE_FRESH_SECONDS', 'a minute'],
    ['CACHE_STALE_SECONDS', '-1'],
    ['UPSTREAM_TIMEOUT_MS', '2.5'],
    ['PAGE_EDGE_SECONDS', '-1'],
    ['PAGE_EDGE_SECONDS', '1.5'],
    ['PAGE_EDGE_SECONDS', '3601'],
    ['LOGO_FILE_NAME', 'logos/brand.png'],
    ['LOGO_FILE_NAME', 'brand.png?v=2'],
    ['IMAGE_HOSTS', 'https://images.example.com'],
    ['IMAGE_HOSTS', 'images.example.com/path'],
    ['PHOTOS_DISK_MB', '0'],
    ['PHOTOS_DISK_MB', '1.5'],
  ])('refuses %s=%s with one line naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Invalid ${name}: [^\\n]+$`));
  });
});

describe('the live state’s settings', () => {
  it('ask open pages to follow it every 30 s by default, and as often as LIVE_POLL_SECONDS says', () => {
    expect(loadConfig({}).live).toMatchObject({ pollSeconds: 30, edgeSeconds: 5, fileCheckSeconds: 5 });
    expect(loadConfig({ LIVE_POLL_SECONDS: '1' }).live.pollSeconds).toBe(1);
    expect(loadConfig({ LIVE_POLL_SECONDS: '300' }).live.pollSeconds).toBe(300);
  });

  it.each(['0', '301', '2.5', 'often'])('refuse LIVE_POLL_SECONDS=%s with one line naming it', (value) => {
    expect(() => loadConfig({ LIVE_POLL_SECONDS: value })).toThrow(/^Invalid LIVE_POLL_SECONDS: [^\n]+$/);
  });
});

describe('connection and shutdown timeouts', () => {
  it('keep idle connections open longer than a load balancer does, and give shutdown ten seconds', () => {
    expect(loadConfig({})).toMatchObject({
      shutdownTimeoutMs: 10_000,
      keepAliveTimeoutMs: 65_000,
      headersTimeoutMs: 66_000,
      requestTimeoutMs: 75_000,
    });
  });

  it('are read from the environment', () => {
    const env = {
      SHUTDOWN_TIMEOUT_MS: '2500',
      KEEP_ALIVE_TIMEOUT_MS: '1000',
      HEADERS_TIMEOUT_MS: '2000',
      REQUEST_TIMEOUT_MS: '3000',
    };
    expect(loadConfig(env)).toMatchObject({
      shutdownTimeoutMs: 2500,
      keepAliveTimeoutMs: 1000,
      headersTimeoutMs: 2000,
      requestTimeoutMs: 3000,
    });
  });

  it('must keep headers longer than keep-alive and the request at least as long as the headers', () => {
    expect(() => loadConfig({ KEEP_ALIVE_TIMEOUT_MS: '70000' })).toThrow(
      /^Invalid HEADERS_TIMEOUT_MS: must be longer than KEEP_ALIVE_TIMEOUT_MS$/,
    );
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '60000' })).toThrow(/^Invalid REQUEST_TIMEOUT_MS: /);
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_MS: 'soon' })).toThrow(/^Invalid SHUTDOWN_TIMEOUT_MS: /);
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_MS: '-1' })).toThrow(/SHUTDOWN_TIMEOUT_MS/);
  });
});

describe('TRUST_PROXY', () => {
  it('trusts no proxy unless told', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
  });

  it('takes a hop count or a list of addresses, ranges and range names', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,fd00::/8 , 192.168.1.7' }).trustProxy).toEqual([
      'loopback',
      '10.0.0.0/8',
      'fd00::/8',
      '192.168.1.7',
    ]);
  });

  it('refuses "true", which would let any client choose its own address, and anything unreadable', () => {
    for (const value of ['true', 'everyone', '10.0.0.0/33', '10.0.0.1/8/1', 'lb.example.com', ',']) {
      expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow(/^Invalid TRUST_PROXY: must be a hop count/);
    }
  });
});

describe('REHEARSAL_CLOCK and REHEARSAL_IN_PRODUCTION', () => {
  it('runs on the real clock unless REHEARSAL_CLOCK is set', () => {
    expect(loadConfig({}).rehearsalClock).toBeNull();
    expect(loadConfig({ REHEARSAL_CLOCK: '' }).rehearsalClock).toBeNull();
  });

  it("takes a wall-clock time, left for the event's zone, or an instant with its offset", () => {
    expect(loadConfig({ REHEARSAL_CLOCK: '2027-03-18T17:55' }).rehearsalClock).toEqual({
      given: '2027-03-18T17:55',
      wallClock: { date: '2027-03-18', time: '17:55' },
    });
    const instant = Date.UTC(2027, 2, 18, 16, 55);
    for (const given of ['2027-03-18T16:55Z', '2027-03-18T17:55+01:00', '2027-03-18T16:55:00.000Z']) {
      expect(loadConfig({ REHEARSAL_CLOCK: given }).rehearsalClock).toEqual({ given, instant });
    }
  });

  it.each([
    'tomorrow',
    '2027-03-18',
    '2027-03-18 17:55',
    '2027-02-30T17:55',
    '2027-03-18T24:00',
    '2027-03-18T17:55+25:00',
  ])('refuses %j with one line naming the variable', (given) => {
    expect(() => loadConfig({ REHEARSAL_CLOCK: given })).toThrow(ConfigError);
    expect(() => loadConfig({ REHEARSAL_CLOCK: given })).toThrow(
      /^Invalid REHEARSAL_CLOCK: must be the event clock's time at start [^;\n]+ like 2027-03-18T17:55, [^;\n]+$/,
    );
  });

  it('is refused with NODE_ENV=production unless REHEARSAL_IN_PRODUCTION=yes, in one line naming both', () => {
    const production = { NODE_ENV: 'production', REHEARSAL_CLOCK: '2027-03-18T17:55' };
    expect(() => loadConfig(production)).toThrow(
      /^Invalid REHEARSAL_CLOCK: a rehearsal is refused with NODE_ENV=production unless REHEARSAL_IN_PRODUCTION=yes$/,
    );
    expect(loadConfig({ ...production, REHEARSAL_IN_PRODUCTION: 'yes' })).toMatchObject({
      production: true,
      rehearsalClock: { given: '2027-03-18T17:55' },
    });
    expect(() => loadConfig({ ...production, REHEARSAL_IN_PRODUCTION: 'true' })).toThrow(
      /^Invalid REHEARSAL_IN_PRODUCTION: must be yes, or unset$/,
    );
    // Outside production, and in production without a rehearsal, the second variable changes nothing.
    expect(loadConfig({ REHEARSAL_CLOCK: '2027-03-18T17:55', NODE_ENV: 'development' }).rehearsalClock).not.toBeNull();
    expect(loadConfig({ NODE_ENV: 'production', REHEARSAL_IN_PRODUCTION: 'yes' }).rehearsalClock).toBeNull();
  });
});
