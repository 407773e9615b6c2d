/**
 * The serve token file (issue 14.3): the same token across restarts of `cairn serve` on one
 * state dir, a file only the user can read, a fresh token when the file is readable by others
 * or damaged, and nothing written into a state dir Cairn did not create.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadOrCreateToken, tokenFilePath } from '../../electron/server/token-file';
import { tmpDir } from '../helpers/tmp';

const posix = process.platform !== 'win32';

describe('serve token file', () => {
  it('keeps one private token per state dir across restarts', () => {
    const state = tmpDir();
    const file = tokenFilePath(state, 'cairn');
    expect(file).toBe(path.join(state, 'cairn', 'serve-token'));
    const first = loadOrCreateToken(file);
    expect(first).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(loadOrCreateToken(file)).toBe(first);
    if (posix) expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    // Another state dir gets another token.
    expect(loadOrCreateToken(tokenFilePath(tmpDir(), 'cairn'))).not.toBe(first);
  });

  it.runIf(posix)('replaces a token others can read, and a damaged file', () => {
    const file = tokenFilePath(tmpDir(), 'cairn');
    const first = loadOrCreateToken(file);
    fs.chmodSync(file, 0o644);
    const second = loadOrCreateToken(file);
    expect(second).not.toBe(first);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    fs.writeFileSync(file, 'not a token\n', { mode: 0o600 });
    const third = loadOrCreateToken(file);
    expect(third).not.toBe('not a token');
    expect(loadOrCreateToken(file)).toBe(third);
  });

  it('puts a foreign state dir’s token in the user state folder, not in the dir', () => {
    const foreign = tmpDir();
    const home = tmpDir();
    const file = tokenFilePath(foreign, 'external', { XDG_STATE_HOME: home });
    expect(file.startsWith(path.join(home, 'cairn', 'state-dirs'))).toBe(true);
    loadOrCreateToken(file);
    expect(fs.readdirSync(foreign)).toEqual([]);
    expect(tokenFilePath(foreign, 'external', { XDG_STATE_HOME: home })).toBe(file);
  });
});
