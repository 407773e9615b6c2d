/**
 * What connecting an OpenClaw 2026.9 state dir to Cairn means, as data: the Cairn plugin
 * (openclaw-plugin/) loaded from its folder (`plugins.load.paths`), its entry with the hook
 * permission it needs and its config (state dir, data dir, the Node that runs Cairn, budgets),
 * and — for a dir connected the old way (Cairn's MCP server, OpenClaw's memory tools denied,
 * tool search off) — taking that set-up away again. Which of these a config still lacks, and
 * what doctor reports. Pure but for looking at the plugin folder and the Node on disk
 * (docs/openclaw.md says why each setting is there).
 */
import fs from 'node:fs';
import path from 'node:path';
import { cairnDataDir } from '../config/data-dir';

/** The plugin's id (its openclaw.plugin.json) and the key of its `plugins.entries` entry. */
export const PLUGIN_ID = 'cairn';

/** The `mcp.servers` key the old connect wrote Cairn's MCP server under. */
export const CAIRN_SERVER = 'cairn';

/** OpenClaw's built-in recall tools, which the old connect denied. */
export const BUILTIN_MEMORY_TOOLS = ['memory_search', 'memory_get'] as const;

/** API key variables Cairn's embedders and chat models read (embed/factory.ts, llm/factory.ts). */
const KEY_VARS = ['OPENAI_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY', 'VOYAGE_API_KEY', 'ANTHROPIC_API_KEY'];

/** The budgets written with the plugin's config (the user may change them afterwards; connect keeps theirs). */
export const PLUGIN_DEFAULTS = { recallBudgetMs: 300, startupBudgetMs: 2000, recallTokens: 600, minScore: 0.1, maxHits: 6 } as const;

/** One setting connect writes (`value`) or removes (`remove`): the key path in openclaw.json. */
export interface ConfigEdit {
  path: string[];
  value?: unknown;
  remove?: true;
  /** Why, in a few words, for the person reading the plan. */
  why: string;
}

/** How the plugin starts Cairn (launch.ts): `node bin --state-dir <dir> openclaw-bridge`, and the plugin folder. */
export interface CairnLaunch {
  node: string;
  bin: string;
  /** Extra variables it needs (an unpackaged Electron runs as Node only with ELECTRON_RUN_AS_NODE). */
  env: Record<string, string>;
  /** The folder holding openclaw.plugin.json; default: `openclaw-plugin/` beside bin/. */
  pluginDir?: string;
  /** Copy the plugin from here to `pluginDir` when connecting (an AppImage's files vanish when it quits). */
  copyPluginFrom?: string;
}

/** The plugin's `plugins.entries.cairn.config`. */
export interface PluginConfig {
  stateDir: string;
  dataDir: string;
  node: string;
  bin: string;
  env?: Record<string, string>;
  recallBudgetMs: number;
  startupBudgetMs: number;
  recallTokens: number;
  minScore: number;
  maxHits: number;
}

/** The plugin folder of a launch. */
export function pluginDirOf(launch: CairnLaunch): string {
  return launch.pluginDir ?? path.join(path.dirname(path.dirname(launch.bin)), 'openclaw-plugin');
}

/**
 * The plugin's config. OpenClaw puts its own Node first on PATH, so the absolute path of the
 * Node running Cairn now; Cairn's data dir resolved (the plugin's child inherits OpenClaw's
 * environment, which need not name it); API keys Cairn may need as OpenClaw `${VAR}`
 * substitutions, never as values.
 */
export function pluginConfig(stateDir: string, launch: CairnLaunch, env: NodeJS.ProcessEnv): PluginConfig {
  const vars: Record<string, string> = { ...launch.env };
  if (env.XDG_STATE_HOME) vars.XDG_STATE_HOME = env.XDG_STATE_HOME;
  for (const k of KEY_VARS) if (env[k]) vars[k] = `\${${k}}`;
  return {
    stateDir: path.resolve(stateDir),
    dataDir: cairnDataDir(env),
    node: launch.node,
    bin: launch.bin,
    ...(Object.keys(vars).length ? { env: vars } : {}),
    ...PLUGIN_DEFAULTS,
  };
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

/** Whether `dir` holds a plugin whose manifest id is Cairn's. */
export function isCairnPluginDir(dir: string): boolean {
  try {
    return (JSON.parse(fs.readFileSync(path.join(dir, 'openclaw.plugin.json'), 'utf8')) as { id?: unknown }).id === PLUGIN_ID;
  } catch {
    return false;
  }
}

/** Whether `config` carries the old connect's set-up: Cairn's MCP server entry running `cairn mcp`. */
export function isOldStyle(config: unknown): boolean {
  const server = getPath(config, ['mcp', 'servers', CAIRN_SERVER]);
  return isRecord(server) && Array.isArray(server.args) && server.args.includes('mcp');
}

/** The edits that take the old connect's set-up away (none when there is none). */
export function migrationEdits(config: unknown): ConfigEdit[] {
  if (!isOldStyle(config)) return [];
  const edits: ConfigEdit[] = [];
  const servers = getPath(config, ['mcp', 'servers']);
  if (isRecord(servers) && Object.keys(servers).length === 1) {
    const mcp = getPath(config, ['mcp']);
    edits.push(isRecord(mcp) && Object.keys(mcp).length === 1 ? { path: ['mcp'], remove: true, why: "Cairn's MCP server entry (the plugin replaces it)" } : { path: ['mcp', 'servers'], remove: true, why: "Cairn's MCP server entry (the plugin replaces it)" });
  } else edits.push({ path: ['mcp', 'servers', CAIRN_SERVER], remove: true, why: "Cairn's MCP server entry (the plugin replaces it)" });
  const deny = getPath(config, ['tools', 'deny']);
  if (Array.isArray(deny) && BUILTIN_MEMORY_TOOLS.some((t) => deny.includes(t))) {
    const rest = deny.filter((d) => !(BUILTIN_MEMORY_TOOLS as readonly unknown[]).includes(d));
    edits.push(rest.length ? { path: ['tools', 'deny'], value: rest, why: "give OpenClaw's memory_search/memory_get back" } : { path: ['tools', 'deny'], remove: true, why: "give OpenClaw's memory_search/memory_get back" });
  }
  if (getPath(config, ['tools', 'toolSearch']) === false) edits.push({ path: ['tools', 'toolSearch'], remove: true, why: "give OpenClaw's tool search back (the old connect turned it off)" });
  return edits;
}

/**
 * The edits that connect `config` (openclaw.json, parsed) to Cairn through the plugin; empty
 * when it already is. Existing lists are extended, never replaced; budgets the user changed
 * in the plugin's config are kept.
 */
export function connectEdits(config: unknown, launch: CairnLaunch, want: PluginConfig): ConfigEdit[] {
  const edits: ConfigEdit[] = [];
  const dir = pluginDirOf(launch);
  const pathsKey = ['plugins', 'load', 'paths'];
  const paths = getPath(config, pathsKey);
  const list = Array.isArray(paths) ? paths : [];
  // Another copy of Cairn's plugin (an older install) would load a second plugin "cairn".
  const kept = list.filter((p) => p === dir || typeof p !== 'string' || !isCairnPluginDir(p));
  if (!kept.includes(dir) || kept.length !== list.length) edits.push({ path: pathsKey, value: [...kept.filter((p) => p !== dir), dir], why: "load Cairn's plugin from its folder" });
  const entryKey = ['plugins', 'entries', PLUGIN_ID];
  const entry = getPath(config, entryKey);
  const current = isRecord(entry) ? entry : {};
  const oldCfg = isRecord(current.config) ? current.config : {};
  const budgets = Object.fromEntries(Object.entries(PLUGIN_DEFAULTS).map(([k, v]) => [k, oldCfg[k] ?? v]));
  const { env: wantEnv, ...wantRest } = want;
  const cfg = { ...oldCfg, ...wantRest, ...budgets, ...(wantEnv ? { env: wantEnv } : {}) };
  if (!wantEnv) delete cfg.env;
  const hooks = isRecord(current.hooks) ? current.hooks : {};
  const next = { ...current, enabled: true, hooks: { ...hooks, allowConversationAccess: true }, config: cfg };
  delete (next.hooks as Record<string, unknown>).allowPromptInjection;
  if (!sameJson(entry, next)) edits.push({ path: entryKey, value: next, why: 'enable the plugin, let it add recall to prompts, tell it how to start Cairn' });
  const allow = getPath(config, ['plugins', 'allow']);
  // An allowlist, when the user keeps one, must name the plugin; none is created (it is exclusive).
  if (Array.isArray(allow) && !allow.includes(PLUGIN_ID)) edits.push({ path: ['plugins', 'allow'], value: [...allow, PLUGIN_ID], why: 'your plugins.allow list must name the plugin' });
  return [...edits, ...migrationEdits(config)];
}

/**
 * What is missing for the agent's prompts to get Cairn's recall, judged by what matters
 * rather than byte-equality with this Cairn's set-up (another Cairn install is just as
 * connected): the plugin loaded from a folder that holds it, enabled, allowed conversation
 * access, with an existing Node; and none of the old connect's set-up left. Empty when connected.
 */
export function connectionProblems(config: unknown): string[] {
  const problems: string[] = [];
  if (isOldStyle(config)) problems.push("connected the old way (Cairn's MCP server with OpenClaw's memory_search/memory_get denied): run connect again to switch to Cairn's plugin, which keeps them on");
  const paths = getPath(config, ['plugins', 'load', 'paths']);
  const dirs = (Array.isArray(paths) ? paths : []).filter((p): p is string => typeof p === 'string' && isCairnPluginDir(p));
  if (dirs.length === 0) problems.push("Cairn's plugin is not in plugins.load.paths");
  const entry = getPath(config, ['plugins', 'entries', PLUGIN_ID]);
  if (!isRecord(entry)) problems.push(`no plugins.entries.${PLUGIN_ID} entry`);
  else {
    if (entry.enabled === false) problems.push(`plugins.entries.${PLUGIN_ID} is disabled`);
    if (getPath(entry, ['hooks', 'allowConversationAccess']) !== true) problems.push(`plugins.entries.${PLUGIN_ID}.hooks.allowConversationAccess is not true (the plugin cannot add recall to prompts)`);
    if (getPath(entry, ['hooks', 'allowPromptInjection']) === false) problems.push(`plugins.entries.${PLUGIN_ID}.hooks.allowPromptInjection is false`);
    const node = getPath(entry, ['config', 'node']);
    const bin = getPath(entry, ['config', 'bin']);
    if (typeof node !== 'string' || !path.isAbsolute(node)) problems.push(`plugins.entries.${PLUGIN_ID}.config.node is not an absolute path to a Node (OpenClaw's own Node comes first on PATH)`);
    else if (!fs.existsSync(node)) problems.push(`plugins.entries.${PLUGIN_ID}.config.node ${node} does not exist`);
    if (typeof bin !== 'string' || !fs.existsSync(bin)) problems.push(`plugins.entries.${PLUGIN_ID}.config.bin ${String(bin)} does not exist`);
  }
  const deny = getPath(config, ['plugins', 'deny']);
  if (Array.isArray(deny) && deny.includes(PLUGIN_ID)) problems.push(`plugins.deny names ${PLUGIN_ID}`);
  const allow = getPath(config, ['plugins', 'allow']);
  if (Array.isArray(allow) && !allow.includes(PLUGIN_ID)) problems.push(`plugins.allow does not name ${PLUGIN_ID}`);
  if (getPath(config, ['plugins', 'enabled']) === false) problems.push('plugins.enabled is false (every plugin is off)');
  return problems;
}
