/**
 * A Kubernetes object checked as the API server would: against Kubernetes' own schema
 * (the check of kubernetes-models' class for each kind), and with every field the schema does not define refused,
 * which the schema alone lets through and `kubectl apply` would drop with no more than a warning.
 */

interface SchemaError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
}

/** A kubernetes-models class: its `validate` checks `this` against the kind's schema, throwing the errors. */
interface ModelClass {
  prototype: { validate(this: unknown): void };
}

/** `apps/v1` `Deployment` → the class kubernetes-models exports from `kubernetes-models/apps/v1/Deployment`. */
async function modelClass(apiVersion: string, kind: string): Promise<ModelClass | null> {
  if (!/^([a-z0-9.-]+\/)?v\d\w*$/.test(apiVersion) || !/^[A-Z]\w*$/.test(kind)) return null;
  try {
    const specifier = `kubernetes-models/${apiVersion}/${kind}`;
    const module = (await import(/* @vite-ignore */ specifier)) as Record<string, ModelClass | undefined>;
    return module[kind] ?? null;
  } catch {
    return null;
  }
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
  const model = await modelClass(apiVersion, kind);
  if (!model) return [`${apiVersion} ${kind} is not a kind Kubernetes knows`];
  const reads = new Map<object, Set<string>>();
  let invalid: string[] = [];
  try {
    // The class's own check, run on a copy that records what it reads rather than on a model it copied.
    model.prototype.validate.call(recordingReads(object, reads));
  } catch (error) {
    const { errors } = error as { errors?: SchemaError[] };
    if (!errors) throw error;
    invalid = errors.map(describeError);
  }
  return [...invalid, ...unreadKeys(object, reads, '')];
}
