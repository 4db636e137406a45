import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.ts';
import { DEFAULT_CONTENT_PATH } from '../../server/paths.ts';

describe('loadConfig', () => {
  it('serves on port 3000 with the shipped content by default', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.contentPath).toBe(DEFAULT_CONTENT_PATH);
    expect(config.production).toBe(false);
  });

  it('takes PORT and NODE_ENV from the environment, treating empty as unset', () => {
    expect(loadConfig({ PORT: '8080', NODE_ENV: 'production' })).toMatchObject({ port: 8080, production: true });
    expect(loadConfig({ PORT: '' }).port).toBe(3000);
  });

  it('refuses a bad value with one line naming the variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/^Invalid PORT: .+$/);
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
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
