/**
 * vitest setup (both projects): Cairn's per-user data dir — where it keeps its own files for
 * a state dir it did not create — points into the temp space for every test, so no test
 * writes into the real ~/.local/state/cairn. A test that wants its own (for a child process
 * with its own HOME, say) sets CAIRN_DATA_DIR in that child's env.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

if (!process.env.CAIRN_DATA_DIR) process.env.CAIRN_DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-test-data-'));
