/**
 * UI bench: opening a 10,000-entry session in Chromium (Debian's, via playwright-core)
 * against `cairn serve` (its own process, as a user runs it) on a seeded temp state dir.
 * Measured inside the page, from the click on the session row: the first timeline rows
 * painted, every entry loaded; then the jump to the last entry and frame times while
 * scrolling the virtualised timeline. Each run is a fresh server (cold transcript cache) and
 * a fresh page. Prints a Markdown table.
 *
 *   node --import tsx bench/ui-sessions.ts [entries=10000] [runs=5]
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { readTranscript } from '../electron/engine/transcript/read';
import { seedLargeSession, seedSessions } from '../electron/engine/app/demo/seed-sessions';
import { median } from './lib/stats';

const ENTRIES = Number(process.argv[2] ?? 10_000);
const RUNS = Number(process.argv[3] ?? 5);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

const max = (xs: number[]) => Math.max(...xs);

const children: ChildProcess[] = [];

/** `cairn serve` in its own process; resolves with the URL it prints. */
function startServe(stateDir: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [path.join(root, 'bin/cairn.mjs'), 'serve', '--state-dir', stateDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /Open: (\S+)/.exec(out);
      if (m) resolve({ url: m[1] as string, child });
    });
    child.on('exit', (code) => reject(new Error(`cairn serve exited with ${code}: ${out}`)));
  });
}

async function main(): Promise<void> {
  execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs'), 'renderer'], { cwd: root, stdio: 'ignore' });
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-ui-'));
  seedSessions(stateDir);
  const big = seedLargeSession(stateDir, ENTRIES);
  const bytes = fs.statSync(big.file).size;
  const lastId = readTranscript(big.file).entries.at(-1)?.id;
  const browser = await chromium.launch({ executablePath: process.env.CAIRN_CHROMIUM ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  const first: number[] = [];
  const all: number[] = [];
  const jump: number[] = [];
  const frames: number[] = [];
  const worstFrames: number[] = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      const serve = await startServe(stateDir);
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      // The shell's first app.status runs the doctor checks, which hold the server for seconds:
      // wait for it so the open is measured alone.
      const status = page.waitForResponse((r) => r.url().endsWith('/api/call/app.status'), { timeout: 120_000 });
      await page.goto(`${serve.url}#/sessions`);
      const row = page.locator(`[data-session-id="${big.sessionId}"]`);
      await row.waitFor();
      await status;
      // Timestamps taken in the page: the click, the frame after the first row appears, all loaded.
      await page.evaluate(() => {
        const w = window as unknown as Record<string, number>;
        (w as unknown as { __lt: number[][] }).__lt = [];
        new PerformanceObserver((l) => { for (const e of l.getEntries()) (w as unknown as { __lt: number[][] }).__lt.push([Math.round(e.startTime), Math.round(e.duration)]); }).observe({ entryTypes: ['longtask'] });
        document.addEventListener('click', () => (w.__t0 = performance.now()), { capture: true, once: true });
        new MutationObserver(() => {
          const tl = document.querySelector('[data-testid="timeline"]');
          if (!w.__first && tl?.querySelector('[data-entry-id]')) requestAnimationFrame(() => (w.__first = performance.now()));
          if (!w.__all && tl?.getAttribute('data-loaded')) w.__all = performance.now();
        }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-loaded'] });
      });
      await row.click();
      await page.waitForFunction(() => (window as unknown as Record<string, number>).__all !== undefined, undefined, { timeout: 120_000 });
      const [t0, t1, t2] = await page.evaluate(() => {
        const w = window as unknown as Record<string, number>;
        return [w.__t0 as number, w.__first as number, w.__all as number];
      });
      if (await page.locator('[data-testid="timeline"]').getAttribute('data-loaded') !== String(ENTRIES)) throw new Error('not every entry loaded');
      if (process.env.DEBUG_UI_BENCH) console.log(t0, t1, t2, await page.evaluate(() => JSON.stringify(performance.getEntriesByType('resource').map((e) => [e.name.slice(-22), Math.round(e.startTime), Math.round((e as PerformanceResourceTiming).responseStart), Math.round((e as PerformanceResourceTiming).responseEnd)]))), await page.evaluate(() => JSON.stringify((window as unknown as { __lt: number[][] }).__lt)));
      first.push(Math.round(t1 - t0));
      all.push(Math.round(t2 - t0));
      // Jump to the last entry (scroll through the virtualiser).
      await page.locator('[data-testid="timeline"]').focus();
      const tj = await page.evaluate(() => performance.now());
      await page.keyboard.press('End');
      await page.locator(`[data-testid="timeline"] [data-entry-id="${lastId}"]`).waitFor();
      jump.push(Math.round((await page.evaluate(() => performance.now())) - tj));
      // Scroll for ~2 s from the top, 120 px per frame, recording frame intervals.
      // A string, not a function: tsx's keepNames would inject a helper the page does not have.
      const f = (await page.evaluate(`(async () => {
        const el = document.querySelector('[data-testid="timeline"]');
        el.scrollTop = 0;
        const times = [];
        let last = performance.now();
        const end = last + 2000;
        await new Promise((resolve) => {
          function step() {
            const now = performance.now();
            times.push(now - last);
            last = now;
            el.scrollTop += 120;
            if (now < end) requestAnimationFrame(step);
            else resolve();
          }
          requestAnimationFrame(step);
        });
        return times;
      })()`)) as number[];
      frames.push(median(f));
      worstFrames.push(max(f));
      await page.close();
      serve.child.kill();
    }
  } catch (err) {
    children.forEach((c) => c.kill());
    throw err;
  } finally {
    await browser.close();
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
  console.log(`Session: ${ENTRIES} entries, ${(bytes / 1024 / 1024).toFixed(1)} MB JSONL; ${RUNS} runs, median (max).\n`);
  console.log('| measure | median | max | budget |');
  console.log('|---|---:|---:|---:|');
  console.log(`| click → first timeline rows painted | ${median(first)} ms | ${max(first)} ms | ≤ 1000 ms |`);
  console.log(`| click → all ${ENTRIES} entries loaded | ${median(all)} ms | ${max(all)} ms | — |`);
  console.log(`| End key → last entry rendered | ${median(jump)} ms | ${max(jump)} ms | — |`);
  console.log(`| frame time while scrolling (median of runs' medians; worst frame) | ${median(frames).toFixed(1)} ms | ${max(worstFrames).toFixed(1)} ms | — |`);
}

await main();
