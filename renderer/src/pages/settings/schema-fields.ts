/**
 * Turns the config's JSON Schema (from `config.get`) into a flat list of form fields grouped
 * by section. The form is generated, never hand-listed, so a key added to the engine's schema
 * shows up in Settings without touching the renderer. Which fields are masked is the engine's
 * own rule for secrets (shared/secret-keys.ts).
 */
import { isSecretKey } from '../../../../shared/secret-keys';

/** The subset of JSON Schema that zod's `toJSONSchema` emits for our config. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  enum?: unknown[];
  default?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  pattern?: string;
  anyOf?: JsonSchema[];
}

export type FieldKind = 'boolean' | 'enum' | 'integer' | 'number' | 'string' | 'enum-list' | 'string-list' | 'json';

/** One editable config key. */
export interface FieldSpec {
  /** Dotted key path as `config.set` takes it. */
  keyPath: string;
  /** Last path segment, shown as the label. */
  name: string;
  kind: FieldKind;
  schema: JsonSchema;
  /** Allowed values for enum / enum-list. */
  options: string[];
  /** What the schema says in words: range, pattern. */
  hint: string;
  /** Holds a credential (shared/secret-keys.ts): shown masked, whatever its kind. */
  secret: boolean;
}

export interface SectionSpec {
  id: string;
  title: string;
  fields: FieldSpec[];
}

/**
 * Sections by key-path prefix, most specific first. The first matching prefix wins, so
 * `…compaction.memoryFlush` lands in "Memory flush", not "Compaction".
 */
const SECTIONS: { id: string; title: string; prefix: string }[] = [
  { id: 'model', title: 'Model', prefix: 'cairn.llm' },
  { id: 'flush', title: 'Memory flush', prefix: 'agents.defaults.compaction.memoryFlush' },
  { id: 'compaction', title: 'Compaction', prefix: 'agents.defaults.compaction' },
  { id: 'pruning', title: 'Pruning', prefix: 'agents.defaults.contextPruning' },
  { id: 'search', title: 'Memory search', prefix: 'memory.search' },
  { id: 'qmd', title: 'QMD', prefix: 'memory.qmd' },
  { id: 'backend', title: 'Memory backend', prefix: 'memory' },
  { id: 'agent', title: 'Agent', prefix: 'agents' },
  { id: 'ui', title: 'Interface', prefix: 'cairn.ui' },
];

function typeOf(s: JsonSchema): string | undefined {
  if (Array.isArray(s.type)) return s.type.find((t) => t !== 'null');
  if (s.type) return s.type;
  const alt = s.anyOf?.find((a) => a.type && a.type !== 'null');
  return alt ? typeOf(alt) : undefined;
}

function describe(s: JsonSchema): string {
  const parts: string[] = [];
  const lo = s.minimum ?? s.exclusiveMinimum;
  const hi = s.maximum !== undefined && s.maximum < 1e15 ? s.maximum : s.exclusiveMaximum;
  if (lo !== undefined && hi !== undefined) parts.push(`${s.exclusiveMinimum !== undefined ? '>' : '≥'} ${lo} and ${s.maximum !== undefined ? '≤' : '<'} ${hi}`);
  else if (lo !== undefined) parts.push(`${s.exclusiveMinimum !== undefined ? '>' : '≥'} ${lo}`);
  else if (hi !== undefined) parts.push(`≤ ${hi}`);
  if (s.pattern?.includes('ms|s|m|h|d')) parts.push('a duration such as 5m, 30s, 1h');
  if (s.description) parts.push(s.description);
  return parts.join('; ');
}

function fieldFor(keyPath: string, s: JsonSchema): FieldSpec {
  const name = keyPath.split('.').pop() ?? keyPath;
  const t = typeOf(s);
  let kind: FieldKind = 'json';
  let options: string[] = [];
  if (s.enum) {
    kind = 'enum';
    options = s.enum.map(String);
  } else if (t === 'boolean') kind = 'boolean';
  else if (t === 'integer') kind = 'integer';
  else if (t === 'number') kind = 'number';
  else if (t === 'string') kind = 'string';
  else if (t === 'array' && s.items?.enum) {
    kind = 'enum-list';
    options = s.items.enum.map(String);
  } else if (t === 'array' && typeOf(s.items ?? {}) === 'string') kind = 'string-list';
  return { keyPath, name, kind, schema: s, options, hint: describe(s), secret: isSecretKey(keyPath) };
}

/** Walk the schema: objects with declared properties recurse; everything else is a field. */
export function collectFields(schema: JsonSchema, prefix = ''): FieldSpec[] {
  const out: FieldSpec[] = [];
  for (const [key, sub] of Object.entries(schema.properties ?? {})) {
    const keyPath = prefix ? `${prefix}.${key}` : key;
    if (typeOf(sub) === 'object' && sub.properties && Object.keys(sub.properties).length > 0) {
      out.push(...collectFields(sub, keyPath));
    } else {
      out.push(fieldFor(keyPath, sub));
    }
  }
  return out;
}

/** Group fields into the named sections (in SECTIONS order), leftovers under "Other". */
export function sectionsOf(schema: JsonSchema): SectionSpec[] {
  const sections: SectionSpec[] = SECTIONS.map((s) => ({ id: s.id, title: s.title, fields: [] }));
  const other: SectionSpec = { id: 'other', title: 'Other', fields: [] };
  for (const f of collectFields(schema)) {
    const i = SECTIONS.findIndex((s) => f.keyPath === s.prefix || f.keyPath.startsWith(`${s.prefix}.`));
    (i >= 0 ? (sections[i] as SectionSpec) : other).fields.push(f);
  }
  return [...sections, other].filter((s) => s.fields.length > 0);
}

/** Read a dotted key path out of a nested object. */
export function getIn(obj: unknown, keyPath: string): unknown {
  let cur: unknown = obj;
  for (const p of keyPath.split('.')) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[p];
  }
  return cur;
}

/** Show a value in a text input. */
export function toText(kind: FieldKind, value: unknown): string {
  if (value === undefined || value === null) return '';
  if (kind === 'string-list') return Array.isArray(value) ? value.join('\n') : '';
  if (kind === 'json') return JSON.stringify(value, null, 2);
  if (kind === 'enum-list') return JSON.stringify(value);
  return String(value);
}

/**
 * Parse what the user typed into the value to send. Returns `{value}` or `{error}` for text
 * that is not even the right shape (the engine judges ranges). Empty text = unset (default).
 */
export function fromText(kind: FieldKind, text: string): { value: unknown } | { error: string } {
  const t = text.trim();
  if (kind === 'string') return { value: text === '' ? undefined : text };
  if (t === '') return { value: undefined };
  if (kind === 'integer' || kind === 'number') {
    const n = Number(t);
    if (!Number.isFinite(n)) return { error: `not a number: ${JSON.stringify(t)}` };
    return { value: n };
  }
  if (kind === 'boolean') return { value: t === 'true' };
  if (kind === 'string-list') return { value: text.split('\n').map((l) => l.trim()).filter(Boolean) };
  if (kind === 'json' || kind === 'enum-list') {
    try {
      return { value: JSON.parse(t) as unknown };
    } catch (err) {
      return { error: `not valid JSON: ${(err as Error).message}` };
    }
  }
  return { value: t };
}
