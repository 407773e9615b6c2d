/**
 * What connecting an OpenClaw 2026.9 state dir to Cairn means, as data: the settings its
 * openclaw.json needs so that its agent's recall goes to Cairn's MCP server, how Cairn is
 * started from there, and which of those settings a given config still lacks. Pure: reads
 * nothing but what it is given (docs/openclaw.md says why each setting is there).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cairnDataDir } from '../config/data-dir';

/** The `mcp.servers` key Cairn's entry is written under (tools appear as `cairn__memory_search`). */
export const CAIRN_SERVER = 'cairn';

/** OpenClaw's built-in recall tools (memory-core), denied so the model recalls through Cairn. */
export const BUILTIN_MEMORY_TOOLS = ['memory_search', 'memory_get'] as const;

/** API key variables Cairn's embedders and chat models read (embed/factory.ts, llm/factory.ts). */
const KEY_VARS = ['OPENAI_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY', 'VOYAGE_API_KEY', 'ANTHROPIC_API_KEY'];

/** How OpenClaw starts Cairn's MCP server: an `mcp.servers` stdio entry. */
export interface McpServerEntry {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** One setting connect writes: the key path in openclaw.json and its new value. */
export interface ConfigEdit {
  path: string[];
  value: unknown;
  /** Why, in a few words, for the person reading the plan. */
  why: string;
}

/** How to start this Cairn: the Node (or Electron-as-Node) running it and bin/cairn.mjs. */
export interface CairnLaunch {
  node: string;
  bin: string;
  /** Extra variables the Node needs (Electron's binary runs as Node only with ELECTRON_RUN_AS_NODE). */
  env: Record<string, string>;
}

/** The first ancestor of this module's dir that holds bin/cairn.mjs (source tree or bundle). */
function findCairnBin(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const bin = path.join(dir, 'bin', 'cairn.mjs');
    if (fs.existsSync(bin)) return bin;
    const up = path.dirname(dir);
    if (up === dir) throw new Error('bin/cairn.mjs was not found above the engine: cannot tell OpenClaw how to start Cairn');
    dir = up;
  }
}

/** The Node running this process and Cairn's own executable script, both absolute. */
export function currentLaunch(): CairnLaunch {
  return { node: process.execPath, bin: findCairnBin(), env: process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {} };
}

/**
 * The `mcp.servers.cairn` entry. OpenClaw puts its own Node first on PATH, so `node` would
 * run Cairn under a Node its native modules were not built for: the absolute path of the
 * Node running Cairn now. OpenClaw passes a server only the MCP SDK's default variables, so
 * Cairn's data dir is given resolved, and API keys Cairn may need are passed as OpenClaw
 * `${VAR}` substitutions (resolved from OpenClaw's environment), never as values.
 */
export function serverEntry(stateDir: string, launch: CairnLaunch, env: NodeJS.ProcessEnv): McpServerEntry {
  const vars: Record<string, string> = { ...launch.env, CAIRN_DATA_DIR: cairnDataDir(env) };
  if (env.XDG_STATE_HOME) vars.XDG_STATE_HOME = env.XDG_STATE_HOME;
  for (const k of KEY_VARS) if (env[k]) vars[k] = `\${${k}}`;
  return { command: launch.node, args: [launch.bin, 'mcp', '--state-dir', path.resolve(stateDir)], env: vars };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The value at a key path of a parsed config, or undefined. */
export function getPath(config: unknown, keys: readonly string[]): unknown {
  let v = config;
  for (const k of keys) v = isRecord(v) ? v[k] : undefined;
  return v;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The edits that connect `config` (openclaw.json, parsed) to Cairn; empty when it already is.
 * The existing `tools.deny` list is kept and extended, never replaced.
 */
export function connectEdits(config: unknown, entry: McpServerEntry): ConfigEdit[] {
  const edits: ConfigEdit[] = [];
  const server = ['mcp', 'servers', CAIRN_SERVER];
  if (!sameJson(getPath(config, server), entry)) edits.push({ path: server, value: entry, why: "start Cairn's MCP server with the Node that runs Cairn" });
  const denyPath = ['tools', 'deny'];
  const deny = getPath(config, denyPath);
  const list = Array.isArray(deny) ? deny.filter((d): d is string => typeof d === 'string') : [];
  const missing = BUILTIN_MEMORY_TOOLS.filter((t) => !list.includes(t));
  if (missing.length) edits.push({ path: denyPath, value: [...list, ...missing], why: "turn OpenClaw's built-in memory_search/memory_get off" });
  if (getPath(config, ['tools', 'toolSearch']) !== false) {
    edits.push({ path: ['tools', 'toolSearch'], value: false, why: "show Cairn's tools to the model directly, not behind tool search" });
  }
  return edits;
}

/**
 * What is missing for the agent's recall to reach Cairn, judged by what matters rather than
 * by byte-equality with this Cairn's entry (another Cairn install, the app or the CLI, is
 * just as connected): an entry that runs `mcp` with an absolute, existing command, the
 * built-in memory tools denied, tool search off. Empty when connected.
 */
export function connectionProblems(config: unknown): string[] {
  const problems: string[] = [];
  const server = getPath(config, ['mcp', 'servers', CAIRN_SERVER]);
  if (!isRecord(server)) problems.push(`no mcp.servers.${CAIRN_SERVER} entry`);
  else {
    const command = typeof server.command === 'string' ? server.command : '';
    const args = Array.isArray(server.args) ? server.args : [];
    if (!path.isAbsolute(command)) problems.push(`mcp.servers.${CAIRN_SERVER}.command is "${command}", not an absolute path to a Node (OpenClaw's own Node comes first on PATH)`);
    else if (!fs.existsSync(command)) problems.push(`mcp.servers.${CAIRN_SERVER}.command ${command} does not exist`);
    if (!args.includes('mcp')) problems.push(`mcp.servers.${CAIRN_SERVER}.args do not run "cairn mcp"`);
    if (server.enabled === false) problems.push(`mcp.servers.${CAIRN_SERVER} is disabled`);
  }
  const deny = getPath(config, ['tools', 'deny']);
  const denied = Array.isArray(deny) ? deny : [];
  const open = BUILTIN_MEMORY_TOOLS.filter((t) => !denied.includes(t));
  if (open.length) problems.push(`OpenClaw's built-in ${open.join('/')} still offered (tools.deny)`);
  if (getPath(config, ['tools', 'toolSearch']) !== false) problems.push("Cairn's tools are behind OpenClaw's tool search (tools.toolSearch is not false)");
  return problems;
}
