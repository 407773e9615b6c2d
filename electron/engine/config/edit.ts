/**
 * Editing `cairn.json` one key at a time: validate against the schema, refuse invalid values
 * with the key path and what is allowed, write atomically. Comments in a hand-written
 * JSON5 file are not preserved by an edit (the file is rewritten as formatted JSON5).
 * In config/ (floor 0), so that any domain that changes a setting (app's config.set, llm's
 * llm.useLocal) may import it.
 */
import fs from 'node:fs';
import path from 'node:path';
import JSON5 from 'json5';
import type { z } from 'zod';
import { ConfigSchema } from './schema';
import { CONFIG_FILE, parseJson5File, validateConfig } from './load';
import { currentKeyPath, migrateLegacyKeys } from './legacy-keys';
import { PRIVATE_FILE_MODE, writeFileAtomicSync } from '../util/atomic-write';
import { EngineError } from '../base/errors';

type Json = Record<string, unknown>;

function splitKey(keyPath: string): string[] {
  const parts = keyPath.split('.');
  if (parts.some((p) => p === '' || p === '__proto__' || p === 'constructor' || p === 'prototype')) {
    throw new EngineError('bad_request', `invalid key path ${JSON.stringify(keyPath)}`);
  }
  return parts;
}

function setIn(obj: Json, parts: string[], value: unknown): Json {
  const out: Json = structuredClone(obj);
  let cur: Json = out;
  for (const p of parts.slice(0, -1)) {
    const next = cur[p];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) cur[p] = {};
    cur = cur[p] as Json;
  }
  const last = parts[parts.length - 1] as string;
  if (value === undefined) {
    delete cur[last];
    // A reset leaves no empty `contextPruning: {}` behind: drop emptied parents.
    for (let depth = parts.length - 1; depth > 0; depth--) {
      let parent: Json = out;
      for (const p of parts.slice(0, depth - 1)) parent = parent[p] as Json;
      const key = parts[depth - 1] as string;
      const child = parent[key];
      if (typeof child === 'object' && child !== null && !Array.isArray(child) && Object.keys(child).length === 0) delete parent[key];
      else break;
    }
  } else cur[last] = value;
  return out;
}

/** Validate one key's value in the context of the whole config; undefined message = ok. */
export function validateKey(current: Json, givenKeyPath: string, value: unknown): string | undefined {
  const keyPath = currentKeyPath(givenKeyPath);
  const next = setIn(migrateLegacyKeys(current).config, splitKey(keyPath), value);
  const res = ConfigSchema.safeParse(next);
  if (res.success) return undefined;
  const issue = res.error.issues[0] as z.core.$ZodIssue;
  return `${issue.path.map(String).join('.') || keyPath}: ${issue.message}`;
}

/** Read cairn.json as written (not merged with openclaw.json). */
export function readOwnConfig(stateDir: string): Json {
  const file = path.join(stateDir, CONFIG_FILE);
  if (!fs.existsSync(file)) return {};
  const parsed = parseJson5File(file, fs.readFileSync(file, 'utf8'));
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Json) : {};
}

/**
 * Set (or remove, with undefined) one key in cairn.json; throws bad_request when invalid.
 * The write migrates the file: keys under OpenClaw's retired names (legacy-keys.ts) are
 * written back at today's names (today's value winning, as at load), and a retired `keyPath`
 * is set at today's path, so a file Cairn writes never carries a key OpenClaw 2026.9 rejects.
 */
export function setConfigKey(stateDir: string, givenKeyPath: string, value: unknown): void {
  const file = path.join(stateDir, CONFIG_FILE);
  const keyPath = currentKeyPath(givenKeyPath);
  let own: Json;
  try {
    own = migrateLegacyKeys(readOwnConfig(stateDir)).config;
  } catch (err) {
    throw new EngineError('conflict', `${(err as Error).message}; fix the file by hand before editing settings`);
  }
  const problem = validateKey(own, keyPath, value);
  if (problem) throw new EngineError('bad_request', problem);
  const next = setIn(own, splitKey(keyPath), value);
  // Belt and braces: the file we write must load without warnings for this key.
  const { warnings } = validateConfig(next, file);
  const bad = warnings.find((w) => w.keyPath === keyPath);
  if (bad) throw new EngineError('bad_request', bad.message);
  fs.mkdirSync(stateDir, { recursive: true });
  // Settings may hold API keys: a new file is the user's alone; an existing one keeps its mode.
  writeFileAtomicSync(file, `${JSON5.stringify(next, null, 2)}\n`, { newMode: PRIVATE_FILE_MODE });
}
