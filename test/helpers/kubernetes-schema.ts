/**
 * A Kubernetes object checked as the API server would: against Kubernetes' own schema
 * (kubernetes-models' compiled validators), and with every field the schema does not define refused,
 * which the schema alone lets through and `kubectl apply` would drop with no more than a warning.
 */

interface SchemaError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
}
interface CompiledValidator {
  (data: unknown): boolean;
  errors?: SchemaError[] | null;
}

/** `apps/v1` `Deployment` → IoK8sApiAppsV1Deployment, the name kubernetes-models gives its schema. */
function schemaName(apiVersion: string, kind: string): string {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['core', apiVersion];
  const pascal = (word: string) => word[0]!.toUpperCase() + word.slice(1);
  return `IoK8sApi${pascal(group!.split('.')[0]!)}${pascal(version!)}${kind}`;
}

const dotted = (instancePath: string) => instancePath.slice(1).replaceAll('/', '.');

function describeError({ instancePath, keyword, params }: SchemaError): string {
  const where = dotted(instancePath) || '(the object)';
  if (keyword === 'type') return `${where} must be ${String(params.type)}`;
  if (keyword === 'required') return `${where} lacks ${String(params.missingProperty)}`;
  if (keyword === 'enum') return `${where} must be one of ${JSON.stringify(params.allowedValues)}`;
  return `${where} fails ${keyword} ${JSON.stringify(params)}`;
}

/**
 * A copy of `value` whose objects record each key read from them. The compiled validators read
 * every property their schema defines (and every entry of a map), so a key never read is a key
 * the schema does not know.
 */
function recordingReads(value: unknown, reads: Map<object, Set<string>>): unknown {
  if (Array.isArray(value)) return value.map((item) => recordingReads(item, reads));
  if (value === null || typeof value !== 'object') return value;
  const copy = Object.fromEntries(Object.entries(value).map(([key, item]) => [key, recordingReads(item, reads)]));
  const read = new Set<string>();
  reads.set(value, read);
  return new Proxy(copy, {
    get(target, key, receiver) {
      if (typeof key === 'string') read.add(key);
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}

function unreadKeys(value: unknown, reads: Map<object, Set<string>>, path: string): string[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => unreadKeys(item, reads, `${path}.${index}`));
  if (value === null || typeof value !== 'object') return [];
  const read = reads.get(value)!;
  return Object.entries(value).flatMap(([key, item]) => {
    const at = path ? `${path}.${key}` : key;
    return read.has(key) ? unreadKeys(item, reads, at) : [`${at} is not a field of the schema`];
  });
}

/** What is wrong with one object of a manifest, as lines that name the field; empty when it is right. */
export async function schemaProblems(object: Record<string, unknown>): Promise<string[]> {
  const { apiVersion, kind } = object;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return ['apiVersion and kind must be given'];
  let validate: CompiledValidator;
  try {
    ({ validate } = (await import(`kubernetes-models/_schemas/${schemaName(apiVersion, kind)}`)) as {
      validate: CompiledValidator;
    });
  } catch {
    return [`${apiVersion} ${kind} is not a kind Kubernetes knows`];
  }
  const reads = new Map<object, Set<string>>();
  const valid = validate(recordingReads(object, reads));
  const invalid = valid ? [] : (validate.errors ?? []).map(describeError);
  return [...invalid, ...unreadKeys(object, reads, '')];
}
