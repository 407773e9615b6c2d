/**
 * The Settings form is generated from the engine's config JSON Schema: every key of the real
 * schema gets exactly one field, in the section a user looks for it, with the right input.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigSchema, defaultConfig } from '../../electron/engine/config/schema';
import { collectFields, fromText, getIn, sectionsOf, toText, type JsonSchema } from '../../renderer/src/pages/settings/schema-fields';

const schema = z.toJSONSchema(ConfigSchema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;

describe('Settings form from the config schema', () => {
  it('has one field per config key, each in one section', () => {
    const fields = collectFields(schema);
    const keys = fields.map((f) => f.keyPath);
    expect(new Set(keys).size).toBe(keys.length);
    for (const k of [
      'agents.defaults.compaction.reserveTokensFloor',
      'agents.defaults.compaction.memoryFlush.softThresholdTokens',
      'agents.defaults.contextPruning.ttl',
      'agents.defaults.contextPruning.softTrim.maxChars',
      'memory.search.query.hybrid.mmr.lambda',
      'memory.qmd.timeoutMs',
      'cairn.llm.provider',
    ]) {
      expect(keys).toContain(k);
    }
    const sections = sectionsOf(schema);
    expect(sections.flatMap((s) => s.fields).length).toBe(fields.length);
    const where = (k: string) => sections.find((s) => s.fields.some((f) => f.keyPath === k))?.title;
    expect(where('agents.defaults.compaction.memoryFlush.enabled')).toBe('Memory flush');
    expect(where('agents.defaults.compaction.keepRecentTokens')).toBe('Compaction');
    expect(where('agents.defaults.contextPruning.hardClear.placeholder')).toBe('Pruning');
    expect(where('memory.search.provider')).toBe('Memory search');
    expect(where('memory.qmd.command')).toBe('QMD');
    expect(where('cairn.llm.baseUrl')).toBe('Model');
  });

  it('picks the input from the type and shows the allowed range', () => {
    const byKey = new Map(collectFields(schema).map((f) => [f.keyPath, f]));
    expect(byKey.get('agents.defaults.contextPruning.mode')?.kind).toBe('enum');
    expect(byKey.get('agents.defaults.contextPruning.mode')?.options).toEqual(['cache-ttl', 'off']);
    expect(byKey.get('agents.defaults.compaction.memoryFlush.enabled')?.kind).toBe('boolean');
    expect(byKey.get('agents.defaults.contextPruning.keepLastAssistants')?.kind).toBe('integer');
    expect(byKey.get('agents.defaults.contextPruning.softTrimRatio')?.hint).toBe('≥ 0 and ≤ 1');
    expect(byKey.get('agents.defaults.contextPruning.ttl')?.hint).toContain('duration');
    expect(byKey.get('memory.search.sources')?.kind).toBe('enum-list');
    expect(byKey.get('agents.defaults.contextPruning.tools.deny')?.kind).toBe('string-list');
    expect(byKey.get('cairn.llm.apiKey')?.secret).toBe(true);
    expect(byKey.get('cairn.llm.maxOutputTokens')?.secret).toBe(false);
  });

  it('round-trips values between the inputs and what config.set receives', () => {
    const d = defaultConfig();
    expect(getIn(d, 'agents.defaults.contextPruning.softTrimRatio')).toBe(0.3);
    expect(toText('string-list', ['a', 'b'])).toBe('a\nb');
    expect(fromText('string-list', 'read\n\n web_* \n')).toEqual({ value: ['read', 'web_*'] });
    expect(fromText('number', '0.4')).toEqual({ value: 0.4 });
    expect(fromText('integer', 'lots')).toEqual({ error: 'not a number: "lots"' });
    expect(fromText('integer', '')).toEqual({ value: undefined });
    expect(fromText('boolean', 'false')).toEqual({ value: false });
    expect(fromText('enum-list', '["memory","sessions"]')).toEqual({ value: ['memory', 'sessions'] });
    expect('error' in fromText('json', '{bad')).toBe(true);
  });
});
