/**
 * Issue 39's measurements of the Cairn tab in the real OpenClaw 2026.9.6 Control UI (the
 * install of scripts/fetch-test-openclaw.mjs), on the shipped fixture's OpenClaw dir:
 *
 *   node --import tsx bench/openclaw-tab.ts [--cold N] [--warm N] [--searches N]
 *
 * - Click to first sessions list: from the click on "Memory · Cairn" in Chromium to the first
 *   session row inside the frame. Cold: the first open after a Gateway start (a fresh browser
 *   profile, Cairn's process just started by `gateway_start`); warm: a new browser context on
 *   the same Gateway (the window's files not cached, Cairn running).
 * - A search: `search.query` through the tab's read API (HTTP GET → Gateway → plugin → bridge →
 *   engine) against the same query over `cairn serve` (HTTP POST → engine in the server's
 *   process) on the same state dir, interleaved, p50/p95 of wall time per call.
 *
 * Prints Markdown tables with the load (`uptime`) before and after: the machine may be shared.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { createEngine } from '../electron/engine/engine';
import { startServer } from '../electron/server/server';
import { connectedFixture, startGateway, type RunningGateway } from '../tests/helpers/openclaw-gateway';
import { realOpenClaw } from '../tests/helpers/openclaw-real';

const RENDERER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'renderer');
const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: process.env.CAIRN_CHROMIUM ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });

const TOKEN = 'cairn-tab-bench-token-0123456789abcdef';
const QUERIES = ['Lisbon trip codeword', 'favourite fruit', 'budget code for the gamma report', 'violet harbor phrase', 'pistachio gelato', 'big exec outputs', 'compaction flush notes', 'what did the user ask about rows'];

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN;
};
const ms = (v: number) => `${Math.round(v)} ms`;

/** Click the tab in a new context; ms until the first session row shows in the frame. */
async function clickToSessions(browser: Browser, gw: RunningGateway): Promise<number> {
  const ctx = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await ctx.newPage();
  await page.goto(`${gw.base}/#token=${TOKEN}`);
  const tab = page.getByText('Memory · Cairn').first();
  await tab.waitFor({ timeout: 120_000 });
  const t0 = performance.now();
  await tab.click();
  await page.frameLocator('iframe.plugin-tab-embed__frame').locator('[data-session-id]').first().waitFor({ timeout: 120_000 });
  const took = performance.now() - t0;
  await ctx.close();
  return took;
}

async function main(): Promise<void> {
  const oc = realOpenClaw();
  if (!oc.command) throw new Error(`the real OpenClaw is missing${oc.skip}`);
  const cold = arg('cold', 2);
  const warm = arg('warm', 5);
  const searches = arg('searches', 40);
  console.log(`load before: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-octab-'));
  const dir = await connectedFixture(root);
  const browser = await launchChromium();
  const coldMs: number[] = [];
  const warmMs: number[] = [];
  let gw: RunningGateway | undefined;
  try {
    for (let i = 0; i < cold; i++) {
      await gw?.stop();
      gw = await startGateway(oc.command, dir, TOKEN);
      coldMs.push(await clickToSessions(browser, gw));
    }
    gw ??= await startGateway(oc.command, dir, TOKEN);
    for (let i = 0; i < warm; i++) warmMs.push(await clickToSessions(browser, gw));

    // Searches: the tab's read API against `cairn serve` on the same dir, interleaved.
    const html = await (await fetch(`${gw.base}/cairn-tab/`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    const token = /name="cairn-tab-key" content="([^"]+)"/.exec(html)?.[1] ?? '';
    process.env.CAIRN_DATA_DIR = dir.dataDir;
    const engine = createEngine({ stateDir: dir.stateDir });
    const server = await startServer({ dispatcher: engine.dispatcher, events: engine.events, staticDir: RENDERER_DIR });
    const served = { server, close: async () => (await server.close(), await engine.dispose()) };
    const tabSearch = async (query: string) => {
      const r = await fetch(`${gw?.base}/cairn-tab-api/search.query?k=${token}&q=${encodeURIComponent(JSON.stringify({ query }))}`);
      if (!((await r.json()) as { ok: boolean }).ok) throw new Error(`tab search failed: ${query}`);
    };
    const serveSearch = async (query: string) => {
      const r = await fetch(`${served.server.url}/api/call/search.query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${served.server.token}` },
        body: JSON.stringify({ request: { query } }),
      });
      if (!((await r.json()) as { ok: boolean }).ok) throw new Error(`serve search failed: ${query}`);
    };
    await tabSearch('warm-up');
    await serveSearch('warm-up');
    const tabMs: number[] = [];
    const serveMs: number[] = [];
    for (let i = 0; i < searches; i++) {
      // A different query each time, so no answer is the one the browser or a cache holds.
      const q = `${QUERIES[i % QUERIES.length]} ${i}`;
      let t = performance.now();
      await tabSearch(q);
      tabMs.push(performance.now() - t);
      t = performance.now();
      await serveSearch(q);
      serveMs.push(performance.now() - t);
    }
    await served.close();

    console.log('\n| Click "Memory · Cairn" → first sessions list | runs | median | max |\n|---|---|---|---|');
    console.log(`| cold (first open after a Gateway start) | ${coldMs.length} | ${ms(pct(coldMs, 50))} | ${ms(Math.max(...coldMs))} |`);
    console.log(`| warm (new browser context, Cairn running) | ${warmMs.length} | ${ms(pct(warmMs, 50))} | ${ms(Math.max(...warmMs))} |`);
    console.log('\n| search.query | calls | p50 | p95 |\n|---|---|---|---|');
    console.log(`| in the tab (GET → Gateway → plugin → bridge → engine) | ${tabMs.length} | ${ms(pct(tabMs, 50))} | ${ms(pct(tabMs, 95))} |`);
    console.log(`| over \`cairn serve\` (POST → engine) | ${serveMs.length} | ${ms(pct(serveMs, 50))} | ${ms(pct(serveMs, 95))} |`);
  } finally {
    await gw?.stop();
    await browser.close();
    fs.rmSync(root, { recursive: true, force: true });
    console.log(`\nload after: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
