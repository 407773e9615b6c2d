/**
 * A rebuild's resume cache that cannot be used (its side file is not a database) is given up
 * without keeping the file open: the rebuild runs without resuming, and no descriptor of the
 * file is left behind. Before, the handle opened before the failing pragma was never closed
 * (a descriptor leaked per rebuild; on Windows the file could not be deleted either).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openResumeCache, resumeCacheFile } from '../../electron/engine/index/resume-cache';
import { tmpDir } from '../helpers/tmp';

/** Descriptors of this process open on `file` (Linux: /proc/self/fd). */
function openDescriptors(file: string): number {
  let n = 0;
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      if (fs.readlinkSync(path.join('/proc/self/fd', fd)) === file) n++;
    } catch {
      // closed while listing (the readdir's own descriptor)
    }
  }
  return n;
}

describe('resume cache', () => {
  it.skipIf(!fs.existsSync('/proc/self/fd'))('a side file that is not a database is given up and closed', () => {
    const indexFile = path.join(fs.realpathSync(tmpDir()), 'main.sqlite');
    const side = resumeCacheFile(indexFile);
    fs.writeFileSync(side, 'this is not a SQLite database, just text long enough to have a header '.repeat(4));
    expect(openResumeCache(indexFile, 'openai')).toBeNull();
    expect(openDescriptors(side)).toBe(0);
    // A usable one opens, and closes.
    fs.rmSync(side);
    const cache = openResumeCache(indexFile, 'openai');
    expect(cache).not.toBeNull();
    expect(openDescriptors(side)).toBe(1);
    cache!.close();
    expect(openDescriptors(side)).toBe(0);
  });
});
