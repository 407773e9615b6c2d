/**
 * The one redaction module (issue 10 item 8) over the common key formats, and its three
 * users: config warnings, the deterministic compaction extract and the sessions index text.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../electron/engine/config/load';
import { buildExtract } from '../../electron/engine/compaction/extract';
import { renderSession } from '../../electron/engine/index/session-text';
import { redactSecrets } from '../../electron/engine/util/redact';
import { isSecretKey } from '../../shared/secret-keys';
import { tmpDir } from '../helpers/tmp';

// Realistic shapes, not real keys (AWS's documented examples where there are some).
const SECRETS: Record<string, string> = {
  openai: 'sk-abcdefghijklmnopqrstuvwxyz0123456789ABCD',
  openaiProject: 'sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z_AbC-dEf',
  anthropic: 'sk-ant-api03-Zx9yW8vU7tS6rQ5pO4nM3lK2jI1hG0fE-dCbA_98765',
  awsAccess: 'AKIAIOSFODNN7EXAMPLE',
  awsSecretBare: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  github: 'ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8',
  githubPat: 'github_pat_11ABCDEFG0abcdefghijkl_mnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUV',
  slack: 'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx',
  google: 'AIzaSyA-1234567890abcdefghijklmnopqrstu',
  jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
};

describe('redactSecrets', () => {
  it.each(Object.entries(SECRETS))('removes a %s key wherever it sits in text', (_name, secret) => {
    const out = redactSecrets(`here it is: ${secret} — keep it safe`);
    expect(out).not.toContain(secret);
    expect(out).toContain('[REDACTED]');
    expect(out).toMatch(/^here it is: .* — keep it safe$/);
  });

  it('keeps the label of Bearer headers, key=value pairs, URL passwords and PEM blocks readable', () => {
    expect(redactSecrets('Authorization: Bearer abc.def-ghi_jkl123456')).toBe('Authorization: Bearer [REDACTED]');
    expect(redactSecrets('aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY')).toBe('aws_secret_access_key = [REDACTED]');
    expect(redactSecrets('DB_PASSWORD=hunter2hunter2 next')).toBe('DB_PASSWORD=[REDACTED] next');
    expect(redactSecrets('postgres://ana:s3cr3t-pw@db.internal:5432/billing')).toBe('postgres://ana:[REDACTED]@db.internal:5432/billing');
    expect(redactSecrets('https://x.test/cb?token=abcdef123456&x=1')).toBe('https://x.test/cb?token=[REDACTED]&x=1');
    const pem = '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\nabc\n-----END RSA PRIVATE KEY-----';
    expect(redactSecrets(`key:\n${pem}\nend`)).toBe('key:\n[REDACTED]\nend');
  });

  it('leaves identifiers alone: git SHAs, UUIDs, paths, ports, ordinary prose', () => {
    const text = 'commit 9fceb02d0ae598e95dc970b74767f19372d61af8 in src/db/pool.ts on port 5432, run 3f2b7c1e-8a4d-4e0f-9b6a-1c2d3e4f5a6b; the token budget is 4000';
    expect(redactSecrets(text)).toBe(text);
  });

  it('knows which config keys hold credentials', () => {
    for (const k of ['memorySearch.remote.apiKey', 'memorySearch.remote.headers', 'memorySearch.remote.headers.Authorization', 'llm.anthropic.token', 'x.password']) expect(isSecretKey(k)).toBe(true);
    for (const k of ['agents.defaults.compaction.reserveTokens', 'memorySearch.remote.baseUrl', 'memorySearch.provider']) expect(isSecretKey(k)).toBe(false);
  });
});

describe('the users of the one module', () => {
  it('config warnings never echo a header or key value', () => {
    const dir = tmpDir();
    fs.writeFileSync(
      path.join(dir, 'cairn.json'),
      JSON.stringify({ agents: { defaults: { memorySearch: { remote: { headers: 'Authorization: Bearer abcdefghijklmnop123456', apiKey: 12345678901234 } } } } }),
    );
    const { warnings } = loadConfig(dir);
    const text = warnings.map((w) => w.message).join('\n');
    expect(warnings.length).toBeGreaterThan(0);
    expect(text).toContain('headers = [REDACTED] (string) is not allowed');
    expect(text).not.toContain('abcdefghijklmnop123456');
    expect(text).not.toContain('12345678901234');
  });

  it('the deterministic extract does not copy secrets into the summary', () => {
    const out = buildExtract({
      messages: [
        { role: 'user', content: `Deploy with OPENAI_API_KEY=${SECRETS.openai} and AWS secret ${SECRETS.awsSecretBare}; we decided to use postgres://ana:s3cr3t-pw@db.internal:5432/billing` },
        { role: 'assistant', content: [{ type: 'text', text: `Noted, token ${SECRETS.github}.` }] },
      ],
      tokens: 100,
      reason: 'no model configured',
    });
    for (const s of [SECRETS.openai, SECRETS.awsSecretBare, SECRETS.github, 's3cr3t-pw']) expect(out).not.toContain(s);
    expect(out).toContain('postgres://ana:[REDACTED]@db.internal:5432/billing');
  });

  it('the sessions index text redacts an unlabelled AWS secret key', () => {
    const { lines } = renderSession([
      JSON.stringify({ type: 'session', version: 3, id: 's', timestamp: '2025-03-01T00:00:00.000Z', cwd: '/' }),
      JSON.stringify({ type: 'message', id: 'a1', parentId: null, timestamp: '2025-03-01T00:00:01.000Z', message: { role: 'user', content: `the secret is ${SECRETS.awsSecretBare}` } }),
    ].join('\n'));
    expect(lines.map((l) => l.text).join('\n')).toBe('User: the secret is [REDACTED]');
  });
});
