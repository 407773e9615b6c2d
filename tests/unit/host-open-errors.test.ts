/**
 * A folder the app cannot open is reported clearly: the error names the folder and the cause
 * in words, with the code of the cause (a folder that is gone is `not_found`, a file picked
 * instead of a folder says so), and the folder open before keeps serving. Before, every
 * failure was `bad_request` with Node's raw message ("ENOTDIR: not a directory, scandir …").
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngineHost } from '../../electron/engine/host';
import { tmpDir } from '../helpers/tmp';

describe('opening a folder that cannot be opened', () => {
  it('names the folder and the cause with its own code, and keeps the open folder serving', async () => {
    const root = tmpDir();
    const first = path.join(root, 'first');
    const host = createEngineHost({ stateDir: first, background: false });
    try {
      const gone = path.join(root, 'gone');
      await expect(host.switchTo(gone)).rejects.toMatchObject({
        code: 'not_found',
        message: `Cairn cannot open the folder ${gone}: it does not exist (it may have been moved or deleted).`,
      });
      const file = path.join(root, 'notes.txt');
      fs.writeFileSync(file, 'not a folder');
      const err = (await host.switchTo(file).then(() => undefined, (e: unknown) => e)) as { code: string; message: string };
      expect(err).toMatchObject({ code: 'not_found' });
      expect(err.message).toBe(`Cairn cannot open the folder ${file}: cannot list the folder ${file}: it is a file, not a folder (ENOTDIR)`);
      expect(host.current().ctx.stateDir).toBe(first);
    } finally {
      await host.dispose();
    }
  });
});
