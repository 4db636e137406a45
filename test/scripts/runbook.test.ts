import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { millicores } from '../../scripts/bench/cpu-limit.ts';
import { replicasFor, scalingSettings } from '../../scripts/bench/runbook.ts';

describe("the event-day runbook's arithmetic", () => {
  const scaling = { minReplicas: 3, targetUtilization: 0.7 };
  const crowd = { visitors: 20_000, minutes: 5, peakFactor: 2 };

  it('carries the busiest moment at the autoscaler’s target utilization, with a spare', () => {
    // 20,000 × 8 requests in 300 s = 533 req/s, twice that at the peak = 1,067; 300 req/s × 0.7 = 210 per replica.
    expect(replicasFor(crowd, 8, 300, scaling)).toEqual({ requestsPerSecond: 1067, carrying: 6, replicas: 7 });
    expect(replicasFor(crowd, 8, 300, scaling, 2)).toMatchObject({ replicas: 8 });
  });

  it('never plans fewer replicas than the floor', () => {
    expect(replicasFor(crowd, 0.02, 300, scaling)).toEqual({ requestsPerSecond: 3, carrying: 1, replicas: 3 });
  });

  it('reads CPU quantities as Kubernetes writes them', () => {
    expect(millicores('250m')).toBe(250);
    expect(millicores('1')).toBe(1000);
    expect(millicores('0.5')).toBe(500);
    expect(() => millicores('a quarter')).toThrow(/Cannot read the CPU quantity/);
  });

  it("takes the CPU request and the autoscaler's settings from the manifest", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'runbook-'));
    const manifest = path.join(dir, 'kubernetes.yaml');
    writeFileSync(
      manifest,
      [
        'kind: Deployment',
        'spec: { template: { spec: { containers: [{ resources: { requests: { cpu: 500m } } }] } } }',
        '---',
        'kind: HorizontalPodAutoscaler',
        'spec:',
        '  minReplicas: 4',
        '  maxReplicas: 20',
        '  metrics: [{ type: Resource, resource: { name: cpu, target: { type: Utilization, averageUtilization: 60 } } }]',
      ].join('\n'),
    );
    expect(scalingSettings(manifest)).toEqual({
      cpuRequest: '500m',
      minReplicas: 4,
      maxReplicas: 20,
      targetUtilization: 0.6,
    });
    writeFileSync(manifest, 'kind: Deployment\nspec: {}\n');
    expect(() => scalingSettings(manifest)).toThrow(/needs the Deployment's CPU request/);
  });
});
