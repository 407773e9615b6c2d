/**
 * One rule for "this setting holds a secret" (issue 29 item 6): the Settings page masks
 * exactly the keys whose values the engine redacts. Before, the page had its own pattern and
 * showed `password`, `authorization` and `headers` in clear. The field is rendered to HTML
 * with React's server renderer (the real component), and the engine's message redaction is
 * asked about the same keys.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigSchema } from '../../electron/engine/config/schema';
import { describeSafely, REDACTED } from '../../electron/engine/util/redact';
import { FieldInput } from '../../renderer/src/pages/settings/FieldInput';
import { collectFields, type FieldSpec, type JsonSchema } from '../../renderer/src/pages/settings/schema-fields';
import { isSecretKey } from '../../shared/secret-keys';

const redactedByEngine = (keyPath: string) => describeSafely(keyPath, 'hunter2', String).startsWith(REDACTED);

function html(field: FieldSpec, value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return renderToStaticMarkup(createElement(FieldInput, { field, id: 'f', describedBy: 'd', text, current: value, def: undefined, invalid: false, onText: () => {}, commit: async () => {} }));
}

describe('the secret-setting rule', () => {
  const schema: JsonSchema = {
    type: 'object',
    properties: {
      db: { type: 'object', properties: { password: { type: 'string' }, user: { type: 'string' } } },
      proxy: { type: 'object', properties: { authorization: { type: 'string' }, headers: { type: 'object', additionalProperties: { type: 'string' } } } },
      llm: { type: 'object', properties: { apiKey: { type: 'string' }, clientSecret: { type: 'string' }, maxOutputTokens: { type: 'integer' } } },
    },
  };
  const byKey = new Map(collectFields(schema).map((f) => [f.keyPath, f]));

  it('Settings masks password, authorization and headers fields, as the engine redacts them', () => {
    for (const k of ['db.password', 'proxy.authorization', 'proxy.headers', 'llm.apiKey', 'llm.clientSecret']) {
      const f = byKey.get(k) as FieldSpec;
      expect([k, f.secret]).toEqual([k, true]);
      expect([k, redactedByEngine(k)]).toEqual([k, true]);
      const out = html(f, f.kind === 'json' ? { Authorization: 'Bearer hunter2' } : 'hunter2');
      expect(out).toContain('type="password"');
      expect(out).not.toContain('<textarea');
    }
    for (const k of ['db.user', 'llm.maxOutputTokens']) {
      expect([k, byKey.get(k)?.secret]).toEqual([k, false]);
      expect([k, redactedByEngine(k)]).toEqual([k, false]);
    }
    // A header under `headers` is a secret whatever its name.
    expect(isSecretKey('proxy.headers.X-Trace')).toBe(true);
  });

  it('on the real config schema the page and the engine agree on every key', () => {
    const real = z.toJSONSchema(ConfigSchema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
    const fields = collectFields(real);
    for (const f of fields) expect([f.keyPath, f.secret]).toEqual([f.keyPath, redactedByEngine(f.keyPath)]);
    expect(fields.filter((f) => f.secret).map((f) => f.keyPath)).toEqual(expect.arrayContaining(['memory.search.remote.headers', 'cairn.llm.apiKey']));
  });
});
