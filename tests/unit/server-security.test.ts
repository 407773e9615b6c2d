/**
 * `cairn serve` refuses what it must: no token, a wrong token, a foreign Host (DNS
 * rebinding), a foreign Origin, non-JSON posts; it never sends CORS headers.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveStateDir, type Served } from '../helpers/server';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function request(port: number, opts: { path: string; method?: string; headers?: Record<string, string>; body?: string }): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: opts.path, method: opts.method ?? 'GET', headers: opts.headers },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    if (opts.body) req.write(opts.body);
    req.end();
  });
}

let served: Served;
let port: number;
let token: string;
let stateDir: string;

beforeAll(async () => {
  // Not tmpDir(): that one is cleaned after each test, and this server lives for the file.
  stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-serve-'));
  served = await serveStateDir(stateDir);
  port = served.server.port;
  token = served.server.token;
});
afterAll(async () => {
  await served.close();
  fs.rmSync(stateDir, { recursive: true, force: true });
});

const call = (channel: string, body: unknown, headers: Record<string, string> = {}) =>
  request(port, {
    path: `/api/call/${channel}`,
    method: 'POST',
    headers: { host: `127.0.0.1:${port}`, 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
    body: JSON.stringify(body),
  });

describe('cairn serve security', () => {
  it('listens on 127.0.0.1 only', () => {
    // The socket the OS bound, not the URL the server prints: 0.0.0.0 or :: would accept
    // connections from the network whatever the URL says.
    expect(served.server.address()).toMatchObject({ address: '127.0.0.1', family: 'IPv4', port });
    expect(served.server.url).toBe(`http://127.0.0.1:${port}`);
  });

  it('answers a request with the token', async () => {
    const r = await call('config.get', { request: {} });
    expect(r.status).toBe(200);
    const body = JSON.parse(r.body) as { ok: boolean; value: { defaults: { agents: unknown } } };
    expect(body.ok).toBe(true);
    expect(body.value.defaults.agents).toBeDefined();
  });

  it('refuses a request without a token', async () => {
    const r = await request(port, { path: '/api/call/config.get', method: 'POST', headers: { host: `127.0.0.1:${port}`, 'content-type': 'application/json' }, body: '{}' });
    expect(r.status).toBe(401);
    expect(r.body).toContain('missing token');
  });

  it('refuses a wrong token, in the header, the URL or the cookie', async () => {
    expect((await call('config.get', {}, { authorization: 'Bearer nope' })).status).toBe(401);
    expect((await request(port, { path: '/?token=nope', headers: { host: `127.0.0.1:${port}` } })).status).toBe(401);
    expect((await request(port, { path: '/', headers: { host: `127.0.0.1:${port}`, cookie: 'cairn_token=nope' } })).status).toBe(401);
  });

  it('refuses a foreign Host header even with the right token (DNS rebinding)', async () => {
    const r = await call('config.get', {}, { host: `evil.example:${port}` });
    expect(r.status).toBe(403);
    expect(r.body).toContain('foreign Host');
    const page = await request(port, { path: `/?token=${token}`, headers: { host: 'attacker.test' } });
    expect(page.status).toBe(403);
  });

  it('refuses a foreign Origin even with the right token', async () => {
    const r = await call('config.get', {}, { origin: 'http://evil.example' });
    expect(r.status).toBe(403);
    expect(r.body).toContain('foreign Origin');
    // Its own origin is fine.
    expect((await call('config.get', {}, { origin: `http://127.0.0.1:${port}` })).status).toBe(200);
  });

  it('never sends CORS headers, not even to a preflight', async () => {
    const pre = await request(port, {
      path: '/api/call/config.get',
      method: 'OPTIONS',
      headers: { host: `127.0.0.1:${port}`, origin: 'http://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(pre.status).toBe(403);
    const ok = await call('config.get', {});
    for (const r of [pre, ok]) {
      expect(Object.keys(r.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    }
  });

  it('refuses a non-JSON post (a cross-site form cannot call the API)', async () => {
    const r = await call('config.get', {}, { 'content-type': 'text/plain' });
    expect(r.status).toBe(415);
  });

  it('sets an HttpOnly SameSite=Strict cookie when the token comes in the URL, and the cookie then works', async () => {
    const page = await request(port, { path: `/?token=${token}`, headers: { host: `localhost:${port}` } });
    expect(page.status).toBe(200);
    const cookie = String(page.headers['set-cookie']);
    expect(cookie).toMatch(/cairn_token=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    const again = await request(port, { path: '/', headers: { host: `localhost:${port}`, cookie: `cairn_token=${token}` } });
    expect(again.status).toBe(200);
  });

  it('returns errors as values: an invalid request names the field', async () => {
    const r = await call('config.set', { request: { keyPath: 42 } });
    const body = JSON.parse(r.body) as { ok: boolean; error: { code: string; message: string } };
    expect(body.ok).toBe(false);
    expect(body.error.code).toBe('bad_request');
    expect(body.error.message).toMatch(/config\.set: invalid request: keyPath/);
    const unknown = JSON.parse((await call('no.such', {})).body) as { error: { code: string } };
    expect(unknown.error.code).toBe('unknown_channel');
  });

  it('streams engine events over SSE to an authorised client only', async () => {
    const refused = await request(port, { path: '/api/events', headers: { host: `127.0.0.1:${port}` } });
    expect(refused.status).toBe(401);
    const got = await new Promise<string>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, path: '/api/events', headers: { host: `127.0.0.1:${port}`, cookie: `cairn_token=${token}` } }, (res) => {
        let buf = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          buf += c;
          if (buf.includes(': connected')) served.engine.ctx.warn('test warning from the engine');
          if (buf.includes('event: engine.warning')) {
            req.destroy();
            resolve(buf);
          }
        });
      });
      req.on('error', reject);
      req.end();
    });
    expect(got).toContain('event: engine.warning');
    expect(got).toContain('test warning from the engine');
  });
});
