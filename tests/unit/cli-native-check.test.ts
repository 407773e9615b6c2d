/**
 * `cairn` under a Node other than the one its native module was built for (an MCP client
 * that runs `"command": "node"` and finds a newer Node first on PATH) exits 1 at once, before
 * serving anything, naming the Node that built the module, the Node running, and the fix —
 * instead of listing its tools and failing at the first search. The other Node is the
 * Node 22 that scripts/fetch-test-conformance.mjs brings from npm.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CAIRN_BIN, runProcess } from '../helpers/cli';
import { conformance } from '../helpers/conformance';
import { tmpDir, writeTree } from '../helpers/tmp';

const other = conformance().node;
const differs = other !== null && other !== process.execPath;
const skip = differs ? '' : conformance().skip || ' (skipped: no second Node with another ABI)';

const run = (node: string, args: string[]) => runProcess(node, [CAIRN_BIN, ...args], { input: null });

describe.skipIf(!differs)(`cairn under a Node its native module was not built for${skip}`, () => {
  it('`cairn mcp` and `cairn search` exit 1 at once with the Node that built it, the Node running, and the fix', async () => {
    const dir = writeTree(tmpDir('cairn-native-'), { 'cairn.json': '{}', 'workspace/MEMORY.md': '# M\n\nkestrel\n' });
    const major = process.versions.node.split('.')[0];
    for (const args of [['mcp', '--state-dir', dir], ['search', 'kestrel', '--state-dir', dir]]) {
      const r = await run(other ?? '', args);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`better-sqlite3 was built for Node ${major} (NODE_MODULE_VERSION ${process.versions.modules})`);
      expect(r.stderr).toContain(`at ${fs.realpathSync(other ?? '')}`);
      expect(r.stderr).toMatch(/absolute path/);
      expect(r.stderr).toContain('npm rebuild better-sqlite3');
    }
    // The Node that built it runs the same command as before.
    const ok = await run(process.execPath, ['search', 'kestrel', '--state-dir', dir, '--json']);
    expect(ok.stderr).not.toContain('NODE_MODULE_VERSION');
  });
});
