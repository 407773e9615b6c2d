/**
 * Cairn's window as a tab inside the real OpenClaw 2026.9.6 Control UI (issue 39): the Gateway
 * on a free loopback port with token auth, the fixture's OpenClaw dir with Cairn connected,
 * `openclaw dashboard --json` for the address, Debian's Chromium for the Control UI.
 *
 * 1. The "Memory · Cairn" tab appears; inside its frame the fixture's sessions, a compaction
 *    with its audit, MEMORY.md history and a search whose citation opens the note all show,
 *    read-only; no request of the frame carries a bearer token; "Open in OpenClaw" asks the
 *    Control UI to open the session; axe finds nothing serious in light and dark.
 * 2. The routes: the page refuses a request without the Gateway's grant, every route refuses
 *    POST/PUT/DELETE, the read API refuses a request without a page's token and a write
 *    channel, and nothing outside the routes' base paths is served (`..`, encoded slashes, a
 *    symlink out of the window's folder).
 * 3. Lifecycle: Cairn's Node missing → the tab says why and the Control UI works; the plugin
 *    disabled → no tab; enabled again and the Gateway restarted → the tab works.
 *
 * Each Gateway start costs most of a minute: the cases share Gateways in order.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axe } from '../helpers/axe';
import { launchChromium, screenshot } from '../helpers/browser';
import { CAIRN_BIN } from '../helpers/cli';
import { connectedFixture, dashboardUrl, setCairnEnabled, startGateway, writeNodeLink, type ConnectedDir, type RunningGateway } from '../helpers/openclaw-gateway';
import { realOpenClaw } from '../helpers/openclaw-real';

const openclaw = realOpenClaw();
const TOKEN = 'cairn-tab-test-token-0123456789abcdef';
const RENDERER = path.join(path.dirname(path.dirname(CAIRN_BIN)), 'dist', 'renderer');
const TAB_LABEL = 'Memory · Cairn';

/** A raw request (no URL normalisation: `..` and escapes reach the Gateway as written). */
function raw(base: string, method: string, pathAndQuery: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, method, path: pathAndQuery, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The Cairn frame of the Control UI page, once it loaded the window. */
async function cairnFrame(page: Page): Promise<Frame> {
  await page.locator('iframe.plugin-tab-embed__frame').waitFor();
  const handle = await page.locator('iframe.plugin-tab-embed__frame').elementHandle();
  const frame = await handle?.contentFrame();
  if (!frame) throw new Error('the Cairn tab has no frame');
  await frame.locator('nav.rail').waitFor();
  return frame;
}

let dir: ConnectedDir;
let gw: RunningGateway | undefined;
let browser: Browser;
let url: string;

describe.skipIf(!openclaw.command)(`The Cairn tab in the real OpenClaw 2026.9.6 Control UI${openclaw.skip}`, () => {
  const command = openclaw.command as string;
  beforeAll(async () => {
    // Not tests/helpers/tmp: that removes its dirs after each test, and the cases share this one.
    dir = await connectedFixture(fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-octab-')));
    browser = await launchChromium();
    gw = await startGateway(command, dir, TOKEN);
    url = await dashboardUrl(command, dir, gw);
  }, 300_000);
  afterAll(async () => {
    await gw?.stop();
    await browser?.close();
    if (dir) fs.rmSync(dir.root, { recursive: true, force: true });
  });

  it('shows sessions, a compaction audit, MEMORY.md history and a search with a citation that opens, read-only, with no bearer token in the frame', { timeout: 300_000 }, async () => {
    const ctx = await browser.newContext({ viewport: { width: 1400, height: 900 }, bypassCSP: true, colorScheme: 'light' });
    const page = await ctx.newPage();
    const errors: string[] = [];
    const frameRequests: { url: string; headers: Record<string, string> }[] = [];
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('request', (r) => {
      if (/\/cairn-tab(-api|-assets)?\//.test(r.url())) void r.allHeaders().then((headers) => frameRequests.push({ url: r.url(), headers }));
    });
    await page.goto(url);
    const tab = page.getByText(TAB_LABEL).first();
    await tab.waitFor();
    await tab.click();
    // The tab's own Control UI address (its slug).
    await page.waitForURL((u) => u.pathname === '/cairn');
    const frame = await cairnFrame(page);
    const frameErrors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && m.page() && frameErrors.push(m.text()));

    // Sessions: the fixture's, with the door's read-only note.
    await frame.locator('[data-session-id="s1-alpha"]').waitFor();
    for (const id of ['s2-beta', 's3-gamma', 's4-delta', 's5-anth', 's6-flush']) expect(await frame.locator(`[data-session-id="${id}"]`).count(), id).toBe(1);
    await frame.getByTestId('tab-banner').waitFor();
    expect(await frame.getByTestId('tab-banner').textContent()).toContain('Read-only in OpenClaw: edit on the Gateway host with `cairn`, or in the app.');
    // Chat, Settings and Folders write or switch folders: not behind this door.
    expect(await frame.getByRole('navigation', { name: 'Main' }).getByRole('button').allTextContents()).not.toContain(expect.stringContaining('Chat'));

    // The compaction of s1-alpha and its audit; "Compact now" names the door.
    await frame.locator('[data-session-id="s1-alpha"]').click();
    await frame.getByRole('tab', { name: 'Compaction' }).click();
    await frame.getByTestId('compaction-audit').waitFor();
    await frame.getByTestId('audit-card').first().waitFor();
    await frame.getByText('Read-only in OpenClaw', { exact: false }).first().waitFor();
    expect(await frame.getByRole('button', { name: 'Compact now' }).isDisabled()).toBe(true);
    await screenshot(page, 'openclaw-tab-compaction');

    // MEMORY.md history.
    await frame.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /Memory/ }).click();
    await frame.getByRole('navigation', { name: 'Memory views' }).getByText('MEMORY.md history').click();
    await frame.getByTestId('memory-history').waitFor();
    await frame.getByTestId('tab-read-only').waitFor();

    // A search whose citation opens the note at its lines.
    await frame.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /Search/ }).click();
    await frame.getByRole('searchbox', { name: 'Search memory' }).fill('Lisbon trip codeword');
    const first = frame.getByTestId('search-result').first();
    await first.waitFor();
    const cite = (await first.locator('.result-cite').textContent()) ?? '';
    expect(cite).toMatch(/\.md#L\d+-L\d+$/);
    await first.locator('.result-cite').click();
    await frame.getByRole('heading', { name: 'Memory' }).waitFor();
    await frame.getByText('saffron-kite').first().waitFor();
    await screenshot(page, 'openclaw-tab-search-opened');

    // No request of the frame carried a bearer token; only the page's navigation carried the grant.
    expect(frameRequests.length).toBeGreaterThan(5);
    expect(frameRequests.filter((r) => r.headers.authorization !== undefined)).toEqual([]);
    const withCookie = frameRequests.filter((r) => (r.headers.cookie ?? '').length > 0).map((r) => new URL(r.url).pathname);
    expect(new Set(withCookie)).toEqual(new Set(['/cairn-tab/']));
    expect(frameRequests.some((r) => r.url.includes(TOKEN))).toBe(false);

    // axe inside the tab, in the Control UI's light and dark themes (it posts its theme to the frame).
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await frame.locator(`html[data-theme="${scheme}"]`).waitFor();
      expect(await axe(frame as unknown as Page), scheme).toEqual([]);
    }

    // "Open in OpenClaw": the Control UI opens the session (its chat address names the key).
    await frame.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /Sessions/ }).click();
    await frame.locator('[data-session-id="s1-alpha"]').click();
    await frame.getByTestId('open-in-openclaw').click();
    await page.waitForURL((u) => decodeURIComponent(u.href).includes('s1-alpha'));
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('refuses a request without the grant, every write method, and anything outside its base paths', { timeout: 120_000 }, async () => {
    const base = (gw as RunningGateway).base;
    const bearer = { authorization: `Bearer ${TOKEN}` };
    // The page: the Gateway's auth first.
    expect((await raw(base, 'GET', '/cairn-tab/')).status).toBe(401);
    const page = await raw(base, 'GET', '/cairn-tab/', bearer);
    expect(page.status).toBe(200);
    const token = /name="cairn-tab-key" content="([^"]+)"/.exec(page.body)?.[1] ?? '';
    expect(token.length).toBeGreaterThan(20);
    for (const m of ['POST', 'PUT', 'DELETE']) {
      expect([401, 403, 405]).toContain((await raw(base, m, '/cairn-tab/', bearer)).status);
      expect((await raw(base, m, `/cairn-tab-api/sessions.list?k=${token}`)).status).toBe(405);
      expect((await raw(base, m, '/cairn-tab-assets/favicon.svg')).status).toBe(405);
    }
    // The read API: a page's token, and read channels only.
    expect((await raw(base, 'GET', '/cairn-tab-api/sessions.list?q=%7B%7D')).status).toBe(403);
    expect((await raw(base, 'GET', '/cairn-tab-api/sessions.list?k=not-a-token&q=%7B%7D')).status).toBe(403);
    const list = await raw(base, 'GET', `/cairn-tab-api/sessions.list?k=${token}&q=%7B%7D`);
    expect(list.status).toBe(200);
    expect(list.body).toContain('"s1-alpha"');
    const write = JSON.parse((await raw(base, 'GET', `/cairn-tab-api/memory.write?k=${token}&q=${encodeURIComponent(JSON.stringify({ path: 'MEMORY.md', text: 'x' }))}`)).body) as { ok: boolean; error: { code: string } };
    expect(write).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(fs.readFileSync(path.join(dir.stateDir, 'workspace', 'MEMORY.md'), 'utf8')).not.toBe('x');
    // Nothing outside the base paths: dot segments, encoded slashes and dots, a symlink out.
    const link = path.join(RENDERER, 'assets', 'cairn-tab-test-link.js');
    fs.symlinkSync(path.join(dir.stateDir, 'workspace', 'MEMORY.md'), link);
    try {
      for (const p of [
        '/cairn-tab-assets/assets/../../package.json',
        '/cairn-tab-assets/assets/..%2f..%2fpackage.json',
        '/cairn-tab-assets/assets/%2e%2e/index.html',
        '/cairn-tab-assets/index.html',
        '/cairn-tab-assets/assets/cairn-tab-test-link.js',
        '/cairn-tab-assets/..%5c..%5cpackage.json',
      ]) {
        const r = await raw(base, 'GET', p);
        expect([400, 404], p).toContain(r.status);
        expect(r.body, p).not.toContain('saffron-kite');
      }
      for (const p of ['/cairn-tab/../cairn-tab/index.html', '/cairn-tab/%2e%2e/openclaw.json', '/cairn-tab/assets%2f..%2f..%2fpackage.json']) {
        expect([400, 404], p).toContain((await raw(base, 'GET', p, bearer)).status);
      }
    } finally {
      fs.rmSync(link, { force: true });
    }
    const asset = fs.readdirSync(path.join(RENDERER, 'assets')).find((f) => f.endsWith('.css')) as string;
    expect((await raw(base, 'GET', `/cairn-tab-assets/assets/${asset}`)).status).toBe(200);
  });

  it("says why when Cairn's Node is missing, leaves the Control UI working; disabled → no tab; enabled and restarted → the tab works", { timeout: 600_000 }, async () => {
    const open = async (): Promise<{ page: Page; close: () => Promise<void> }> => {
      const ctx = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      const page = await ctx.newPage();
      await page.goto(`${(gw as RunningGateway).base}/#token=${TOKEN}`);
      return { page, close: () => ctx.close() };
    };
    // Cairn's Node is gone: the tab says why; the Control UI's own pages still work.
    await gw?.stop();
    fs.rmSync(dir.nodeLink);
    gw = await startGateway(command, dir, TOKEN);
    let s = await open();
    await s.page.getByText(TAB_LABEL).first().click();
    const frame = await cairnFrame(s.page);
    const banner = frame.getByTestId('connection-banner');
    await banner.filter({ hasText: 'Cairn is not running on the Gateway host' }).waitFor();
    expect(await banner.textContent()).toContain(dir.nodeLink);
    await screenshot(s.page, 'openclaw-tab-node-missing');
    await s.page.getByText('Agents', { exact: true }).first().click();
    await s.page.waitForURL((u) => u.pathname !== '/cairn');
    await s.page.getByText('s1-alpha', { exact: true }).first().waitFor();
    await s.close();

    // The plugin disabled: no tab.
    await gw?.stop();
    writeNodeLink(dir.nodeLink);
    setCairnEnabled(dir.stateDir, false);
    gw = await startGateway(command, dir, TOKEN);
    s = await open();
    await s.page.getByText('s1-alpha', { exact: true }).first().waitFor();
    expect(await s.page.getByText(TAB_LABEL).count()).toBe(0);
    await s.close();

    // Enabled again, the Gateway restarted: the tab is back and reads.
    await gw?.stop();
    setCairnEnabled(dir.stateDir, true);
    gw = await startGateway(command, dir, TOKEN);
    s = await open();
    await s.page.getByText(TAB_LABEL).first().click();
    const again = await cairnFrame(s.page);
    await again.locator('[data-session-id="s1-alpha"]').waitFor();
    await s.close();
  });
});
