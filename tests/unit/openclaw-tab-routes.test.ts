/**
 * The Cairn tab's routes without OpenClaw (tests/e2e/openclaw-tab.test.ts runs the real
 * Control UI): the plugin registered on an object shaped like OpenClaw's plugin API, its HTTP
 * routes mounted on a loopback server here, the real `cairn openclaw-bridge` child behind them.
 * What the tab gets: its descriptor (a label naming Cairn, the slug), the page with a token,
 * reads answered by the engine with an ETag the browser can revalidate, every write refused
 * (methods and channels), and — while Cairn starts — an answer that says so instead of a wait.
 * A 100 MB note and a 100 MB transcript come through in pages the window reads, each answer a
 * few MB (issue 39: the bridge never carries one giant JSON line for them).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CAIRN_BIN } from '../helpers/cli';
import { OC2026_STATE_DIR } from '../helpers/openclaw-state';
import { tmpDir } from '../helpers/tmp';
import { writeBigSession } from '../../testkit/big-inputs';
import type { MemoryFileText, SessionEntriesResult } from '../../shared/contract';

type RouteHandler = (req: http.IncomingMessage, res: http.ServerResponse) => unknown;
interface Route {
  path: string;
  auth: string;
  match: string;
  handler: RouteHandler;
}

const PLUGIN = pathToFileURL(path.join(path.dirname(path.dirname(CAIRN_BIN)), 'openclaw-plugin', 'index.js')).href;

/** The plugin registered with `config`; its routes served on 127.0.0.1 (longest prefix first, as the Gateway matches). */
async function mountPlugin(config: Record<string, unknown>) {
  const routes: Route[] = [];
  const descriptors: Record<string, unknown>[] = [];
  const hooks = new Map<string, (e: unknown, c: unknown) => unknown>();
  const api = {
    id: 'cairn',
    registrationMode: 'full',
    pluginConfig: config,
    logger: { info: () => {}, debug: () => {}, warn: () => {}, error: () => {} },
    on: (name: string, h: (e: unknown, c: unknown) => unknown) => hooks.set(name, h),
    registerHttpRoute: (r: Route) => routes.push(r),
    session: { controls: { registerControlUiDescriptor: (d: Record<string, unknown>) => descriptors.push(d) } },
  };
  const mod = (await import(PLUGIN)) as { default: { register: (a: typeof api) => void } };
  mod.default.register(api);
  const server = http.createServer((req, res) => {
    const p = (req.url ?? '/').split('?')[0] ?? '/';
    const route = routes.filter((r) => p === r.path || p.startsWith(`${r.path}/`)).sort((a, b) => b.path.length - a.path.length)[0];
    if (!route) return void res.writeHead(404).end();
    void route.handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    routes,
    descriptors,
    base,
    async close() {
      await hooks.get('gateway_stop')?.({}, {});
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** A temp OpenClaw dir: the fixture's workspace and config. */
function ocDir(): { stateDir: string; dataDir: string } {
  const stateDir = path.join(tmpDir('cairn-octabr-'), '.openclaw');
  fs.mkdirSync(stateDir);
  fs.cpSync(path.join(OC2026_STATE_DIR, 'workspace'), path.join(stateDir, 'workspace'), { recursive: true });
  const cfg = JSON.parse(fs.readFileSync(path.join(OC2026_STATE_DIR, 'openclaw.json'), 'utf8')) as { agents: { defaults: { workspace: string } } };
  cfg.agents.defaults.workspace = path.join(stateDir, 'workspace');
  fs.writeFileSync(path.join(stateDir, 'openclaw.json'), JSON.stringify(cfg));
  return { stateDir, dataDir: tmpDir('cairn-data-') };
}

/** The page's token and the read API's base, as the window finds them. */
async function openPage(base: string): Promise<{ token: string; api: string }> {
  const html = await (await fetch(`${base}/cairn-tab/`)).text();
  return { token: /name="cairn-tab-key" content="([^"]+)"/.exec(html)?.[1] ?? '', api: /name="cairn-tab-api" content="([^"]+)"/.exec(html)?.[1] ?? '' };
}

const q = (v: unknown) => encodeURIComponent(JSON.stringify(v));

/** Line `i` of the generated big note: ASCII, two- and three-byte characters, a project annotation every 100,000th line. */
const noteLine = (i: number) => `- ${i}: kept item ${i} — café 日本 ${'x'.repeat(i % 97)}${i % 100_000 === 50_000 ? ' <!-- project: cairn -->' : ''}\n`;

/** Write a note of at least `bytes` to `file` as a stream (never whole in memory); its line count and sha256. */
async function writeBigNote(file: string, bytes: number): Promise<{ lines: number; size: number; sha: string }> {
  const out = fs.createWriteStream(file);
  const hash = createHash('sha256');
  let size = 0;
  let i = 0;
  while (size < bytes) {
    let chunk = '';
    for (let k = 0; k < 10_000; k++) chunk += noteLine(i++);
    hash.update(chunk);
    size += Buffer.byteLength(chunk);
    if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((r, j) => out.end((err?: Error | null) => (err ? j(err) : r())));
  return { lines: i, size, sha: hash.digest('hex') };
}

/** A read, asked again while the answer is "starting" (each such answer already waited on the server). */
async function readReady(url: string, init?: RequestInit): Promise<Response> {
  for (let i = 0; i < 40; i++) {
    const res = await fetch(url, init);
    if (res.status !== 503) return res;
  }
  throw new Error(`${url} still starting`);
}

describe("The Cairn tab's routes, with the real bridge", () => {
  it('registers a tab naming Cairn, answers reads with an ETag, and refuses writes', { timeout: 120_000 }, async () => {
    const { stateDir, dataDir } = ocDir();
    const p = await mountPlugin({ stateDir, dataDir, node: process.execPath, bin: CAIRN_BIN });
    try {
      expect(p.descriptors).toEqual([expect.objectContaining({ surface: 'tab', id: 'cairn', label: 'Memory · Cairn', slug: 'cairn', path: '/cairn-tab/', group: 'agent' })]);
      expect(p.routes.map((r) => [r.path, r.auth, r.match])).toEqual([
        ['/cairn-tab', 'gateway', 'prefix'],
        ['/cairn-tab-api', 'plugin', 'prefix'],
        ['/cairn-tab-assets', 'plugin', 'prefix'],
      ]);
      const page = await fetch(`${p.base}/cairn-tab/`);
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.headers.get('access-control-allow-origin')).toBeNull();
      const { token, api } = await openPage(p.base);
      expect(api).toBe('/cairn-tab-api/');
      // Each page load has its own token.
      expect((await openPage(p.base)).token).not.toBe(token);

      const url = `${p.base}${api}memory.list?k=${token}&q=${q({})}`;
      const first = await readReady(url, { headers: { origin: 'null' } });
      expect(first.status).toBe(200);
      expect(first.headers.get('access-control-allow-origin')).toBe('null');
      expect(first.headers.get('access-control-allow-credentials')).toBeNull();
      const body = (await first.json()) as { ok: boolean; value: { files: { path: string }[] } };
      expect(body.ok).toBe(true);
      expect(body.value.files.map((f) => f.path)).toContain('MEMORY.md');
      const etag = first.headers.get('etag') ?? '';
      expect(etag).toMatch(/^"[\w-]+"$/);
      expect((await fetch(url, { headers: { 'if-none-match': etag } })).status).toBe(304);
      // The state changes: a new answer, a new ETag.
      fs.writeFileSync(path.join(stateDir, 'workspace', 'memory', '2026-12-05.md'), '# 2026-12-05\n\n- A new note.\n');
      const after = await fetch(url, { headers: { 'if-none-match': etag } });
      expect(after.status).toBe(200);
      expect(after.headers.get('etag')).not.toBe(etag);

      // Writes: by method, by channel; no token, no read.
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
        expect((await fetch(url, { method })).status, method).toBe(405);
        expect((await fetch(`${p.base}/cairn-tab/`, { method })).status, method).toBe(405);
      }
      const write = await fetch(`${p.base}${api}memory.write?k=${token}&q=${q({ path: 'MEMORY.md', text: 'gone' })}`);
      expect(await write.json()).toMatchObject({ ok: false, error: { code: 'forbidden' } });
      expect(fs.readFileSync(path.join(stateDir, 'workspace', 'MEMORY.md'), 'utf8')).toContain('saffron-kite');
      expect((await fetch(`${p.base}${api}memory.list?q=${q({})}`)).status).toBe(403);
      expect((await fetch(`${p.base}${api}memory.list?k=${token}x&q=${q({})}`)).status).toBe(403);
      // The public route: the window's files, nothing beside them.
      const icon = await fetch(`${p.base}/cairn-tab-assets/favicon.svg`);
      expect(icon.status).toBe(200);
      expect(icon.headers.get('access-control-allow-origin')).toBe('*');
      for (const bad of ['/cairn-tab-assets/index.html', '/cairn-tab-assets/assets/..%2f..%2fpackage.json', '/cairn-tab-assets/assets/%2e%2e/index.html']) {
        expect((await fetch(`${p.base}${bad}`)).status, bad).toBe(404);
      }
    } finally {
      await p.close();
    }
  });

  it('reads a 100 MB note and a 100 MB transcript in pages, each answer bounded', { timeout: 600_000 }, async () => {
    const { stateDir, dataDir } = ocDir();
    const note = await writeBigNote(path.join(stateDir, 'workspace', 'memory', 'huge.md'), 100 * 1024 * 1024);
    const session = writeBigSession(stateDir, 2_500, 500_000);
    expect(session.bytes).toBeGreaterThan(100 * 1024 * 1024);
    const p = await mountPlugin({ stateDir, dataDir, node: process.execPath, bin: CAIRN_BIN });
    try {
      const { token, api } = await openPage(p.base);
      const read = async <T>(channel: string, request: unknown): Promise<{ value: T; chars: number }> => {
        const res = await readReady(`${p.base}${api}${channel}?k=${token}&q=${q(request)}`);
        const text = await res.text();
        const body = JSON.parse(text) as { ok: boolean; value: T; error?: unknown };
        expect(body.ok, JSON.stringify(body.error)).toBe(true);
        return { value: body.value, chars: text.length };
      };

      // The note, in the window's pages (renderer/src/stores/memory-read.ts): 4 MB each.
      const LIMIT = 4 * 1024 * 1024;
      const hash = createHash('sha256');
      const pages: MemoryFileText[] = [];
      let largest = 0;
      let line = 1;
      for (let offset: number | undefined = 0; offset !== undefined; ) {
        const { value, chars }: { value: MemoryFileText; chars: number } = await read<MemoryFileText>('memory.read', { path: 'memory/huge.md', offset, limit: LIMIT, line });
        expect(value.size).toBe(note.size);
        expect(value.offset).toBe(offset);
        largest = Math.max(largest, chars);
        hash.update(value.text);
        line += value.text.split('\n').length - 1;
        pages.push({ ...value, text: '' });
        // Each page ends a line (pages join back into the file), and is checked at its start and end.
        if (value.next !== undefined) expect(value.text.endsWith('\n')).toBe(true);
        const first = value.text.slice(0, value.text.indexOf('\n') + 1);
        expect(first).toMatch(/^- \d+: kept item \d+ — café 日本 x*( <!-- project: cairn -->)?\n$/);
        const n = Number(/^- (\d+)/.exec(first)?.[1]);
        expect(first).toBe(noteLine(n));
        if (n > 0) expect(value.annotations?.[0]?.line ?? n + 1).toBeGreaterThan(n);
        offset = value.next;
      }
      expect(pages.length).toBeGreaterThanOrEqual(25);
      expect(largest).toBeLessThan(LIMIT * 1.5);
      expect(hash.digest('hex')).toBe(note.sha);
      expect(line - 1).toBe(note.lines);
      // The annotations count lines from the file's start, whichever page they came in.
      const annotated = pages.flatMap((pg) => pg.annotations ?? []).map((a) => a.line);
      const expected = Array.from({ length: note.lines }, (_, i) => i).filter((i) => i % 100_000 === 50_000).map((i) => i + 1);
      expect(annotated).toEqual(expected);

      // The transcript: the timeline's pages of entries, tool output cut, each answer bounded.
      let entries = 0;
      let largestEntries = 0;
      let bigResult: { id: string; block: number; length: number } | undefined;
      const asked: number[] = [];
      for (let offset = 0; ; ) {
        const { value, chars } = await read<SessionEntriesResult>('sessions.entries', { sessionId: session.sessionId, offset, limit: 400 });
        largestEntries = Math.max(largestEntries, chars);
        entries += value.entries.length;
        for (const e of value.entries) {
          if (!bigResult && e.clipped?.[0]) bigResult = { id: e.id, ...e.clipped[0] };
          const m = e.message as { role?: string; content?: unknown } | undefined;
          const ask = m?.role === 'user' && typeof m.content === 'string' ? /package (\d+) and/.exec(m.content) : null;
          if (ask) asked.push(Number(ask[1]));
        }
        offset += value.entries.length;
        if (value.entries.length === 0 || offset >= value.total) break;
      }
      expect(entries).toBe(session.entries);
      expect(largestEntries).toBeLessThan(8 * 1024 * 1024);
      // Every turn in file order, from the first to the last (the user asks for package cycle % 50).
      expect(asked.length).toBe(Math.floor(session.entries / 4));
      expect(asked.every((pkg, cycle) => pkg === cycle % 50)).toBe(true);
      // A cut tool result, whole through sessionsentryText's pages, as the timeline's "Show all".
      expect(bigResult?.length).toBe(500_000);
      let whole = '';
      for (let offset = 0; offset < (bigResult?.length ?? 0); ) {
        const { value } = await read<{ text: string; length: number }>('sessions.entryText', { sessionId: session.sessionId, entryId: bigResult?.id, block: bigResult?.block, offset, limit: 100_000 });
        whole += value.text;
        offset += value.text.length;
      }
      expect(whole.length).toBe(500_000);
      // The log's lines in order, start to end (the last one cut at 500,000 chars).
      const lines = whole.split('\n');
      expect(lines.length).toBeGreaterThan(5_000);
      expect(lines.every((l, i) => l.startsWith(`[${String(i).padStart(6, '0')}]`) || (i === lines.length - 1 && `[${String(i).padStart(6, '0')}]`.startsWith(l)))).toBe(true);
    } finally {
      await p.close();
    }
  });

  it('says Cairn is starting while its process starts, then answers', { timeout: 120_000 }, async () => {
    const { stateDir, dataDir } = ocDir();
    // Cairn's Node, held at the door until the test lets it through (a FIFO, not a timer).
    const dir = tmpDir('cairn-ocslow-');
    const gate = path.join(dir, 'gate');
    execFileSync('mkfifo', [gate]);
    const node = path.join(dir, 'node');
    fs.writeFileSync(node, `#!/bin/sh\nread _ < ${JSON.stringify(gate)}\nexec ${JSON.stringify(process.execPath)} "$@"\n`, { mode: 0o755 });
    const p = await mountPlugin({ stateDir, dataDir, node, bin: CAIRN_BIN });
    try {
      const { token, api } = await openPage(p.base);
      const url = `${p.base}${api}memory.list?k=${token}&q=${q({})}`;
      const starting = await fetch(url);
      expect(starting.status).toBe(503);
      expect(starting.headers.get('retry-after')).toBe('1');
      expect(await starting.json()).toMatchObject({ ok: false, error: { code: 'unavailable', message: 'Cairn is starting on the Gateway host…', starting: true } });
      fs.writeFileSync(gate, 'go\n');
      const ready = await fetch(url);
      expect(ready.status).toBe(200);
      expect(((await ready.json()) as { ok: boolean }).ok).toBe(true);
    } finally {
      await p.close();
    }
  });
});
