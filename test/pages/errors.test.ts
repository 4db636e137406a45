import request from 'supertest';
import { describe, expect, it, vi } from 'vitest';
import { testApp } from '../helpers/app.ts';

vi.mock('../../client/pages/Impressum.tsx', () => ({
  Impressum: () => {
    throw new Error('The legal notice <b>broke</b>');
  },
}));

describe('an error while rendering a page', () => {
  it('answers 500 with the error page, its message and (outside production) its stack', async () => {
    const { app, logLines } = await testApp();
    const res = await request(app).get('/impressum').expect(500);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text).toContain('<h1>Unexpected Application Error!</h1>');
    expect(res.text).toContain('The legal notice &lt;b&gt;broke&lt;/b&gt;');
    expect(res.text).toMatch(/<pre class="error-page__stack">Error: The legal notice/);
    const logged = logLines.find((line) => line.msg === 'page render failed');
    expect(logged).toBeDefined();
    expect((logged!.err as { stack: string }).stack).toContain('The legal notice <b>broke</b>');
    const access = logLines.find((line) => line.msg === 'request completed');
    expect(access).toMatchObject({
      level: 50,
      status: 500,
      path: '/impressum',
      requestId: res.headers['x-request-id'],
    });
  });

  it('keeps the stack trace from the public in production', async () => {
    const { app } = await testApp({}, { NODE_ENV: 'production' });
    const res = await request(app).get('/impressum').expect(500);
    expect(res.text).toContain('Unexpected Application Error!');
    expect(res.text).not.toContain('class="error-page__stack"');
    expect(res.text).not.toMatch(/at \S+ \(/);
  });

  it('leaves other pages working', async () => {
    const { app } = await testApp();
    await request(app).get('/').expect(200);
  });
});
