/**
 * UI bench: first paint and search-as-you-type in Chromium (Debian's, via playwright-core)
 * against the engine + serve server in their own process (as `cairn serve` runs them) on a
 * copy of the 10k-chunk corpus (bench/corpus.ts) indexed with the static embedder.
 *
 * - First paint: from the moment `cairn serve` prints its URL ("the server is up") to the
 *   page's first-contentful-paint, fresh server and fresh page per run.
 * - Search-as-you-type: queries typed key by key (70 ms apart, a fast typist); measured in
 *   the page from the last keydown to the frame after the results for the full query are
 *   in the DOM (the results list carries the query it answers in `data-answered`).
 *
 *   node --import tsx bench/ui-search.ts [runs=5]
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { build as viteBuild } from 'vite';
import { ensureCorpus } from './corpus';
import { median, quantile } from './lib/stats';

const RUNS = Number(process.argv[2] ?? 5);
const KEY_DELAY_MS = 70;
const QUERIES = [
  'database migration',
  'deploy to staging',
  'port 8080',
  'backup restore',
  'decided to use sqlite',
  'TODO review',
  'release notes',
  'api key rotation',
  'memory flush threshold',
  'cache ttl',
];
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

const pct = quantile;
const max = (xs: number[]) => Math.max(...xs);

/**
 * The engine and the serve HTTP server in their own process, as `cairn serve` runs them, but
 * serving this bench's private renderer build: the shared dist/renderer is rebuilt by other
 * test runs at any moment. Resolves with the URL and the moment it was printed.
 */
function startServe(stateDir: string, staticDir: string): Promise<{ url: string; upAt: number; child: ChildProcess }> {
  const code = [
    `const { createEngine } = await import(${JSON.stringify(path.join(root, 'electron/engine/engine.ts'))});`,
    `const { startServer } = await import(${JSON.stringify(path.join(root, 'electron/server/server.ts'))});`,
    `const engine = createEngine({ stateDir: ${JSON.stringify(stateDir)} });`,
    `const server = await startServer({ dispatcher: engine.dispatcher, events: engine.events, staticDir: ${JSON.stringify(staticDir)} });`,
    'console.log(`Open: ${server.openUrl}`);',
  ].join('\n');
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /Open: (\S+)/.exec(out);
      if (m) resolve({ url: m[1] as string, upAt: Date.now(), child });
    });
    child.on('exit', (code) => reject(new Error(`cairn serve exited with ${code}: ${out}`)));
  });
}

/** Type `q` into the search box; ms from the last keydown to the frame after its results. */
async function typeAndTime(page: Page, q: string): Promise<{ ms: number; results: number }> {
  const box = page.getByRole('searchbox', { name: 'Search memory' });
  await box.fill('');
  await page.waitForFunction(() => document.getElementById('search-results')?.getAttribute('data-answered') === '');
  await page.evaluate((query) => {
    const w = window as unknown as { __lastKey?: number; __done?: number };
    w.__lastKey = undefined;
    w.__done = undefined;
    const input = document.getElementById('search-input') as HTMLInputElement;
    // Arrow functions only: tsx's keepNames would wrap a named function in a helper the page lacks.
    input.addEventListener('keydown', () => (w.__lastKey = performance.now()));
    const list = document.getElementById('search-results') as HTMLElement;
    const obs = new MutationObserver(() => {
      if (list.getAttribute('data-answered') === query && w.__done === undefined) {
        obs.disconnect();
        requestAnimationFrame(() => (w.__done = performance.now()));
      }
    });
    obs.observe(list, { attributes: true, attributeFilter: ['data-answered'] });
  }, q);
  await box.pressSequentially(q, { delay: KEY_DELAY_MS });
  await page.waitForFunction(() => (window as unknown as { __done?: number }).__done !== undefined, undefined, { timeout: 60_000 });
  const ms = await page.evaluate(() => {
    const w = window as unknown as { __lastKey: number; __done: number };
    return w.__done - w.__lastKey;
  });
  return { ms, results: await page.getByTestId('search-result').count() };
}

async function main(): Promise<void> {
  const staticDir = path.join(os.tmpdir(), 'cairn-bench-ui-search-renderer');
  await viteBuild({ root: path.join(root, 'renderer'), configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn', build: { outDir: staticDir, emptyOutDir: true } });
  const corpus = await ensureCorpus('10k', { log: (m) => console.error(m) });
  // A private copy: never touch the shared corpus's index (other benches use it).
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-ui-search-'));
  fs.cpSync(corpus.dir, stateDir, { recursive: true, filter: (src) => !src.includes(`${path.sep}cairn${path.sep}index`) });
  const t0 = Date.now();
  const indexed = JSON.parse(execFileSync(process.execPath, [path.join(root, 'bin/cairn.mjs'), '--state-dir', stateDir, 'index', '--json'], { encoding: 'utf8', maxBuffer: 1 << 26 })) as { chunks: number; files: number; mode: string };
  console.error(`indexed ${indexed.chunks} chunks of ${indexed.files} files (${indexed.mode}) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  const browser = await chromium.launch({ executablePath: process.env.CAIRN_CHROMIUM ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  const fcp: number[] = [];
  const upToPaint: number[] = [];
  const typing: number[] = [];
  const counts: number[] = [];
  let child: ChildProcess | undefined;
  try {
    for (let run = 0; run < RUNS; run++) {
      const serve = await startServe(stateDir, staticDir);
      child = serve.child;
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(`${serve.url}#/search`);
      await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0);
      const [start, origin] = await page.evaluate(() => [performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN, performance.timeOrigin]);
      fcp.push(Math.round(start as number));
      upToPaint.push(Math.round((origin as number) + (start as number) - serve.upAt));
      await page.getByRole('searchbox', { name: 'Search memory' }).waitFor();
      // Warm-up: the first query opens the index and loads the embedder.
      await typeAndTime(page, 'warm up');
      for (const q of QUERIES) {
        const r = await typeAndTime(page, q);
        typing.push(r.ms);
        counts.push(r.results);
      }
      await page.close();
      serve.child.kill();
    }
  } finally {
    child?.kill();
    await browser.close();
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
  console.log(`Index: ${indexed.chunks} chunks, ${indexed.files} files (${indexed.mode}, static embedder). ${RUNS} runs; ${QUERIES.length} queries per run typed ${KEY_DELAY_MS} ms apart; median results per query ${median(counts)}.\n`);
  console.log('| measure | median | p95 | max | budget |');
  console.log('|---|---:|---:|---:|---:|');
  console.log(`| server up → first contentful paint | ${median(upToPaint)} ms | ${pct(upToPaint, 0.95)} ms | ${max(upToPaint)} ms | ≤ 1500 ms |`);
  console.log(`| navigation → first contentful paint | ${median(fcp)} ms | ${pct(fcp, 0.95)} ms | ${max(fcp)} ms | — |`);
  console.log(`| last keystroke → results painted (search-as-you-type) | ${Math.round(median(typing))} ms | ${Math.round(pct(typing, 0.95))} ms | ${Math.round(max(typing))} ms | ≤ 150 ms |`);
}

await main();
