import { readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { ENV_VARIABLES, loadConfig } from '../../server/config/environment.ts';
import { APP_ROOT } from '../../server/config/paths.ts';
import { metricsListener } from '../../server/ops/metrics-server.ts';
import { testApp } from '../helpers/app.ts';
import { schemaProblems } from '../helpers/kubernetes-schema.ts';
import { imageEnv, readDockerfile } from '../../scripts/harness/dockerfile.ts';

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
const dockerfile = readDockerfile();
const lastOf = (keyword: string) => dockerfile.filter((instruction) => instruction.keyword === keyword).at(-1)!.args;
const imageEnvironment = imageEnv();

describe('deploy/kubernetes.yaml', () => {
  it("is valid against Kubernetes' schema, with no field the schema does not define", async () => {
    expect(manifests.map((manifest) => manifest.kind).sort()).toEqual(
      ['Deployment', 'HorizontalPodAutoscaler', 'PodDisruptionBudget', 'Service'].sort(),
    );
    for (const manifest of manifests) expect(await schemaProblems(manifest), manifest.kind).toEqual([]);
  });

  it('would refuse a misspelt field, a value of the wrong type and a kind Kubernetes does not know', async () => {
    const misspelt = structuredClone(deployment);
    misspelt.spec.template.spec.containers[0].readinesProbe = misspelt.spec.template.spec.containers[0].readinessProbe;
    delete misspelt.spec.template.spec.containers[0].readinessProbe;
    expect(await schemaProblems(misspelt)).toEqual([
      'spec.template.spec.containers.0.readinesProbe is not a field of the schema',
    ]);
    const topLevel = { ...find('Service'), specs: {} };
    expect(await schemaProblems(topLevel)).toEqual(['specs is not a field of the schema']);

    const wrongType = structuredClone(deployment);
    wrongType.spec.template.spec.containers[0].readinessProbe.periodSeconds = '5s';
    expect(await schemaProblems(wrongType)).toContain(
      'spec.template.spec.containers.0.readinessProbe.periodSeconds must be integer',
    );
    expect(await schemaProblems({ ...deployment, kind: 'Deploymnet' })).toEqual([
      'apps/v1 Deploymnet is not a kind Kubernetes knows',
    ]);
  });

  it('leaves the replica count to the autoscaler, never fewer during a roll, and scales out on CPU', () => {
    const autoscaler = find('HorizontalPodAutoscaler');
    expect(autoscaler.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: deployment.metadata.name });
    // A count here would reset a scaled-up Deployment on every `kubectl apply`.
    expect(deployment.spec).not.toHaveProperty('replicas');
    expect(deployment.spec.strategy.rollingUpdate.maxUnavailable).toBe(0);
    expect(autoscaler.spec.minReplicas).toBeGreaterThanOrEqual(2);
    expect(autoscaler.spec.maxReplicas).toBeGreaterThan(autoscaler.spec.minReplicas);
    expect(autoscaler.spec.metrics[0].resource.name).toBe('cpu');
  });

  it('lets a node drain evict one pod at a time', () => {
    const budget = find('PodDisruptionBudget');
    expect(budget.spec).toEqual({ maxUnavailable: 1, selector: deployment.spec.selector });
  });

  it('names only environment variables the server reads, with values it accepts', () => {
    for (const variable of container.env) expect(ENV_VARIABLES, variable.name).toContain(variable.name);
    expect(config.production).toBe(true);
    expect(config.publicOrigin).toMatch(/^https:\/\//);
  });

  it("listens on the server's ports, the ones the image exposes, and the Service sends visitors to the first only", () => {
    expect(container.ports.map((port: Manifest) => port.containerPort)).toEqual([config.port, config.metricsPort]);
    expect(lastOf('EXPOSE').split(/\s+/).map(Number)).toEqual([config.port, config.metricsPort]);
    expect(Number(imageEnvironment.PORT)).toBe(config.port);
    expect(Number(imageEnvironment.METRICS_PORT)).toBe(config.metricsPort);
    const service = find('Service');
    expect(service.spec.selector).toEqual(deployment.spec.selector.matchLabels);
    expect(service.spec.ports.map((port: Manifest) => containerPort(port.targetPort))).toEqual([config.port]);
  });

  it('has Prometheus scrape /metrics on the metrics port, where the server serves it', () => {
    const annotations = deployment.spec.template.metadata.annotations;
    expect(annotations['prometheus.io/scrape']).toBe('true');
    expect(Number(annotations['prometheus.io/port'])).toBe(config.metricsPort);
    expect(annotations['prometheus.io/path']).toBe('/metrics');
  });

  it('probes liveness on /healthz and readiness on /readyz on the metrics port, which answers them', async () => {
    expect(container.livenessProbe.httpGet.path).toBe('/healthz');
    expect(container.startupProbe.httpGet.path).toBe('/healthz');
    expect(container.readinessProbe.httpGet.path).toBe('/readyz');
    // Not the visitors' port: a new connection there waits while a crowd saturates it.
    for (const probe of [container.livenessProbe, container.startupProbe, container.readinessProbe]) {
      expect(containerPort(probe.httpGet.port)).toBe(config.metricsPort);
    }
    // Out of service after several failures in a row, not one slow answer; still within 20 s.
    const readiness = container.readinessProbe;
    expect(readiness.failureThreshold).toBeGreaterThanOrEqual(3);
    expect(readiness.timeoutSeconds).toBeGreaterThanOrEqual(5);
    expect(readiness.timeoutSeconds).toBeLessThanOrEqual(readiness.periodSeconds);
    expect(readiness.periodSeconds * readiness.failureThreshold).toBeLessThanOrEqual(20);
    const { deps } = await testApp({}, literalEnv);
    const probed = metricsListener(deps.metrics, deps.readiness);
    await request(probed).get(container.livenessProbe.httpGet.path).expect(200);
    await request(probed).get(container.readinessProbe.httpGet.path).expect(200);
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
    const oldSpace = /--max-old-space-size=(\d+)/.exec(imageEnvironment.NODE_OPTIONS ?? '')?.[1];
    expect(Number(oldSpace)).toBeLessThan(MEMORY_TARGET_MI);
  });

  it("runs as the image's non-root user on a read-only root filesystem with a writable /tmp", () => {
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(String(pod.securityContext.runAsUser)).toBe(lastOf('USER').split(':')[0]);
    expect(container.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
    const tmp = container.volumeMounts.find((mount: Manifest) => mount.mountPath === '/tmp');
    expect(pod.volumes.find((volume: Manifest) => volume.name === tmp.name).emptyDir).toBeDefined();
  });

  it("gives /tmp room for the hero's photos and the backend snapshot, on disk rather than in memory", () => {
    const tmp = container.volumeMounts.find((mount: Manifest) => mount.mountPath === '/tmp');
    const { emptyDir } = pod.volumes.find((volume: Manifest) => volume.name === tmp.name);
    expect(emptyDir.medium).toBeUndefined();
    const sizeLimitMi = Number(/^(\d+)Mi$/.exec(emptyDir.sizeLimit)?.[1]);
    const photosMi = config.photos.maxBytes / 2 ** 20;
    // The photos' bound, with room for the snapshot and a file being written.
    expect(sizeLimitMi).toBeGreaterThanOrEqual(photosMi + 8);
  });
});
