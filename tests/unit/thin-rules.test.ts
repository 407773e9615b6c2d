/**
 * `cairn search`'s thin client takes its rules from the engine's TypeScript (issue 29 item 6):
 * which folder holds a state dir's Cairn files, the process start time, the record's checks.
 * The JavaScript copy it had drifted: it took any `cairn/state.json` for a dir Cairn created,
 * where the engine reads the marker's `createdBy`, so the engine of a foreign dir whose marker
 * says "external" (left by an older Cairn) was never found. A real `cairn serve` and real
 * `cairn search` processes; and bin/thin-client.mjs holds no rule of its own.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stateHome } from '../../electron/engine/config/state-home';
import { ENGINE_RECORD_FILE } from '../../electron/server/engine-discovery';
import { CAIRN_BIN, runCairn } from '../helpers/cli';
import { childLines } from '../helpers/child-lines';
import { tmpDir, writeTree } from '../helpers/tmp';

const VIA_ENGINE = /by the running engine, pid \d+/;
const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

describe("the thin client's rules are the engine's", () => {
  it('finds the engine of a foreign dir whose marker says "external", where the engine keeps its record', { timeout: 180_000 }, async () => {
    const dir = fs.realpathSync(
      writeTree(tmpDir('cairn-thin-marker-'), {
        'openclaw.json': '{}',
        'cairn/state.json': JSON.stringify({ createdBy: 'external', writable: false, createdAt: '' }),
        'workspace/memory/2024-05-08.md': '# Deploy\n\nDeployed the router firmware a1b2c3d.\n',
      }),
    );
    const child = spawn(process.execPath, [CAIRN_BIN, '--state-dir', dir, 'serve'], { stdio: ['pipe', 'pipe', 'pipe'] });
    children.push(child);
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(await childLines(child, 'cairn serve')()).toMatch(/^Cairn is serving /);
    // The engine's rule: a foreign dir, its record in the data dir, nothing in <state>/cairn.
    const home = stateHome(dir);
    expect(home.createdBy).toBe('external');
    expect(fs.existsSync(path.join(home.cairnDir, ENGINE_RECORD_FILE))).toBe(true);
    expect(fs.existsSync(path.join(dir, 'cairn', ENGINE_RECORD_FILE))).toBe(false);

    const thin = await runCairn(['search', 'router firmware', '--state-dir', dir]);
    expect(thin.code).toBe(0);
    expect(thin.stderr).toMatch(VIA_ENGINE);
    expect(thin.stdout).toMatch(/^1\. memory\/2024-05-08\.md/);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });

  it('bin/thin-client.mjs copies none of the rules (no /proc reading, no data-dir key, no record name)', () => {
    const js = fs.readFileSync(path.resolve(__dirname, '..', '..', 'bin', 'thin-client.mjs'), 'utf8').replace(/^\s*\/\/.*$/gm, '');
    for (const copy of ['/proc/', 'sha256', 'createHash', ENGINE_RECORD_FILE, 'state.json', 'XDG_STATE_HOME', 'CAIRN_DATA_DIR', 'CAIRN_STATE_DIR']) {
      expect([copy, js.includes(copy)]).toEqual([copy, false]);
    }
  });
});
