/**
 * One unreadable memory file (chmod 000) must not stop indexing: it is skipped and
 * reported (`cairn index` summary and --json, index status), the rest is indexed, and notes
 * added later are still found. Root ignores file permissions, so when the tests run as
 * root the real `cairn` runs under setpriv without the capabilities that override file
 * modes (dac_override, dac_read_search), for which chmod 000 really is EACCES; the checkout
 * may sit under a folder other users cannot enter, so it does not switch users.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CAIRN_BIN, runProcess, type CliResult } from '../helpers/cli';
import { tmpDir, writeTree } from '../helpers/tmp';

const asRoot = process.getuid?.() === 0;
/** Runs a command with the file-permission override capabilities dropped (root only). */
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => fs.existsSync(p));

/** Run the real executable; as root, without the capabilities that ignore file modes. */
function cairnAsUser(args: string[], dir: string): Promise<CliResult> {
  const argv = [process.execPath, CAIRN_BIN, ...args];
  const [cmd, ...rest] = asRoot && SETPRIV ? [SETPRIV, '--bounding-set=-dac_override,-dac_read_search', '--', ...argv] : argv;
  return runProcess(cmd as string, rest, { env: { HOME: dir, CAIRN_DATA_DIR: path.join(dir, '.cairn-data') } });
}

/** A state dir with one note that cannot be read. */
function stateDir(): string {
  const root = tmpDir();
  const dir = path.join(root, 'state');
  writeTree(dir, {
    'cairn.json': JSON.stringify({ agents: { defaults: { memorySearch: { provider: 'none' } } } }),
    'workspace/MEMORY.md': '# Long-term\n\nPrefers dark mode.\n',
    'workspace/memory/2025-03-01.md': '# Deploy\n\nDeployed commit a1b2c3d to staging.\n',
    'workspace/memory/secret.md': '# Secret\n\nThe vault code is 7431.\n',
  });
  fs.chmodSync(path.join(dir, 'workspace/memory/secret.md'), 0o000);
  return dir;
}

describe('indexing with an unreadable memory file', () => {
  it.skipIf(os.platform() === 'win32' || (asRoot && !SETPRIV && !process.env.CI))('skips and reports it, indexes the rest, and still finds notes added later', async () => {
    const dir = stateDir();
    const first = await cairnAsUser(['index', '--json', '--state-dir', dir], dir);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const j = JSON.parse(first.stdout) as { files: number; unreadable: { path: string; reason: string }[] };
    expect(j.files).toBe(2);
    expect(j.unreadable).toEqual([{ path: 'memory/secret.md', reason: 'EACCES: permission denied' }]);

    fs.writeFileSync(path.join(dir, 'workspace/memory/2025-03-02.md'), '# Later\n\nThe new server listens on port 8787.\n');
    const second = await cairnAsUser(['index', '--state-dir', dir], dir);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/synced 3 files/);
    expect(second.stderr).toContain('warning: memory/secret.md could not be read and was skipped (EACCES: permission denied)');

    const found = await cairnAsUser(['search', 'port 8787', '--json', '--state-dir', dir], dir);
    expect(found.code).toBe(0);
    expect(found.stdout).toContain('memory/2025-03-02.md');
  }, 120_000);
});
