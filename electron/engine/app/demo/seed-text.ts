/**
 * Realistic tool outputs for seed transcripts: SQL migrations, test logs, access logs,
 * source files, web pages — deterministic for a given seed — and a small real PNG.
 */
import zlib from 'node:zlib';
import { rng } from './seed-writer';

const TABLES = ['invoices', 'customers', 'subscriptions', 'payments', 'refunds', 'ledger_entries', 'plans', 'coupons', 'tax_rates', 'webhooks', 'audit_log'];
const COLS = ['amount_cents bigint NOT NULL', 'currency char(3) NOT NULL DEFAULT \'EUR\'', 'status text NOT NULL', 'created_at timestamptz NOT NULL DEFAULT now()', 'updated_at timestamptz', 'external_ref text', 'metadata jsonb NOT NULL DEFAULT \'{}\'::jsonb', 'deleted_at timestamptz', 'period_start date', 'period_end date', 'attempt smallint NOT NULL DEFAULT 0'];

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)] as T;
}

/** A SQL migration file of about `targetChars` characters (kept under the soft-trim limit when asked). */
export function migrationSql(n: number, targetChars = 3_800): string {
  const r = rng(1000 + n);
  const table = pick(r, TABLES);
  const lines = [
    `-- migrations/${String(n).padStart(4, '0')}_${table}_${pick(r, ['add_columns', 'backfill', 'indexes', 'constraints', 'partition'])}.sql`,
    `-- Generated for the Postgres 16 move. Reviewed-by: ana. Ticket: BILL-${2000 + n}`,
    'BEGIN;',
    `SET lock_timeout = '5s';`,
    '',
  ];
  let i = 0;
  while (lines.join('\n').length < targetChars - 240) {
    i++;
    const t = `${table}_${i % 3 === 0 ? 'archive' : 'v2'}`;
    switch (i % 4) {
      case 0:
        lines.push(`ALTER TABLE ${t} ADD COLUMN IF NOT EXISTS ${pick(r, COLS)};`);
        break;
      case 1:
        lines.push(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${t}_${i}_idx ON ${t} (${pick(r, ['customer_id', 'created_at', 'status', 'external_ref'])});`);
        break;
      case 2:
        lines.push(`UPDATE ${t} SET status = 'settled' WHERE status = 'paid' AND created_at < '2024-0${1 + (i % 9)}-01'; -- ${Math.floor(r() * 90_000)} rows`);
        break;
      default:
        lines.push(`COMMENT ON COLUMN ${t}.${pick(r, ['amount_cents', 'status', 'metadata'])} IS 'see docs/billing/${table}.md#${i}';`);
    }
  }
  lines.push('', 'COMMIT;');
  return lines.join('\n').slice(0, targetChars);
}

/** A vitest run log of roughly `lines` lines with a couple of failures. */
export function testLog(lines: number, seed = 7): string {
  const r = rng(seed);
  const out = [' RUN  v3.2.4 /home/ana/src/billing', ''];
  let failed = 0;
  for (let i = 0; i < lines; i++) {
    const ok = r() > 0.02;
    const file = `tests/${pick(r, TABLES)}/${pick(r, ['repo', 'service', 'api', 'migrate'])}.test.ts`;
    if (ok) out.push(` ✓ ${file} > ${pick(r, ['creates', 'updates', 'lists', 'rejects', 'settles'])} ${pick(r, TABLES)} (${Math.floor(r() * 400)}ms)`);
    else {
      failed++;
      out.push(` × ${file} > settles invoices in order`, `   → expected 'settled' to be 'paid' // Object.is equality`, `   ❯ ${file}:${40 + Math.floor(r() * 200)}:${Math.floor(r() * 30)}`);
    }
  }
  out.push('', ` Test Files  ${failed} failed | ${Math.ceil(lines / 12)} passed`, `      Tests  ${failed} failed | ${lines - failed} passed (${lines})`, `   Duration  ${(lines * 0.031).toFixed(2)}s`);
  return out.join('\n');
}

/** nginx access log lines. */
export function accessLog(lines: number, seed = 11): string {
  const r = rng(seed);
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    const ip = `10.${Math.floor(r() * 255)}.${Math.floor(r() * 255)}.${Math.floor(r() * 255)}`;
    const status = r() > 0.93 ? pick(r, [500, 502, 504]) : pick(r, [200, 200, 200, 201, 204, 304, 404]);
    const min = String(Math.floor(i / 40) % 60).padStart(2, '0');
    out.push(`${ip} - - [12/Mar/2025:14:${min}:${String(i % 60).padStart(2, '0')} +0000] "${pick(r, ['GET', 'POST'])} /api/v1/${pick(r, TABLES)}/${Math.floor(r() * 99_999)} HTTP/1.1" ${status} ${Math.floor(r() * 9000)} "-" "billing-client/2.${Math.floor(r() * 9)}" rt=${(r() * 2).toFixed(3)}`);
  }
  return out.join('\n');
}

/** A `pg_dump --schema-only` style dump of about `targetChars` characters. */
export function schemaDump(targetChars: number, seed = 13): string {
  const r = rng(seed);
  const out = ['--', '-- PostgreSQL database dump', '-- Dumped from database version 13.14', '--', ''];
  let n = 0;
  while (out.join('\n').length < targetChars) {
    const t = `${pick(r, TABLES)}_${n++}`;
    out.push(`CREATE TABLE public.${t} (`, '    id bigint NOT NULL,');
    for (let c = 0; c < 6; c++) out.push(`    ${pick(r, COLS)},`);
    out.push('    customer_id bigint', ');', `ALTER TABLE ONLY public.${t} ADD CONSTRAINT ${t}_pkey PRIMARY KEY (id);`, '');
  }
  return out.join('\n').slice(0, targetChars);
}

/** A TypeScript source file, as `read` returns it. */
export function sourceFile(name: string, lines = 60): string {
  const r = rng(name.length * 31 + lines);
  const out = [`// ${name}`, "import { pool } from '../db/pool';", "import type { Invoice } from '../types';", ''];
  for (let i = 0; i < lines; i++) {
    if (i % 12 === 0) out.push('', `export async function ${pick(r, ['settle', 'load', 'retry', 'refund', 'reconcile'])}${pick(r, ['Invoice', 'Batch', 'Payment'])}${i}(id: string): Promise<Invoice | undefined> {`);
    else if (i % 12 === 11) out.push('}');
    else out.push(`  const ${pick(r, ['row', 'res', 'q', 'tx'])}${i} = await pool.query('SELECT * FROM ${pick(r, TABLES)} WHERE id = $1', [id]);`);
  }
  return out.join('\n');
}

/** A fetched web page rendered to Markdown, with a table. */
export function webPage(title: string, seed = 17): string {
  const r = rng(seed);
  const rows = ['| Model | Dims | Size | MTEB avg |', '|---|---:|---:|---:|'];
  for (const m of ['embeddinggemma-300m', 'nomic-embed-text-v1.5', 'bge-small-en-v1.5', 'all-MiniLM-L6-v2', 'gte-base']) {
    rows.push(`| ${m} | ${pick(r, [384, 512, 768])} | ${Math.floor(40 + r() * 300)} MB | ${(55 + r() * 10).toFixed(1)} |`);
  }
  return [`# ${title}`, '', 'Source: a benchmark write-up (fetched, converted to Markdown).', '', ...rows, '', '## Notes', '', '- Quantised Q8_0 models lose < 0.5 points on retrieval.', '- Latency on a laptop CPU: 4–12 ms per 256-token chunk.', ''].join('\n');
}

let crcTable: Uint32Array | undefined;
function crc32(buf: Buffer): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (const b of buf) c = (crcTable[(c ^ b) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

/**
 * A real PNG (a little bar chart, `w`×`h`, RGB) as base64 — what a screenshot tool result or
 * a pasted image carries.
 */
export function chartPngBase64(w = 96, h = 64): string {
  const raw = Buffer.alloc((w * 3 + 1) * h);
  const bars = [0.3, 0.55, 0.8, 0.45, 0.9, 0.65];
  for (let y = 0; y < h; y++) {
    const row = y * (w * 3 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < w; x++) {
      const bar = Math.floor((x / w) * bars.length);
      const inBar = x % Math.floor(w / bars.length) > 2 && h - y < (bars[bar] ?? 0) * h;
      const [R, G, B] = inBar ? [58, 110, 165] : y % 16 === 0 ? [220, 218, 210] : [251, 250, 248];
      raw[row + 1 + x * 3] = R;
      raw[row + 2 + x * 3] = G;
      raw[row + 3 + x * 3] = B;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type RGB
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return png.toString('base64');
}
