/**
 * What `connect --undo` writes when openclaw.json is no longer byte-equal to what Cairn's
 * first connect left (a hand edit since, `openclaw config set`, a second connect after the
 * user switched the plugin off): Cairn's own settings are put back as they were in the copy
 * saved before that first connect, key by key, and every other edit made since is kept.
 * Cairn's settings are the keys a connect writes or removes (plan.ts): the plugin's entry,
 * its folder in `plugins.load.paths`, its name in `plugins.allow`, and for a dir that was
 * connected the old way the MCP server, the memory tools in `tools.deny` and `tools.toolSearch`.
 * Objects that only Cairn's keys filled and that the original did not have go too.
 */
import { deleteJson5Path, setJson5Path } from './json5-edit';
import { BUILTIN_MEMORY_TOOLS, CAIRN_SERVER, getPath, isCairnPluginDir, PLUGIN_ID, type ConfigEdit } from './plan';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Set `keys` to the original's value, or remove it when the original had none; no edit when already so. */
function back(current: unknown, original: unknown, keys: string[], why: string): ConfigEdit[] {
  const was = getPath(original, keys);
  const now = getPath(current, keys);
  if (same(was, now)) return [];
  return was === undefined ? [{ path: keys, remove: true, why }] : [{ path: keys, value: was, why }];
}

/** A list setting with `isCairns` items taken out and the original's such items put back. */
function backList(current: unknown, original: unknown, keys: string[], isCairns: (v: unknown) => boolean, why: string): ConfigEdit[] {
  const now = getPath(current, keys);
  const was = getPath(original, keys);
  if (!Array.isArray(now)) return [];
  const wasList = Array.isArray(was) ? was : [];
  const theirs = now.filter((v) => !isCairns(v));
  // The user's own items unchanged since: the original list as it was, order and all.
  const next = same(theirs, wasList.filter((v) => !isCairns(v))) ? wasList : [...theirs, ...wasList.filter(isCairns)];
  if (same(next, now)) return [];
  return next.length === 0 && was === undefined ? [{ path: keys, remove: true, why }] : [{ path: keys, value: next, why }];
}

/** Parents that Cairn's keys alone filled: removed when now empty and absent from the original. */
const PARENTS = [
  ['plugins', 'entries'],
  ['plugins', 'load'],
  ['plugins'],
  ['mcp', 'servers'],
  ['mcp'],
  ['tools'],
];

/**
 * The edits that take Cairn's settings out of `current` (openclaw.json now, parsed), back to
 * how `original` (the copy from before the first connect, parsed) had them. `pluginDir`s:
 * folders that held Cairn's plugin (a folder since removed is still recognised by path).
 */
export function undoEdits(current: unknown, original: unknown, pluginDirs: readonly string[]): ConfigEdit[] {
  const cairnDir = (v: unknown): boolean => typeof v === 'string' && (pluginDirs.includes(v) || isCairnPluginDir(v));
  return [
    ...back(current, original, ['plugins', 'entries', PLUGIN_ID], "Cairn's plugin entry"),
    ...backList(current, original, ['plugins', 'load', 'paths'], cairnDir, "Cairn's plugin folder"),
    ...backList(current, original, ['plugins', 'allow'], (v) => v === PLUGIN_ID, "Cairn's name in your allowlist"),
    ...back(current, original, ['mcp', 'servers', CAIRN_SERVER], "the old connect's MCP server"),
    ...backList(current, original, ['tools', 'deny'], (v) => (BUILTIN_MEMORY_TOOLS as readonly unknown[]).includes(v), 'the memory tools the old connect denied'),
    ...back(current, original, ['tools', 'toolSearch'], 'the tool-search switch the old connect set'),
  ];
}

/** `text` with `edits` applied and then the parents they left empty (and the original lacked) removed. */
export function applyUndo(text: string, edits: readonly ConfigEdit[], original: unknown, parse: (t: string) => unknown): string {
  let out = edits.reduce((t, e) => (e.remove ? deleteJson5Path(t, e.path) : setJson5Path(t, e.path, e.value)), text);
  for (const keys of PARENTS) {
    const v = getPath(parse(out), keys);
    if (isRecord(v) && Object.keys(v).length === 0 && getPath(original, keys) === undefined) out = deleteJson5Path(out, keys);
  }
  return out;
}

/**
 * `text` without Cairn's plugin settings (its entry, its folder in `plugins.load.paths`, its
 * name in `plugins.allow`): what to keep as "the file before Cairn" when connect finds them
 * already there and holds no copy from before (connected by another Cairn, or its data dir is
 * gone) — so that undo never restores a connected file as the original.
 */
export function withoutPlugin(text: string, config: unknown, pluginDirs: readonly string[], parse: (t: string) => unknown): string {
  const edits = undoEdits(config, {}, pluginDirs).filter((e) => e.path[0] === 'plugins');
  return edits.length ? applyUndo(text, edits, {}, parse) : text;
}
