/**
 * Every config change Cairn can suggest (config/suggestions.ts) checked with the real
 * OpenClaw 2026.9.6's own validator (`openclaw config validate --json`, temp state dir): a key
 * OpenClaw also reads must be accepted by it, so no message of Cairn's can lead a user to a
 * config that stops OpenClaw; a Cairn-only key must be said to belong in cairn.json. Skipped
 * with the reason when OpenClaw is not installed locally; fails under CI=true.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONFIG_SUGGESTIONS, SUGGESTION_TEXT, type ConfigSuggestion, type SuggestionId } from '../../electron/engine/config/suggestions';
import { realOpenClaw } from '../helpers/openclaw-real';
import { tmpDir } from '../helpers/tmp';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const openclaw = realOpenClaw();
const entries = Object.entries(CONFIG_SUGGESTIONS) as [SuggestionId, ConfigSuggestion][];

/** `{a: {b: value}}` for key path `a.b`, merged into `into`. */
function setIn(into: Record<string, unknown>, keyPath: string, value: unknown): Record<string, unknown> {
  const parts = keyPath.split('.');
  let cur = into;
  for (const p of parts.slice(0, -1)) cur = (cur[p] ??= {}) as Record<string, unknown>;
  cur[parts.at(-1) as string] = value;
  return into;
}

interface Validation {
  valid: boolean;
  issues?: { path: string; message: string }[];
  warnings?: { path: string; message: string }[];
}

/** Run `openclaw config validate --json` on `config` in a fresh state dir and home. */
function validate(command: string, config: Record<string, unknown>): Promise<Validation> {
  const home = tmpDir('cairn-ocvalidate-');
  const stateDir = path.join(home, '.openclaw');
  fs.mkdirSync(stateDir);
  const file = path.join(stateDir, 'openclaw.json');
  fs.writeFileSync(file, JSON.stringify(config, null, 2));
  const env = { PATH: process.env.PATH, HOME: home, OPENCLAW_STATE_DIR: stateDir, OPENCLAW_CONFIG_PATH: file, NO_COLOR: '1' };
  return new Promise((resolve, reject) => {
    const child = spawn(command, ['config', 'validate', '--json'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', () => {
      const start = out.indexOf('{');
      try {
        resolve(JSON.parse(out.slice(start)) as Validation);
      } catch {
        reject(new Error(`openclaw config validate printed no JSON:\n${out}\n${err}`));
      }
    });
  });
}

describe('config suggestions, as printed', () => {
  it('each names its key at today\'s path; a Cairn-only key is said to belong in cairn.json', () => {
    for (const [id, s] of entries) {
      const text = (SUGGESTION_TEXT[id] as (...a: string[]) => string)('/models');
      expect(text, id).toContain(s.keyPath.replace('.main.', '.<id>.'));
      if (s.scope === 'cairn') expect(text, id).toContain('in cairn.json');
    }
  });

  it('no engine or CLI source names a retired key outside config/legacy-keys.ts', () => {
    const hits: string[] = [];
    const walk = (dir: string): void => {
      for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, d.name);
        if (d.isDirectory()) walk(p);
        else if (/\.tsx?$/.test(d.name) && !p.endsWith(path.join('config', 'legacy-keys.ts'))) {
          const text = fs.readFileSync(p, 'utf8');
          // A string or doc comment telling the reader the retired path (schema.ts's header names it as retired).
          for (const m of text.matchAll(/agents\.defaults\.memorySearch|agents\.list\b|['"`]memorySearch\./g)) {
            const line = text.slice(0, m.index).split('\n').length;
            const lineText = text.split('\n')[line - 1] ?? '';
            if (!/retired|older|legacy/i.test(lineText)) hits.push(`${path.relative(repo, p)}:${line}: ${lineText.trim()}`);
          }
        }
      }
    };
    for (const d of ['electron', 'shared', 'renderer/src']) walk(path.join(repo, d));
    expect(hits).toEqual([]);
  });
});

describe.skipIf(!openclaw.command)(`config suggestions through the real OpenClaw 2026.9.6's validator${openclaw.skip}`, () => {
  it('every suggestion of a key OpenClaw reads is a config OpenClaw accepts', { timeout: 300_000 }, async () => {
    const command = openclaw.command as string;
    const config: Record<string, unknown> = {};
    const shared = entries.filter(([, s]) => s.scope === 'openclaw');
    expect(shared.length).toBeGreaterThan(4);
    for (const [, s] of shared) setIn(config, s.keyPath, s.value);
    const res = await validate(command, config);
    expect(res.issues ?? [], JSON.stringify(config)).toEqual([]);
    expect(res.valid).toBe(true);
    // OpenClaw's own notes on retired keys (e.g. "Moved agents.list …") would mean an old path.
    expect(res.warnings ?? []).toEqual([]);
  });

  it('the validator does reject the retired path Cairn used to suggest (the check can fail)', { timeout: 300_000 }, async () => {
    const res = await validate(openclaw.command as string, { agents: { defaults: { memorySearch: { sources: ['memory', 'sessions'] } } } });
    expect(res.valid).toBe(false);
    expect(JSON.stringify(res.issues)).toContain('memorySearch');
  });
});
