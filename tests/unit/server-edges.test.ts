/**
 * Server and MCP edges (issue 10 item 10), against a real `cairn serve` server on 127.0.0.1
 * and a real `cairn mcp` child: a malformed percent-escape is a 400, an oversized body a 413
 * that states the limit (not a reset), the API refuses the token in the URL (only the first
 * page load takes it, and sets the cookie), and unparseable JSON-RPC gets -32700.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY } from '../../electron/server/server';
import { CAIRN_BIN } from '../helpers/cli';
import { serveStateDir, type Served } from '../helpers/server';

let served: Served;
let stateDir: string;

beforeAll(async () => {
  stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-edges-'));
  served = await serveStateDir(stateDir);
});
afterAll(async () => {
  await served.close();
  fs.rmSync(stateDir, { recursive: true, force: true });
});

function post(p: string, body: Buffer | string, headers: Record<string, string> = {}, chunked = false): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const buf = typeof body === 'string' ? Buffer.from(body) : body;
    const req = http.request(
      {
        host: '127.0.0.1',
        port: served.server.port,
        path: p,
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${served.server.token}`, ...(chunked ? {} : { 'content-length': String(buf.length) }), ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', (e) => resolve({ error: e.message }));
    if (chunked) {
      for (let at = 0; at < buf.length; at += 1 << 20) req.write(buf.subarray(at, at + (1 << 20)));
      req.end();
    } else req.end(buf);
  });
}

describe('cairn serve edges', () => {
  it('a malformed percent-escape in the channel is a 400 that says so', async () => {
    const r = await post('/api/call/app.%E0%A4%A', '{}');
    expect(r).toMatchObject({ status: 400 });
    expect('body' in r && JSON.parse(r.body)).toMatchObject({ ok: false, error: { code: 'bad_request', message: expect.stringContaining('malformed percent-escape') } });
  });

  it.each([['with a Content-Length', false], ['chunked', true]])('an oversized body %s is a 413 with the limit, not a reset', async (_n, chunked) => {
    const r = await post('/api/call/config.get', Buffer.alloc(MAX_BODY + (2 << 20), 0x20), {}, chunked);
    expect(r).toMatchObject({ status: 413 });
    expect('body' in r && JSON.parse(r.body)).toMatchObject({ ok: false, error: { message: `request body over the limit of ${MAX_BODY} bytes (20 MiB)` } });
  });

  it('the API refuses the token in the query string; the first page load takes it and sets the cookie', async () => {
    const { port, token } = served.server;
    const q = await fetch(`http://127.0.0.1:${port}/api/call/config.get?token=${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(q.status).toBe(401);
    expect(await q.text()).toContain('does not take the token in the URL');
    const events = await new Promise<number>((resolve) => http.get({ host: '127.0.0.1', port, path: `/api/events?token=${token}` }, (res) => (res.destroy(), resolve(res.statusCode ?? 0))));
    expect(events).toBe(401);
    const page = await fetch(`http://127.0.0.1:${port}/?token=${token}`);
    expect(page.status).toBe(200);
    const cookie = String(page.headers.get('set-cookie')).split(';')[0] ?? '';
    expect(cookie).toBe(`cairn_token=${token}`);
    const withCookie = await fetch(`http://127.0.0.1:${port}/api/call/config.get`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: '{}' });
    expect(withCookie.status).toBe(200);
  });
});

describe('cairn mcp protocol errors', () => {
  it('answers unparseable input with -32700 and a non-request with -32600, then keeps serving', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-mcp-'));
    try {
      const child = spawn(process.execPath, [CAIRN_BIN, 'mcp', '--state-dir', dir], { stdio: ['pipe', 'pipe', 'pipe'] });
      const answers: unknown[] = [];
      let buf = '';
      const got3 = new Promise<void>((resolve) => {
        child.stdout.setEncoding('utf8').on('data', (c: string) => {
          buf += c;
          let nl: number;
          while ((nl = buf.indexOf('\n')) >= 0) {
            answers.push(JSON.parse(buf.slice(0, nl)));
            buf = buf.slice(nl + 1);
          }
          if (answers.length >= 3) resolve();
        });
      });
      child.stdin.write('{"jsonrpc":"2.0","id":1,"method":\n');
      child.stdin.write('{"no":"jsonrpc"}\n');
      child.stdin.write('{"jsonrpc":"2.0","id":7,"method":"ping"}\n');
      await got3;
      const exited = new Promise((resolve) => child.on('close', resolve));
      child.stdin.end();
      await exited;
      expect(answers[0]).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error: /) } });
      expect(answers[1]).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
      expect(answers[2]).toMatchObject({ jsonrpc: '2.0', id: 7, result: {} });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers a line of 10 MiB or more with a JSON-RPC error, says nothing on stderr, and keeps serving', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-mcp-'));
    try {
      const child = spawn(process.execPath, [CAIRN_BIN, 'mcp', '--state-dir', dir], { stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
      child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      // 11 MiB in one message, written in pieces as a client would, then a ping.
      const big = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${'a'.repeat(11 * 1024 * 1024)}"}}\n`;
      for (let i = 0; i < big.length; i += 1 << 20) child.stdin.write(big.slice(i, i + (1 << 20)));
      child.stdin.write('{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
      child.stdin.end();
      expect(await exited).toBe(0);
      const answers = out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(answers).toHaveLength(2);
      expect(answers[0]).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/over the limit of \d+ bytes/) } });
      expect(answers[1]).toMatchObject({ jsonrpc: '2.0', id: 2, result: {} });
      expect(err).toBe('');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
