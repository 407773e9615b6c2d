/**
 * scripts/fetch-test-models.mjs, the contract other tools rely on: `--json` prints exactly
 * {"chat", "embedder"} with absolute paths of files that exist; an empty cache with
 * `--no-fetch` says what to do in one line and exits non-zero.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testModel } from '../helpers/test-models';
import { tmpDir } from '../helpers/tmp';

const script = path.resolve('scripts/fetch-test-models.mjs');
const chat = testModel('chat');

describe('fetch-test-models', () => {
  it('an empty cache with --no-fetch fails with one line naming the cache and the command', () => {
    const dir = tmpDir('cairn-models-cache-');
    const r = spawnSync(process.execPath, [script, '--json', '--no-fetch'], { encoding: 'utf8', env: { ...process.env, CAIRN_TEST_MODELS_DIR: dir } });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(dir);
    expect(lines[0]).toContain('node scripts/fetch-test-models.mjs');
  });

  it.skipIf(!chat.path)(`--json prints exactly {chat, embedder, embedderSource} with absolute paths${chat.skip}`, () => {
    const r = spawnSync(process.execPath, [script, '--json', '--no-fetch'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, string | null>;
    expect(Object.keys(out)).toEqual(['chat', 'embedder', 'embedderSource']);
    expect(path.isAbsolute(out.embedderSource!)).toBe(true);
    expect(path.isAbsolute(out.chat!)).toBe(true);
    expect(fs.statSync(out.chat!).size).toBeGreaterThan(50e6);
    const head = Buffer.alloc(4);
    const fd = fs.openSync(out.chat!, 'r');
    fs.readSync(fd, head, 0, 4, 0);
    fs.closeSync(fd);
    expect(head.toString('latin1')).toBe('GGUF');
  });
});
