/**
 * OpenClaw's secret references in the settings Cairn reads (API keys and request headers of
 * the embedder, the chat model and `models.providers`), resolved in memory when the config
 * is loaded.
 *
 * The forms are OpenClaw 2026.9's (src/secrets/ref-contract, src/config/types.secrets):
 * `{ source, provider, id }` objects (an older form omits `provider`), and the strings
 * `"${NAME}"` / `"$NAME"` for an environment variable. Sources: `env` (the built-in
 * `default` provider, or a configured one with an optional `allowlist`) and `file`
 * (`secrets.providers.<alias> = { source: "file", path, mode: "json" | "singleValue" }`, the id
 * a JSON pointer or `"value"`) are resolved; `exec` (runs a command) and `store` (OpenClaw's
 * own store) are reported, never run. A reference that cannot be resolved leaves the key
 * unset with a warning naming the key path and the reference, never a secret. The files on
 * disk and the raw config keep the reference: a resolved secret is never written anywhere.
 */
import fs from 'node:fs';
import path from 'node:path';
import { openClawHome } from './workspace';

type Json = Record<string, unknown>;

/** A reference that could not be resolved (the same shape as load.ts's SecretWarning). */
export interface SecretWarning {
  file: string;
  keyPath: string;
  message: string;
}

/** A secret reference in OpenClaw's canonical shape. */
export interface SecretRef {
  source: 'env' | 'file' | 'exec' | 'store';
  provider: string;
  id: string;
}

const SOURCES = new Set(['env', 'file', 'exec', 'store']);
const ENV_TEMPLATE = /^\$\{([A-Z][A-Z0-9_]{0,127})\}$/;
const ENV_SHORTHAND = /^\$([A-Z][A-Z0-9_]{0,127})$/;
/** OpenClaw's default cap on a file provider's payload. */
const FILE_MAX_BYTES = 1024 * 1024;
/** The config subtrees whose secret fields Cairn reads. */
const SUBTREES: string[][] = [['memory', 'search'], ['agents', 'entries'], ['models', 'providers'], ['cairn', 'llm']];

function isObj(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A reference object or env shorthand string as OpenClaw coerces it, else undefined. */
export function coerceSecretRef(value: unknown, defaults: Json = {}): SecretRef | undefined {
  if (isObj(value) && typeof value.source === 'string' && SOURCES.has(value.source) && typeof value.id === 'string' && value.id.trim()) {
    const keys = Object.keys(value).length;
    const source = value.source as SecretRef['source'];
    if (keys === 3 && typeof value.provider === 'string' && value.provider.trim()) return { source, provider: value.provider, id: value.id };
    if (keys === 2 && value.provider === undefined) return { source, provider: str(defaults[source]) ?? 'default', id: value.id };
    return undefined;
  }
  if (typeof value !== 'string') return undefined;
  const m = ENV_TEMPLATE.exec(value.trim()) ?? ENV_SHORTHAND.exec(value.trim());
  return m?.[1] ? { source: 'env', provider: str(defaults.env) ?? 'default', id: m[1] } : undefined;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
}

/** Where references are resolved: the `secrets` block of the config and the environment. */
interface Resolver {
  providers: Json;
  env: NodeJS.ProcessEnv;
  fileCache: Map<string, unknown>;
}

type Outcome = { value: string } | { problem: string };

function resolveEnv(ref: SecretRef, provider: Json | undefined, r: Resolver): Outcome {
  const allow = Array.isArray(provider?.allowlist) ? (provider.allowlist as unknown[]) : undefined;
  if (allow && !allow.includes(ref.id)) return { problem: `environment variable ${ref.id} is not in secrets.providers.${ref.provider}.allowlist` };
  const v = r.env[ref.id];
  return typeof v === 'string' && v.trim() ? { value: v } : { problem: `environment variable ${ref.id} is not set (or empty)` };
}

/** A file provider's payload (read once per load): its text for singleValue, else its JSON object. */
function filePayload(alias: string, provider: Json, r: Resolver): unknown {
  if (r.fileCache.has(alias)) return r.fileCache.get(alias);
  const raw = str(provider.path);
  if (!raw) throw new Error(`secrets.providers.${alias}.path is not set`);
  const home = openClawHome(r.env);
  const file = path.resolve(raw === '~' ? home : raw.startsWith('~/') ? path.join(home, raw.slice(2)) : raw);
  const size = fs.statSync(file).size;
  if (size > FILE_MAX_BYTES) throw new Error(`${file} is ${size} bytes, over the ${FILE_MAX_BYTES}-byte limit`);
  const text = fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  let payload: unknown;
  if (provider.mode === 'singleValue') payload = text.replace(/\r?\n$/, '');
  else {
    try {
      payload = JSON.parse(text);
    } catch {
      throw new Error(`${file} is not valid JSON`);
    }
    if (!isObj(payload)) throw new Error(`${file} does not hold a JSON object`);
  }
  r.fileCache.set(alias, payload);
  return payload;
}

/** Follow an absolute JSON pointer (`/a/b`, `~1` for `/`, `~0` for `~`). */
function jsonPointer(doc: unknown, pointer: string): unknown {
  let cur = doc;
  for (const seg of pointer.slice(1).split('/')) {
    const key = seg.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObj(cur) && !Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

function resolveFile(ref: SecretRef, provider: Json | undefined, r: Resolver): Outcome {
  if (!provider) return { problem: `secret provider "${ref.provider}" is not configured in secrets.providers` };
  let payload: unknown;
  try {
    payload = filePayload(ref.provider, provider, r);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return { problem: `file provider "${ref.provider}" cannot be read (${e.code === 'ENOENT' ? 'no such file' : e.message})` };
  }
  if (provider.mode === 'singleValue') {
    return ref.id === 'value' && typeof payload === 'string' && payload ? { value: payload } : { problem: `singleValue file provider "${ref.provider}" expects the id "value"` };
  }
  const v = ref.id.startsWith('/') ? jsonPointer(payload, ref.id) : undefined;
  return typeof v === 'string' && v ? { value: v } : { problem: `file provider "${ref.provider}" has no string at ${ref.id}` };
}

function resolveRef(ref: SecretRef, r: Resolver): Outcome {
  const configured = r.providers[ref.provider];
  const provider = isObj(configured) ? configured : undefined;
  if (provider && provider.source !== ref.source) return { problem: `secret provider "${ref.provider}" has source "${String(provider.source)}" but the reference asks for "${ref.source}"` };
  if (ref.source === 'env') {
    if (!provider && ref.provider !== 'default') return { problem: `secret provider "${ref.provider}" is not configured in secrets.providers` };
    return resolveEnv(ref, provider, r);
  }
  if (ref.source === 'file') return resolveFile(ref, provider, r);
  if (ref.source === 'exec') return { problem: 'exec secret providers run a command, which Cairn does not do; set the key in the environment, a file provider or cairn.json' };
  return { problem: "the store source is OpenClaw's own secret store, which Cairn cannot read; set the key in the environment, a file provider or cairn.json" };
}

/** A field that may hold a secret: an `apiKey`, or a value under `headers`. */
function isSecretField(key: string, parentKey: string | undefined): boolean {
  return key === 'apiKey' || parentKey === 'headers';
}

interface Walk {
  r: Resolver;
  defaults: Json;
  file: string;
  warnings: SecretWarning[];
  resolved: string[];
}

function walk(node: unknown, at: string[], w: Walk): void {
  if (!isObj(node) && !Array.isArray(node)) return;
  const entries: [string, unknown][] = Array.isArray(node) ? node.map((v, i) => [String(i), v]) : Object.entries(node);
  for (const [key, value] of entries) {
    const keyPath = [...at, key];
    const ref = isSecretField(key, at.at(-1)) ? coerceSecretRef(value, w.defaults) : undefined;
    if (!ref) {
      walk(value, keyPath, w);
      continue;
    }
    const out = resolveRef(ref, w.r);
    const container = node as Record<string, unknown>;
    const dotted = keyPath.join('.');
    if ('value' in out) {
      container[key] = out.value;
      w.resolved.push(dotted);
    } else {
      delete container[key];
      w.warnings.push({ file: w.file, keyPath: dotted, message: `${dotted}: the secret reference ${ref.source}:${ref.provider}:${ref.id} cannot be resolved: ${out.problem}; the key is left unset` });
    }
  }
}

/**
 * Resolve the secret references Cairn reads in a merged raw config. Returns a copy with the
 * resolved values (the input is not changed), the key paths that were resolved, and a warning
 * per reference that could not be.
 */
export function resolveSecretRefs(raw: Json, file: string, env: NodeJS.ProcessEnv = process.env): { config: Json; resolved: string[]; warnings: SecretWarning[] } {
  const config = structuredClone(raw);
  const secrets = isObj(config.secrets) ? config.secrets : {};
  const w: Walk = {
    r: { providers: isObj(secrets.providers) ? secrets.providers : {}, env, fileCache: new Map() },
    defaults: isObj(secrets.defaults) ? secrets.defaults : {},
    file,
    warnings: [],
    resolved: [],
  };
  for (const sub of SUBTREES) {
    let node: unknown = config;
    for (const k of sub) node = isObj(node) ? node[k] : undefined;
    walk(node, sub, w);
  }
  return { config, resolved: w.resolved, warnings: w.warnings };
}

/**
 * A view of `config` fit to show (Settings, `config.get`): each resolved secret put back to the
 * reference the user wrote in `raw`.
 */
export function withSecretRefs(config: Json, raw: Json, resolved: readonly string[]): Json {
  if (resolved.length === 0) return config;
  const out = structuredClone(config);
  for (const dotted of resolved) {
    const keys = dotted.split('.');
    let src: unknown = raw;
    let dst: unknown = out;
    for (const k of keys.slice(0, -1)) {
      src = isObj(src) || Array.isArray(src) ? (src as Record<string, unknown>)[k] : undefined;
      dst = isObj(dst) || Array.isArray(dst) ? (dst as Record<string, unknown>)[k] : undefined;
    }
    const last = keys.at(-1) ?? '';
    if ((isObj(dst) || Array.isArray(dst)) && (isObj(src) || Array.isArray(src))) (dst as Record<string, unknown>)[last] = (src as Record<string, unknown>)[last];
  }
  return out;
}
