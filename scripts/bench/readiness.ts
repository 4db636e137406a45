import { request } from 'node:http';
import { manifestContainer } from './manifest.ts';
import { median } from './median.ts';

/** What of the manifest's readiness probe decides when the kubelet takes a pod out of service. */
export interface ReadinessProbe {
  path: string;
  /** The container port it asks, by name ("metrics") or number. */
  port: string | number;
  periodSeconds: number;
  timeoutSeconds: number;
  failureThreshold: number;
}

/** One probe as the kubelet sees it: its status (0: no answer in time) and how long it took. */
export interface ProbeAnswer {
  status: number;
  ms: number;
}

export interface ReadinessUnderLoad {
  probes: number;
  medianMs: number;
  slowestMs: number;
  /** Probes the kubelet would count as failed: no 200 within timeoutSeconds. */
  failed: number;
  /** The longest run of failed probes in a row: at failureThreshold the pod leaves the Service. */
  longestFailedRun: number;
  keptInService: boolean;
}

/** The Deployment's readiness probe in deploy/kubernetes.yaml. */
export function manifestReadinessProbe(): ReadinessProbe {
  interface Container {
    readinessProbe: {
      httpGet: { path: string; port: string | number };
      periodSeconds?: number;
      timeoutSeconds?: number;
      failureThreshold?: number;
    };
  }
  const probe = manifestContainer<Container>().readinessProbe;
  // Kubernetes' defaults where the manifest is silent.
  return {
    path: probe.httpGet.path,
    port: probe.httpGet.port,
    periodSeconds: probe.periodSeconds ?? 10,
    timeoutSeconds: probe.timeoutSeconds ?? 1,
    failureThreshold: probe.failureThreshold ?? 3,
  };
}

/** Judges the probes' answers as the kubelet would, against the manifest's probe. */
export function judgeReadiness(answers: ProbeAnswer[], probe: ReadinessProbe): ReadinessUnderLoad {
  const failedProbe = (answer: ProbeAnswer) => answer.status !== 200 || answer.ms > probe.timeoutSeconds * 1000;
  let run = 0;
  let longestFailedRun = 0;
  for (const answer of answers) {
    run = failedProbe(answer) ? run + 1 : 0;
    longestFailedRun = Math.max(longestFailedRun, run);
  }
  const times = answers.map((answer) => answer.ms);
  return {
    probes: answers.length,
    medianMs: median(times),
    slowestMs: Math.max(0, ...times),
    failed: answers.filter(failedProbe).length,
    longestFailedRun,
    keptInService: answers.length > 0 && longestFailedRun < probe.failureThreshold,
  };
}

/** One probe on a connection of its own, as the kubelet opens it, given up after timeoutSeconds. */
function probeOnce(url: string, timeoutMs: number): Promise<ProbeAnswer> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    const probe = request(url, { agent: false, headers: { connection: 'close' }, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: took() }));
      res.on('error', () => resolve({ status: 0, ms: took() }));
    });
    probe.on('timeout', () => probe.destroy());
    probe.on('error', () => resolve({ status: 0, ms: took() }));
    probe.end();
  });
}

/**
 * Probes the server's readiness path one probe at a time, a probe every `everyMs` (more often than the
 * kubelet, for more samples within a short run), until the returned function is called.
 */
export function probeReadiness(serverUrl: string, probe: ReadinessProbe, everyMs = 500): () => Promise<ProbeAnswer[]> {
  const answers: ProbeAnswer[] = [];
  let stopped = false;
  const probing = (async () => {
    while (!stopped) {
      const started = performance.now();
      answers.push(await probeOnce(serverUrl + probe.path, probe.timeoutSeconds * 1000));
      const rest = everyMs - (performance.now() - started);
      if (rest > 0 && !stopped) await new Promise((resolve) => setTimeout(resolve, rest));
    }
  })();
  return async () => {
    stopped = true;
    await probing;
    return answers;
  };
}
