import type { ApiClient } from '../../core/client.js';
import type { PathOracle } from '../../output/result.js';

// --columns body.x.y on items: whether any content type schema of the hub could hold that path.
// The rows a page brought back cannot say (bodies differ by type, and an optional field is absent
// from most rows); the schemas can. A path no schema could have is worth a warning; any other
// path is a column, empty where a row lacks it.

type Node = Record<string, unknown>;

/** Core definitions items link with: their properties are known, though they live in another document. */
const CORE_LINK = { type: 'object', properties: { _meta: {}, contentType: { type: 'string' }, id: { type: 'string' } } };

/** The core content definition every type's body includes: its _meta. */
const CORE_CONTENT = { type: 'object', properties: { _meta: {} } };

const MAX_DEPTH = 32;

/**
 * Whether `segments` (after `body`) can name something in a document of `schema`: true, false,
 * or null when the schema leaves it open (a reference elsewhere, additional or pattern properties).
 */
export function schemaCouldHave(schema: Node, segments: string[]): { possible: boolean | null; near: string[] } {
  const near = new Set<string>();
  const walk = (node: unknown, rest: string[], depth: number): boolean | null => {
    const done = segments.slice(0, segments.length - rest.length);
    if (!rest.length) return true;
    if (!node || typeof node !== 'object' || depth > MAX_DEPTH) return null;
    const { props, open } = shapeOf(schema, node as Node, 0);
    const [key, ...more] = rest as [string, ...string[]];
    // Every item body has _meta (the core content definition), whatever the type says.
    if (key === '_meta' && depth === 0) return true;
    if (/^\d+$/.test(key)) {
      const items = arrayItems(schema, node as Node);
      if (items !== undefined) return walk(items, more, depth + 1);
    }
    const children = props.filter(([k]) => k === key).map(([, v]) => v);
    if (children.length) {
      let result: boolean | null = false;
      for (const child of children) {
        const r = walk(child, more, depth + 1);
        if (r === true) return true;
        if (r === null) result = null;
      }
      return result;
    }
    if (open) return null;
    for (const [k] of props) near.add([...done, k].join('.'));
    return false;
  };
  return { possible: walk(schema, segments, 0), near: [...near] };
}

/** The properties a node declares (through allOf/anyOf/oneOf and local $refs), and whether it leaves more open. */
function shapeOf(root: Node, node: Node, depth: number): { props: [string, unknown][]; open: boolean } {
  const props: [string, unknown][] = [];
  let open = false;
  if (depth > MAX_DEPTH) return { props, open: true };
  const ref = typeof node.$ref === 'string' ? node.$ref : undefined;
  if (ref) {
    const target = resolveRef(root, ref);
    if (target === undefined) open = true;
    else {
      const inner = shapeOf(root, target, depth + 1);
      props.push(...inner.props);
      open ||= inner.open;
    }
  }
  if (node.properties && typeof node.properties === 'object') props.push(...Object.entries(node.properties as Node));
  if (node.patternProperties || (node.additionalProperties !== undefined && node.additionalProperties !== false)) open = true;
  for (const list of [node.allOf, node.anyOf, node.oneOf]) {
    if (!Array.isArray(list)) continue;
    for (const sub of list) {
      if (!sub || typeof sub !== 'object') continue;
      const inner = shapeOf(root, sub as Node, depth + 1);
      props.push(...inner.props);
      open ||= inner.open;
    }
  }
  return { props, open };
}

function arrayItems(root: Node, node: Node): unknown {
  if (node.items && typeof node.items === 'object') return node.items;
  const ref = typeof node.$ref === 'string' ? resolveRef(root, node.$ref) : undefined;
  return ref?.items;
}

/** A reference inside the document (#/definitions/x), or a core link definition; undefined when it points elsewhere. */
function resolveRef(root: Node, ref: string): Node | undefined {
  if (!ref.startsWith('#') && /\/core#\/definitions\/content-(link|reference)$/.test(ref)) return CORE_LINK;
  if (!ref.startsWith('#') && /\/core#\/definitions\/content$/.test(ref)) return CORE_CONTENT;
  if (!ref.startsWith('#/')) return undefined;
  let at: unknown = root;
  for (const part of ref.slice(2).split('/')) {
    if (!at || typeof at !== 'object' || !Object.hasOwn(at, part)) return undefined;
    at = (at as Node)[part];
  }
  return at && typeof at === 'object' ? (at as Node) : undefined;
}

/**
 * The oracle for item lists: `body.` paths are checked against every content type schema of the
 * hub (read once, only when a --columns path asks); other paths are not its business (null).
 */
export function bodyPathOracle(client: ApiClient, hubId: () => Promise<string>): PathOracle {
  let schemas: Promise<Node[]> | null = null;
  const load = async (): Promise<Node[]> => {
    const out: Node[] = [];
    for await (const s of client.paginate<{ body?: string }>(`/hubs/${await hubId()}/content-type-schemas`, 'content-type-schemas', { query: { status: 'ACTIVE' }, limit: 1000 })) {
      try {
        const doc = JSON.parse(s.body ?? '');
        if (doc && typeof doc === 'object') out.push(doc as Node);
      } catch {
        /* a schema that is not JSON says nothing */
      }
    }
    return out;
  };
  return async (dotted) => {
    const [head, ...rest] = dotted.split('.');
    if (head !== 'body' || !rest.length) return null;
    schemas ??= load().catch(() => []);
    const docs = await schemas;
    if (!docs.length) return null;
    const near = new Set<string>();
    for (const doc of docs) {
      const r = schemaCouldHave(doc, rest);
      if (r.possible !== false) return null;
      for (const n of r.near) near.add(`body.${n}`);
    }
    return { possible: false, near: [...near] };
  };
}
