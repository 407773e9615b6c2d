// Does Cairn's native module load under the Node running `cairn`? Run by bin/cairn.mjs before
// any command, so a Node other than the one that installed Cairn (an MCP client that starts
// `"command": "node"` and finds a newer Node first on PATH) fails at once with what to do —
// not at the first search, deep inside the index, while the client already lists the tools.
// Cheap: the ABI the addon loaded under is recorded beside it (node_modules/.cache, keyed by
// the addon file's size and mtime), so a start under that same ABI costs one stat and one
// small read; only a new ABI or a rebuilt addon loads it (~2–25 ms, from the path its own
// loader uses, so a command that opens SQLite then finds it in require's cache).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

/** Node's ABI number (`process.versions.modules`) → the Node major that has it. */
const NODE_OF_ABI = { 108: 18, 115: 20, 120: 21, 127: 22, 131: 23, 137: 24, 141: 25 };

const nodeName = (abi) => (NODE_OF_ABI[abi] ? `Node ${NODE_OF_ABI[abi]}` : 'another Node');

/**
 * Undefined when better-sqlite3 loads (or is not where Cairn installs it: the normal path
 * then reports), else the message to print: which Node built it, which runs, and the fix.
 */
export function nativeModuleProblem(root) {
  // Where `npm install` puts it (bindings' build/Release); resolved no further on the hot path.
  const addon = path.join(root, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
  let st;
  try {
    st = fs.statSync(addon);
  } catch {
    return undefined;
  }
  const record = path.join(root, 'node_modules', '.cache', 'cairn-native-abi.json');
  const key = `${addon}|${st.size}|${st.mtimeMs}`;
  try {
    const known = JSON.parse(fs.readFileSync(record, 'utf8'));
    if (known.key === key && known.abi === process.versions.modules) return undefined;
  } catch {
    // no record yet (or unreadable): load it once to know
  }
  try {
    createRequire(path.join(root, 'package.json'))(addon);
  } catch (err) {
    const msg = String(err?.message ?? err);
    const built = /compiled against a different Node\.js version using\s+NODE_MODULE_VERSION (\d+)/.exec(msg)?.[1];
    const here = `Node ${process.version} (NODE_MODULE_VERSION ${process.versions.modules}) at ${process.execPath}`;
    const fix =
      `  Fix: run Cairn with the Node that installed it — in an MCP client's config, "command" must be that Node's absolute path, not "node" —\n` +
      `  or rebuild the module for this Node: cd ${JSON.stringify(root)} && npm rebuild better-sqlite3`;
    if (built) return `cairn: the native module better-sqlite3 was built for ${nodeName(Number(built))} (NODE_MODULE_VERSION ${built}), but this is ${here}.\n${fix}`;
    return `cairn: the native module better-sqlite3 (${addon}) does not load under ${here}: ${msg.split('\n')[0]}\n${fix}`;
  }
  try {
    const tmp = `${record}.${process.pid}.tmp`;
    fs.mkdirSync(path.dirname(record), { recursive: true });
    fs.writeFileSync(tmp, JSON.stringify({ key, abi: process.versions.modules }));
    fs.renameSync(tmp, record);
  } catch {
    // a read-only install: check by loading each time
  }
  return undefined;
}
