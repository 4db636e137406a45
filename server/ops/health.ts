import type { ServerResponse } from 'node:http';
import { Router } from 'express';

/**
 * Whether the server takes new work: true until shutdown begins, then false for good. Start-up
 * work may hold the readiness probe back meanwhile (holdUntil): answers are served, but the load
 * balancer sends no visitors yet.
 */
export interface Readiness {
  readonly ready: boolean;
  /** Start-up work is still under way: the readiness probe answers 503. */
  readonly starting: boolean;
  /** Holds the readiness probe at 503 until `work` settles, fulfilled or not. */
  holdUntil(work: Promise<unknown>): void;
  /** Shutdown has begun: readiness fails and every answer not yet started closes its connection. */
  drain(): void;
  onDrain(listener: () => void): void;
}

export function createReadiness(): Readiness {
  let ready = true;
  let holding = 0;
  const listeners: (() => void)[] = [];
  const done = () => void (holding -= 1);
  return {
    get ready() {
      return ready;
    },
    get starting() {
      return holding > 0;
    },
    holdUntil(work) {
      holding += 1;
      work.then(done, done);
    },
    drain() {
      if (!ready) return;
      ready = false;
      for (const listener of listeners) listener();
    },
    onDrain(listener) {
      listeners.push(listener);
    },
  };
}

const LIVENESS_PATH = '/healthz';
const READINESS_PATH = '/readyz';
/** The probes' paths, which the access log leaves out. */
export const HEALTH_PATHS: readonly string[] = [LIVENESS_PATH, READINESS_PATH];

/**
 * /healthz (liveness) answers while the process can answer at all and touches nothing else, so
 * a backend outage never gets the container restarted. /readyz (readiness) fails while start-up
 * work holds it and from the moment shutdown begins, so the load balancer sends no new requests.
 */
export function healthRoutes(readiness: Readiness): Router {
  const router = Router();
  for (const path of HEALTH_PATHS) {
    router.get(path, (_req, res) => {
      const { status, body } = healthAnswer(path, readiness)!;
      res.setHeader('Cache-Control', 'no-store');
      res.status(status).type('text/plain').send(body);
    });
  }
  return router;
}

/** A probe's answer at `path`, or null for a path that is no probe's. */
export function healthAnswer(path: string, readiness: Readiness): { status: number; body: string } | null {
  if (path === LIVENESS_PATH) return { status: 200, body: 'ok' };
  if (path === READINESS_PATH) {
    if (!readiness.ready) return { status: 503, body: 'shutting down' };
    return readiness.starting ? { status: 503, body: 'starting' } : { status: 200, body: 'ready' };
  }
  return null;
}

/** The answers under way, for the drain: each is added as it begins and deleted once it has closed. */
export interface AnswersUnderWay {
  add(res: ServerResponse): void;
  delete(res: ServerResponse): void;
}

/**
 * Once draining, every answer whose headers are not sent yet, including those of requests
 * already in flight, tells the client to close its connection instead of reusing it.
 */
export function closeConnectionsWhileDraining(readiness: Readiness): AnswersUnderWay {
  const unanswered = new Set<ServerResponse>();
  const close = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('Connection', 'close');
  };
  readiness.onDrain(() => unanswered.forEach(close));
  return {
    add(res) {
      if (readiness.ready) unanswered.add(res);
      else close(res);
    },
    delete(res) {
      unanswered.delete(res);
    },
  };
}
