/**
 * Cairn's plugin as OpenClaw runs it, for tests and benchmarks: a process under OpenClaw's own
 * Node 24 (the one scripts/fetch-test-openclaw.mjs installs; its `openclaw.sh` names it) that
 * loads openclaw-plugin/index.js with OpenClaw's plugin-API shape (openclaw-plugin-host-child.mjs),
 * whose bridge child is the real `cairn openclaw-bridge` (or `bin`). Commands go over its
 * stdin; `call` resolves with the command's answer. Also an OpenClaw dir to point it at, and
 * the bridge alone for raw lines. No vitest import: benchmarks use it too.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readLines } from '../../openclaw-plugin/wire.js';
import { OPENCLAW_CACHE, realOpenClaw } from './openclaw-real';

const here = path.dirname(fileURLToPath(import.meta.url));
const HOST = path.join(here, 'openclaw-plugin-host-child.mjs');
/** The plugin's entry, as `cairn connect openclaw` points OpenClaw at it. */
export const PLUGIN_INDEX = path.join(here, '..', '..', 'openclaw-plugin', 'index.js');

/** OpenClaw's Node (read from the wrapper the fetch script writes), or a skip suffix for the title. */
export function openClawNode(): { node: string | null; skip: string } {
  const { command, skip } = realOpenClaw();
  if (!command) return { node: null, skip };
  const node = /exec "([^"]+)"/.exec(fs.readFileSync(command, 'utf8'))?.[1] ?? path.join(OPENCLAW_CACHE, 'node24', 'bin', 'node');
  return { node, skip: '' };
}

/** The plugin's config (plugins.entries.cairn.config). */
export interface PluginConfig {
  stateDir: string;
  dataDir?: string;
  node: string;
  bin: string;
  env?: Record<string, string>;
  recallBudgetMs?: number;
  startupBudgetMs?: number;
  minScore?: number;
  maxHits?: number;
  recallTokens?: number;
}

/** Usage of one process, from /proc (null when it is gone). */
export interface Usage {
  rss: number;
  fds: number;
}

/** A running plugin host: `call` one command (see openclaw-plugin-host-child.mjs for the list). */
export interface PluginHost {
  pid: number;
  call<T = Record<string, unknown>>(what: string, args?: Record<string, unknown>): Promise<T>;
  /** Close its stdin (OpenClaw exits) and wait for it and its bridge to end. */
  close(): Promise<void>;
}

/** Start the plugin under `node` (OpenClaw's Node 24) with `config`. */
export function startPluginHost(node: string, config: PluginConfig): PluginHost {
  const child = spawn(node, [HOST, JSON.stringify(config), PLUGIN_INDEX], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const ended = new Promise<void>((resolve) => child.on('close', () => resolve()));
  void (async () => {
    for await (const line of readLines(child.stdout)) {
      const msg = JSON.parse(line) as { id: number; ok: boolean; value?: unknown; error?: string };
      const w = waiting.get(msg.id);
      waiting.delete(msg.id);
      if (msg.ok) w?.resolve(msg.value);
      else w?.reject(new Error(msg.error));
    }
    for (const w of waiting.values()) w.reject(new Error(`the plugin host ended: ${stderr.slice(-2000)}`));
  })();
  let next = 1;
  return {
    pid: child.pid ?? 0,
    call<T>(what: string, args: Record<string, unknown> = {}) {
      const id = next++;
      return new Promise<T>((resolve, reject) => {
        waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
        child.stdin.write(`${JSON.stringify({ id, do: what, ...args })}\n`);
      });
    },
    async close() {
      child.stdin.end();
      await ended;
    },
  };
}

/**
 * A memory note holding what a line-based wire can break on — U+2028 and U+2029 (Node 24's
 * readline ends a line at each), NUL, a lone surrogate (written as UTF-8, it reads back as
 * U+FFFD) — and a line of over 1 MB. Every plugin test's OpenClaw dir has it; a search for
 * "Oslo storage unit code" finds it (`OSLO-7731`).
 */
export function hostileNote(): Record<string, string> {
  const big = `Tundra field log ${'tundra-sample '.repeat(72_000)}end.`;
  return { '2026-12-05.md': `# 2026-12-05\n\n- The Oslo storage unit code is OSLO-7731\u2028on the second floor\u2029by the lift, a NUL\u0000 here and a lone surrogate \ud800 there.\n- ${big}\n` };
}

/** The OpenClaw 2026.9.6-written state dir the plugin tests start from (as openclaw-state.ts's OC2026_STATE_DIR). */
const FIXTURE_STATE = path.join(here, '..', 'fixtures', 'openclaw-2026.9.6', 'state');

/**
 * An OpenClaw dir `<parent>/.openclaw` (the 2026.9.6 fixture's workspace and config) with
 * `notes` added under its `workspace/memory/`. Tests take pluginOcDir (openclaw-plugin-dir.ts),
 * which makes the temp dirs; a benchmark gives its own `parent`.
 */
export function ocDirIn(parent: string, notes: Record<string, string> = {}): { stateDir: string; memoryDir: string } {
  const stateDir = path.join(parent, '.openclaw');
  fs.mkdirSync(stateDir);
  fs.cpSync(path.join(FIXTURE_STATE, 'workspace'), path.join(stateDir, 'workspace'), { recursive: true });
  const cfg = JSON.parse(fs.readFileSync(path.join(FIXTURE_STATE, 'openclaw.json'), 'utf8')) as { agents: { defaults: { workspace: string } } };
  cfg.agents.defaults.workspace = path.join(stateDir, 'workspace');
  fs.writeFileSync(path.join(stateDir, 'openclaw.json'), JSON.stringify(cfg));
  const memoryDir = path.join(stateDir, 'workspace', 'memory');
  for (const [name, text] of Object.entries(notes)) fs.writeFileSync(path.join(memoryDir, name), text);
  return { stateDir, memoryDir };
}

/** One answer line of the bridge, as read (wire.js's BridgeAnswer, not checked). */
export interface RawAnswer {
  id: number | null;
  ok: boolean;
  error?: string;
  result?: unknown;
}

/**
 * The bridge alone, without the plugin (`node <bin> --state-dir <dir> openclaw-bridge` under
 * this Node): `send` writes one raw line, `next` reads the next answer, `ask` does both.
 */
export function rawBridge(bin: string, stateDir: string, env: Record<string, string>) {
  const child = spawn(process.execPath, [bin, '--state-dir', stateDir, 'openclaw-bridge'], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'inherit'] });
  const answers = readLines(child.stdout)[Symbol.asyncIterator]();
  const ended = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const next = async (): Promise<RawAnswer> => {
    const r = await answers.next();
    if (r.done) throw new Error('the bridge ended before answering');
    return JSON.parse(r.value) as RawAnswer;
  };
  const send = (line: string): void => void child.stdin.write(`${line}\n`);
  return {
    send,
    next,
    ask: (line: string) => (send(line), next()),
    close: async () => {
      child.stdin.end();
      await ended;
    },
  };
}
