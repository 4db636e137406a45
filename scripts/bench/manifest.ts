import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { APP_ROOT } from '../../server/config/paths.ts';

export const MANIFEST_PATH = path.join(APP_ROOT, 'deploy/kubernetes.yaml');

/**
 * The first object of `kind` in a Kubernetes manifest (the shipped one by default), as the
 * caller expects it to be shaped; undefined when there is none.
 */
export function manifestObject<T extends { kind: string }>(kind: string, file = MANIFEST_PATH): T | undefined {
  return parseAllDocuments(readFileSync(file, 'utf8'))
    .map((document) => document.toJS() as { kind: string })
    .find((object): object is T => object.kind === kind);
}

/** The Deployment's (first) container in the shipped manifest. */
export function manifestContainer<T>(): T {
  const deployment = manifestObject<{ kind: string; spec: { template: { spec: { containers: T[] } } } }>('Deployment');
  if (!deployment) throw new Error(`${path.relative(APP_ROOT, MANIFEST_PATH)} has no Deployment`);
  return deployment.spec.template.spec.containers[0]!;
}
