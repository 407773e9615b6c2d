/**
 * Loading `cairn.json` (and a read-only `openclaw.json` beside it) into a validated config.
 *
 * A bad value never stops the app: it is reported with its key path, the value and what is
 * allowed, and that key falls back to its default. A file that does not parse is reported
 * with line and column, and the whole file is ignored (defaults, visible warning).
 */
import fs from 'node:fs';
import path from 'node:path';
import JSON5 from 'json5';
import { jsonDepthExceeds, MAX_CONFIG_DEPTH } from '../util/json-depth';
import { describeSafely, redactSecrets } from '../util/redact';
import type { z } from 'zod';
import { ConfigSchema, type CairnConfig } from './schema';
import { EngineError } from '../base/errors';
import { resolveSecretRefs } from './secrets';
import { CONFIG_FILE, OPENCLAW_CONFIG_FILE, settingsFiles } from './state-home';
import { legacyMoveNote, migrateLegacyKeys } from './legacy-keys';

/** One problem found while loading the config; shown in Status and the CLI. */
export interface ConfigWarning {
  /** Which file it came from (absolute path). */
  file: string;
  /** Dotted key path, e.g. `agents.defaults.compaction.reserveTokensFloor`; empty for the file. */
  keyPath: string;
  message: string;
}

export interface LoadedConfig {
  config: CairnConfig;
  warnings: ConfigWarning[];
  /** The files that were read, in merge order (later wins). */
  files: string[];
  /** The raw (merged) object as written by the user, before defaults (secret references unresolved). */
  raw: Record<string, unknown>;
  /** Notes, not problems: keys read under OpenClaw's older names (legacy-keys.ts), shown by `cairn doctor`. */
  notes?: ConfigWarning[];
  /** Key paths whose secret reference was resolved into `config` (secrets.ts); never shown or written. */
  secretPaths?: string[];
}

export { CONFIG_FILE, OPENCLAW_CONFIG_FILE };

type Json = Record<string, unknown>;

function isPlainObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Deep merge: objects merge key by key, anything else in `over` replaces `base`. */
export function deepMerge(base: Json, over: Json): Json {
  const out: Json = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    out[k] = isPlainObject(b) && isPlainObject(v) ? deepMerge(b, v) : v;
  }
  return out;
}

/** Parse JSON5 text; a syntax error names the file, line and column. */
export function parseJson5File(file: string, text: string): unknown {
  let value: unknown;
  try {
    value = JSON5.parse(text);
  } catch (err) {
    const e = err as Error & { lineNumber?: number; columnNumber?: number };
    const where = e.lineNumber ? `line ${e.lineNumber}, column ${e.columnNumber ?? '?'}` : 'unknown position';
    const reason = e.message.replace(/^JSON5: /, '').replace(/ at \d+:\d+$/, '');
    throw new ConfigParseError(`${file}: ${where}: ${reason}`, file, e.lineNumber, e.columnNumber);
  }
  // A parseable but absurdly deep file would overflow the merge, clone and validation walks.
  if (jsonDepthExceeds(value, MAX_CONFIG_DEPTH)) throw new ConfigParseError(`${file}: values nested deeper than ${MAX_CONFIG_DEPTH} levels`, file);
  return value;
}

/** A settings file that does not parse: nothing that reads the settings works until it is fixed (the message names file:line). */
export class ConfigParseError extends EngineError {
  constructor(
    message: string,
    readonly file: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super('unavailable', message);
    this.name = 'ConfigParseError';
  }
}

function describeValue(v: unknown): string {
  if (v === undefined) return 'undefined';
  const s = JSON.stringify(v);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

function getAt(obj: unknown, p: readonly PropertyKey[]): unknown {
  let cur: unknown = obj;
  for (const k of p) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[k];
  }
  return cur;
}

function deleteAt(obj: Json, p: readonly PropertyKey[]): boolean {
  if (p.length === 0) return false;
  const parent = getAt(obj, p.slice(0, -1));
  if (parent === null || typeof parent !== 'object') return false;
  const last = p[p.length - 1] as PropertyKey;
  if (Array.isArray(parent) && typeof last === 'number') {
    parent.splice(last, 1);
    return true;
  }
  if (!(last in (parent as object))) return false;
  delete (parent as Record<PropertyKey, unknown>)[last];
  return true;
}

function issueMessage(issue: z.core.$ZodIssue, value: unknown): string {
  const keyPath = issue.path.map(String).join('.');
  // Warnings are shown and logged: a header or key value is never echoed.
  return `${keyPath} = ${describeSafely(keyPath, value, describeValue)} is not allowed: ${issue.message}; using the default`;
}

/**
 * Validate a raw config object. Each invalid key is removed (so it takes its default) and
 * reported; the result always parses.
 */
export function validateConfig(raw: unknown, file: string): { config: CairnConfig; warnings: ConfigWarning[] } {
  const warnings: ConfigWarning[] = [];
  let input: Json = isPlainObject(raw) ? structuredClone(raw) : {};
  if (!isPlainObject(raw) && raw !== undefined) {
    warnings.push({ file, keyPath: '', message: `${file}: the top level must be an object, got ${redactSecrets(describeValue(raw))}; using defaults` });
  }
  for (let round = 0; round < 100; round++) {
    const res = ConfigSchema.safeParse(input);
    if (res.success) return { config: res.data, warnings };
    let removed = false;
    for (const issue of res.error.issues) {
      const value = getAt(input, issue.path);
      warnings.push({ file, keyPath: issue.path.map(String).join('.'), message: issueMessage(issue, value) });
      removed = deleteAt(input, issue.path) || removed;
    }
    if (!removed) {
      // An issue on a path we cannot delete (e.g. the root): fall back to defaults entirely.
      input = {};
    }
  }
  return { config: ConfigSchema.parse({}), warnings };
}

/**
 * Read `openclaw.json` (if present, read-only) then `cairn.json` from the state dir, then the
 * `cairn.json` of `settingsDir` when settings are kept elsewhere (a foreign state dir's home
 * in Cairn's data dir), merge them (later wins), resolve the secret references Cairn reads
 * (from `env`; secrets.ts) and validate. Never throws for bad content: problems become warnings.
 */
export function loadConfig(stateDir: string, settingsDir: string = stateDir, env: NodeJS.ProcessEnv = process.env): LoadedConfig {
  const warnings: ConfigWarning[] = [];
  const notes: ConfigWarning[] = [];
  const files: string[] = [];
  let merged: Json = {};
  const sources = settingsFiles(stateDir, settingsDir);
  for (const file of sources) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      warnings.push({ file, keyPath: '', message: `${file}: cannot be read (${(err as Error).message}); ignored` });
      continue;
    }
    files.push(file);
    try {
      const parsed = parseJson5File(file, text);
      if (!isPlainObject(parsed)) {
        warnings.push({ file, keyPath: '', message: `${file}: the top level must be an object; ignored` });
        continue;
      }
      // Each file moves its own retired keys first, so a later file still wins (legacy-keys.ts).
      const { config: current, moves } = migrateLegacyKeys(parsed);
      for (const m of moves) notes.push({ file, keyPath: m.from, message: legacyMoveNote(file, m) });
      merged = deepMerge(merged, current);
    } catch (err) {
      warnings.push({ file, keyPath: '', message: `${(err as Error).message}; the file is ignored and defaults are used` });
    }
  }
  const primary = files.at(-1) ?? path.join(settingsDir, CONFIG_FILE);
  const secrets = resolveSecretRefs(merged, primary, env);
  const { config, warnings: vw } = validateConfig(secrets.config, primary);
  return { config, warnings: [...warnings, ...secrets.warnings, ...vw], notes, files, raw: merged, secretPaths: secrets.resolved };
}
