/**
 * `cairn serve --open` (what `npm start` / `npm run demo` fall back to without Electron)
 * closes the Chromium window it opened when it stops (issue 14 item 13: the window stayed
 * open after the demo stopped). A real `cairn serve` child with a stand-in "chromium" on
 * PATH that reports its pid through a FIFO and then waits; no timers.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CAIRN_BIN } from '../helpers/cli';
import { tmpDir, writeTree } from '../helpers/tmp';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('cairn serve --open', () => {
  it('closes the browser window it opened when the server stops', { timeout: 60_000 }, async () => {
    const bin = tmpDir('cairn-fake-chromium-');
    const fifo = path.join(bin, 'started');
    execFileSync('mkfifo', [fifo]);
    // The stand-in browser: says its pid and its --app URL, then stays open like a window.
    fs.writeFileSync(path.join(bin, 'chromium'), `#!/bin/sh\nfor a in "$@"; do case "$a" in --app=*) url="$a";; esac; done\necho "$$ $url" > '${fifo}'\nexec sleep 600\n`, { mode: 0o755 });
    const stateDir = writeTree(tmpDir(), { 'cairn/state.json': '{}' });
    const serve = spawn(process.execPath, [CAIRN_BIN, '--state-dir', stateDir, 'serve', '--open'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, DISPLAY: ':0' },
    });
    const exited = new Promise<number | null>((resolve) => serve.once('exit', (code) => resolve(code)));
    let out = '';
    serve.stdout.on('data', (b: Buffer) => (out += b.toString()));
    // Blocks until the stand-in browser has started and written to the FIFO.
    const [pidText, url] = (await fs.promises.readFile(fifo, 'utf8')).trim().split(' ');
    const pid = Number(pidText);
    expect(url).toMatch(/^--app=file:\/\//);
    expect(alive(pid)).toBe(true);

    serve.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(out).toMatch(/opened in chromium \(app mode\)/);
    // The server waited for the browser to exit before it did.
    expect(alive(pid)).toBe(false);
  });
});
