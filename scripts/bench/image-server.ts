import { imageEnv } from '../harness/dockerfile.ts';

export { imageNodeArgs } from '../harness/dockerfile.ts';
import { fileEntry, json, PREFERRED_LOGO, startFakeSupabase, type FakeSupabase } from '../harness/fake-supabase.ts';
import { manifestContainer } from './manifest.ts';

/** The container image's environment (its memory settings above all), without the addresses it listens on. */
export function imageEnvironment(): Record<string, string> {
  const env = imageEnv();
  delete env.PORT;
  delete env.METRICS_PORT;
  delete env.HOST;
  return env;
}

/** A Supabase stand-in on loopback with the four hero slides and the logo, as the server talks to the backend in production. */
export async function startBenchBackend(): Promise<FakeSupabase> {
  const backend = await startFakeSupabase();
  backend.reply.heroImages = json({
    heroSlides: ['munich', 'marbella', 'vienna', 'zurich'].map((city) => ({
      image: backend.image(`${city}.jpg`),
      studio: `Studio ${city}`,
    })),
  });
  backend.reply.logoList = json([fileEntry(PREFERRED_LOGO)]);
  return backend;
}

/** The Deployment's container memory limit in deploy/kubernetes.yaml, as written ("272Mi") and in MiB. */
export function manifestMemoryLimit(): { quantity: string; mib: number } {
  const quantity = manifestContainer<{ resources: { limits: { memory: string } } }>().resources.limits.memory;
  return { quantity, mib: mebibytes(quantity) };
}

/** A Kubernetes quantity of memory ("200Mi", "256M", "1Gi") in MiB. */
export function mebibytes(quantity: string): number {
  const match = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|K|M|G)?$/.exec(quantity);
  if (!match) throw new Error(`Cannot read the memory limit ${quantity}`);
  const bytes = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, K: 1e3, M: 1e6, G: 1e9 }[match[2] ?? ''] ?? 1;
  return (Number(match[1]) * bytes) / 2 ** 20;
}
