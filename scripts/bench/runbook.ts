import { MANIFEST_PATH, manifestObject } from './manifest.ts';

/** What the shipped manifest says about one pod's CPU and how the autoscaler scales them. */
export interface ScalingSettings {
  /** The container's CPU request, as written ("250m"). */
  cpuRequest: string;
  /** The autoscaler's floor and ceiling. */
  minReplicas: number;
  maxReplicas: number;
  /** The CPU share of the request the autoscaler keeps each pod at (0.7 for 70 %). */
  targetUtilization: number;
}

interface Manifest {
  kind: string;
  spec: {
    template?: { spec: { containers: { resources: { requests: { cpu: string | number } } }[] } };
    minReplicas?: number;
    maxReplicas?: number;
    metrics?: { resource?: { name: string; target: { averageUtilization: number } } }[];
  };
}

export function scalingSettings(manifest = MANIFEST_PATH): ScalingSettings {
  const deployment = manifestObject<Manifest>('Deployment', manifest);
  const autoscaler = manifestObject<Manifest>('HorizontalPodAutoscaler', manifest);
  const cpuTarget = autoscaler?.spec.metrics?.find((m) => m.resource?.name === 'cpu')?.resource?.target;
  const cpuRequest = deployment?.spec.template?.spec.containers[0]?.resources.requests.cpu;
  if (cpuRequest === undefined || !autoscaler?.spec.minReplicas || !autoscaler.spec.maxReplicas || !cpuTarget) {
    throw new Error(
      "deploy/kubernetes.yaml needs the Deployment's CPU request and a HorizontalPodAutoscaler with its replicas and CPU target",
    );
  }
  return {
    cpuRequest: String(cpuRequest),
    minReplicas: autoscaler.spec.minReplicas,
    maxReplicas: autoscaler.spec.maxReplicas,
    targetUtilization: cpuTarget.averageUtilization / 100,
  };
}

export interface Crowd {
  visitors: number;
  /** The minutes they arrive in. */
  minutes: number;
  /** How much busier the busiest moment is than the average over those minutes. */
  peakFactor: number;
}

export interface ReplicaPlan {
  /** Requests a second reaching the server at the busiest moment. */
  requestsPerSecond: number;
  /** Replicas that carry them at the autoscaler's target utilization. */
  carrying: number;
  /** Those plus the spare, never below the autoscaler's current floor: what to have ready. */
  replicas: number;
}

/**
 * How many replicas to have ready for a crowd: its busiest rate of requests reaching the server
 * (visitors × requests each, spread over the minutes, times the peak factor), divided by what
 * one replica answers at its CPU request when kept at the autoscaler's target utilization, plus
 * `spare` replicas for those a disruption may take away during the peak (the disruption budget's
 * maxUnavailable, or a pod that crashes).
 */
export function replicasFor(
  crowd: Crowd,
  requestsPerVisitor: number,
  replicaRequestsPerSecond: number,
  scaling: Pick<ScalingSettings, 'minReplicas' | 'targetUtilization'>,
  spare = 1,
): ReplicaPlan {
  const requestsPerSecond = ((crowd.visitors * requestsPerVisitor) / (crowd.minutes * 60)) * crowd.peakFactor;
  const carrying = Math.max(1, Math.ceil(requestsPerSecond / (replicaRequestsPerSecond * scaling.targetUtilization)));
  return {
    requestsPerSecond: Math.round(requestsPerSecond),
    carrying,
    replicas: Math.max(scaling.minReplicas, carrying + spare),
  };
}
