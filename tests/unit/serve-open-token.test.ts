/**
 * `cairn serve --open` (what `npm start` falls back to without Electron) never puts the serve
 * token on the browser's command line (issue 29 item 3): any local user reads
 * /proc/<pid>/cmdline. A real `cairn serve` child starts a stand-in browser ($CAIRN_BROWSER)
 * that records its argv; the token is in neither its argv nor its /proc cmdline, the page it
 * is given is private (0600 in a 0700 folder) and still leads to the UI with the token, and it
 * is removed when the server stops. No timers: the stand-in reports through a FIFO.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mcpLogLine } from '../../electron/cli/mcp/http';
import { openPageHtml } from '../../electron/server/open-page';
import { CAIRN_BIN } from '../helpers/cli';
import { tmpDir, writeTree } from '../helpers/tmp';

const mode = (p: string) => fs.statSync(p).mode & 0o777;

/** The URL a page made by open-page.ts forwards to (its meta refresh). */
function forwardOf(html: string): string {
  const m = /http-equiv="refresh" content="0;url=([^"]+)"/.exec(html);
  if (!m?.[1]) throw new Error(`no refresh in ${html}`);
  return m[1].replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));
}

describe('cairn serve --open keeps the token off the command line', () => {
  it('gives the browser a private page that forwards to the UI; the token is in no argv', { timeout: 60_000 }, async () => {
    const bin = tmpDir('cairn-fake-browser-');
    const fifo = path.join(bin, 'started');
    const argvFile = path.join(bin, 'argv');
    execFileSync('mkfifo', [fifo]);
    // The stand-in browser: writes each argument on a line, says its pid, stays open like a window.
    const browser = path.join(bin, 'fake-browser');
    fs.writeFileSync(browser, `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a"; done > '${argvFile}'\necho $$ > '${fifo}'\nexec sleep 600\n`, { mode: 0o755 });
    const dataDir = path.join(tmpDir('cairn-open-data-'), 'data');
    const stateDir = writeTree(tmpDir(), { 'cairn/state.json': '{}' });
    const serve = spawn(process.execPath, [CAIRN_BIN, '--state-dir', stateDir, 'serve', '--open'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CAIRN_BROWSER: browser, CAIRN_DATA_DIR: dataDir, DISPLAY: ':0' },
    });
    const exited = new Promise<number | null>((resolve) => serve.once('exit', (code) => resolve(code)));
    let out = '';
    serve.stdout.on('data', (b: Buffer) => (out += b.toString()));
    const pid = Number((await fs.promises.readFile(fifo, 'utf8')).trim());
    const token = fs.readFileSync(path.join(stateDir, 'cairn', 'serve-token'), 'utf8').trim();
    expect(token).toMatch(/^[\w-]{32,}$/);

    const argv = fs.readFileSync(argvFile, 'utf8').split('\n').filter(Boolean);
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    expect(argv.join(' ')).not.toContain(token);
    expect(cmdline).not.toContain(token);
    // Chromium needs --no-sandbox as root, and only then is it given.
    expect(argv.includes('--no-sandbox')).toBe(process.getuid?.() === 0);

    const app = argv.find((a) => a.startsWith('--app='))?.slice('--app='.length) ?? '';
    expect(app).toMatch(/^file:\/\//);
    const page = fileURLToPath(app);
    expect(path.dirname(page)).toBe(path.join(dataDir, 'open'));
    expect(mode(page)).toBe(0o600);
    expect(mode(path.dirname(page))).toBe(0o700);

    // The page leads to the UI, and the token it carries becomes the session cookie.
    const target = forwardOf(fs.readFileSync(page, 'utf8'));
    expect(target).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/\\?token=${token}$`));
    const ui = await fetch(target);
    expect(ui.status).toBe(200);
    expect(await ui.text()).toContain('<div id="root"></div>');
    const cookie = (ui.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(cookie).toBe(`cairn_token=${token}`);
    const origin = new URL(target).origin;
    const status = await fetch(`${origin}/api/call/config.get`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ request: {} }) });
    expect(((await status.json()) as { ok: boolean }).ok).toBe(true);

    serve.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(out).toMatch(/opened in fake-browser \(app mode\)/);
    // The page goes with the server.
    expect(fs.existsSync(page)).toBe(false);
  });

  it('a folder for the open page that others can enter is narrowed to 0700, and stale pages are swept', async () => {
    const { writeOpenPage } = await import('../../electron/server/open-page');
    const dataDir = tmpDir('cairn-open-data-');
    fs.mkdirSync(path.join(dataDir, 'open'), { mode: 0o755 });
    fs.chmodSync(path.join(dataDir, 'open'), 0o755);
    // A page left by a server that was killed (its pid is gone) goes with the next one written.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid as number;
    const stale = path.join(dataDir, 'open', `serve-${dead}-0badf00d.html`);
    fs.writeFileSync(stale, 'old', { mode: 0o600 });
    const p = writeOpenPage('http://127.0.0.1:1/?token=abc', { CAIRN_DATA_DIR: dataDir });
    expect(fs.existsSync(stale)).toBe(false);
    expect(mode(path.join(dataDir, 'open'))).toBe(0o700);
    expect(mode(p.file)).toBe(0o600);
    p.remove();
    expect(fs.existsSync(p.file)).toBe(false);
  });

  it('the page escapes what it forwards to', () => {
    const html = openPageHtml('http://127.0.0.1:1/?token=a"b</script><x>');
    expect(html).not.toContain('</script><x>');
    expect(forwardOf(html)).toBe('http://127.0.0.1:1/?token=a"b</script><x>');
  });

  it("the desktop app's MCP log line has no token and names the private file that holds it", () => {
    const line = mcpLogLine('http://127.0.0.1:4321/mcp?token=s3cr3ttokenvalue', '/home/u/.cairn/cairn/serve-token');
    expect(line).not.toContain('s3cr3ttokenvalue');
    expect(line).toContain('http://127.0.0.1:4321/mcp');
    expect(line).toContain('/home/u/.cairn/cairn/serve-token');
  });
});
