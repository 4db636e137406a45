import { readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { ENV_VARIABLES, loadConfig } from '../../server/config.ts';
import { APP_ROOT } from '../../server/paths.ts';
import { testApp } from '../helpers/app.ts';
import { parseDockerfile, parseEnv } from '../../scripts/harness/dockerfile-replay.ts';

/** The memory each replica is sized for. */
const MEMORY_TARGET_MI = 150;
/** The idle timeout of common load balancers (AWS ALB, nginx), which keep-alive must outlast. */
const LOAD_BALANCER_IDLE_MS = 60_000;

type Manifest = Record<string, any>;
const manifests = parseAllDocuments(readFileSync(path.join(APP_ROOT, 'deploy/kubernetes.yaml'), 'utf8')).map(
  (document) => document.toJS() as Manifest,
);
const find = (kind: string) => {
  const found = manifests.filter((manifest) => manifest.kind === kind);
  expect(found, kind).toHaveLength(1);
  return found[0]!;
};

const deployment = find('Deployment');
const pod = deployment.spec.template.spec;
const container = pod.containers[0];
const literalEnv: Record<string, string> = Object.fromEntries(
  container.env
    .filter((variable: Manifest) => 'value' in variable)
    .map((variable: Manifest) => [variable.name, variable.value]),
);
const config = loadConfig(literalEnv);
/** A probe's or Service's port, by name or number, as the container port it reaches. */
const containerPort = (port: string | number) =>
  typeof port === 'number' ? port : container.ports.find((p: Manifest) => p.name === port)?.containerPort;
const mebibytes = (quantity: string) => {
  const match = /^(\d+)(Mi|Gi)$/.exec(quantity);
  expect(match, quantity).not.toBeNull();
  return Number(match![1]) * (match![2] === 'Gi' ? 1024 : 1);
};
const dockerfile = parseDockerfile(readFileSync(path.join(APP_ROOT, 'Dockerfile'), 'utf8'));
const lastOf = (keyword: string) => dockerfile.filter((instruction) => instruction.keyword === keyword).at(-1)!.args;
const imageEnv: Record<string, string> = Object.assign(
  {},
  ...dockerfile.filter((instruction) => instruction.keyword === 'ENV').map(({ args, line }) => parseEnv(args, line)),
);

describe('deploy/kubernetes.yaml', () => {
  it('runs several replicas, never fewer during a roll, and scales out on CPU', () => {
    expect(deployment.spec.replicas).toBeGreaterThanOrEqual(2);
    expect(deployment.spec.strategy.rollingUpdate.maxUnavailable).toBe(0);
    const autoscaler = find('HorizontalPodAutoscaler');
    expect(autoscaler.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: deployment.metadata.name });
    expect(autoscaler.spec.minReplicas).toBeGreaterThanOrEqual(2);
    expect(autoscaler.spec.maxReplicas).toBeGreaterThan(autoscaler.spec.minReplicas);
    expect(find('PodDisruptionBudget').spec.minAvailable).toBeLessThan(autoscaler.spec.minReplicas);
  });

  it('names only environment variables the server reads, with values it accepts', () => {
    for (const variable of container.env) expect(ENV_VARIABLES, variable.name).toContain(variable.name);
    expect(config.production).toBe(true);
    expect(config.publicOrigin).toMatch(/^https:\/\//);
  });

  it("listens on the server's port, the one the image exposes, and the Service sends traffic there", () => {
    expect(container.ports).toHaveLength(1);
    expect(container.ports[0].containerPort).toBe(config.port);
    expect(Number(lastOf('EXPOSE'))).toBe(config.port);
    expect(Number(imageEnv.PORT)).toBe(config.port);
    const service = find('Service');
    expect(service.spec.selector).toEqual(deployment.spec.selector.matchLabels);
    expect(containerPort(service.spec.ports[0].targetPort)).toBe(config.port);
  });

  it('probes liveness on /healthz and readiness on /readyz, which the server answers', async () => {
    expect(container.livenessProbe.httpGet.path).toBe('/healthz');
    expect(container.startupProbe.httpGet.path).toBe('/healthz');
    expect(container.readinessProbe.httpGet.path).toBe('/readyz');
    for (const probe of [container.livenessProbe, container.startupProbe, container.readinessProbe]) {
      expect(containerPort(probe.httpGet.port)).toBe(config.port);
    }
    const { app } = await testApp({}, literalEnv);
    await request(app).get(container.livenessProbe.httpGet.path).expect(200);
    await request(app).get(container.readinessProbe.httpGet.path).expect(200);
  });

  it('pauses before the drain and gives the shutdown more time than it may take', () => {
    const [sleep, seconds] = container.lifecycle.preStop.exec.command as [string, string];
    expect(sleep).toBe('sleep');
    const pauseMs = Number(seconds) * 1000;
    expect(pauseMs).toBeGreaterThan(0);
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(pauseMs + config.shutdownTimeoutMs);
  });

  it("keeps idle connections open longer than the load balancer's idle timeout", () => {
    expect(config.keepAliveTimeoutMs).toBeGreaterThan(LOAD_BALANCER_IDLE_MS);
    expect(config.headersTimeoutMs).toBeGreaterThan(config.keepAliveTimeoutMs);
    expect(config.trustProxy).not.toBe(false);
  });

  it("requests the memory target and limits memory a little above it, above the image's heap bound", () => {
    const { requests, limits } = container.resources;
    expect(mebibytes(requests.memory)).toBe(MEMORY_TARGET_MI);
    expect(mebibytes(limits.memory)).toBeGreaterThan(MEMORY_TARGET_MI);
    expect(mebibytes(limits.memory)).toBeLessThanOrEqual(2 * MEMORY_TARGET_MI);
    expect(requests.cpu).toBeDefined();
    const oldSpace = /--max-old-space-size=(\d+)/.exec(imageEnv.NODE_OPTIONS ?? '')?.[1];
    expect(Number(oldSpace)).toBeLessThan(MEMORY_TARGET_MI);
  });

  it("runs as the image's non-root user on a read-only root filesystem with a writable /tmp", () => {
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(String(pod.securityContext.runAsUser)).toBe(lastOf('USER').split(':')[0]);
    expect(container.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
    const tmp = container.volumeMounts.find((mount: Manifest) => mount.mountPath === '/tmp');
    expect(pod.volumes.find((volume: Manifest) => volume.name === tmp.name).emptyDir).toBeDefined();
  });
});
