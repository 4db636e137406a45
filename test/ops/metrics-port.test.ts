import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/harness/free-port.ts';
import { runUntilExit, startServer } from '../../scripts/harness/server-process.ts';

/** Whether anything accepts a TCP connection on the port. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('the metrics port of the built server', () => {
  it('serves /metrics apart from the visitors’ port, which answers it 404, and says where in its listening line', async () => {
    const server = await startServer();
    try {
      const listening = server.logs.find((line) => line.msg === 'listening')!;
      expect(listening.metricsPort).toEqual(expect.any(Number));
      expect(listening.metricsPort).not.toBe(listening.port);
      expect(server.metricsUrl).toBe(`http://127.0.0.1:${String(listening.metricsPort)}`);

      const scraped = await fetch(`${server.metricsUrl}/metrics`);
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toMatch(/^process_resident_memory_bytes \d/m);
      const visitors = await fetch(`${server.url}/metrics`);
      expect(visitors.status).toBe(404);
      expect(await visitors.text()).not.toContain('process_resident_memory_bytes');
      // The probes on both: the load balancer asks the visitors' port, the kubelet this one.
      for (const base of [server.url, server.metricsUrl]) {
        expect((await fetch(`${base}/healthz`)).status).toBe(200);
        expect((await fetch(`${base}/readyz`)).status).toBe(200);
      }
      expect((await fetch(`${server.metricsUrl}/`)).status).toBe(404);
    } finally {
      await server.stop();
    }
  });

  it('listens on the METRICS_PORT it is given, on the same host', async () => {
    const metricsPort = await freePort();
    const server = await startServer({ METRICS_PORT: String(metricsPort) });
    try {
      expect(server.metricsUrl).toBe(`http://127.0.0.1:${metricsPort}`);
      expect((await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it('closes with the rest on SIGTERM', async () => {
    const server = await startServer();
    const metricsPort = Number(new URL(server.metricsUrl!).port);
    expect(await accepts(metricsPort)).toBe(true);
    expect(await server.stop('SIGTERM')).toBe(0);
    expect(await accepts(metricsPort)).toBe(false);
  });

  it('refuses to start on a metrics port that is taken, with one line', async () => {
    const first = await startServer();
    try {
      const taken = new URL(first.metricsUrl!).port;
      const { code, stderr } = await runUntilExit({ METRICS_PORT: taken });
      expect(code).toBe(1);
      expect(stderr.trim()).toMatch(/^Cannot start: listen EADDRINUSE: address already in use 127\.0\.0\.1:\d+$/);
    } finally {
      await first.stop();
    }
  });
});
