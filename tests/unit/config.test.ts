import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../electron/engine/config/load';
import { defaultConfig } from '../../electron/engine/config/schema';
import { openStateDir, resolveStateDir, setStateDirWritable } from '../../electron/engine/config/state-dir';
import { setConfigKey } from '../../electron/engine/config/edit';
import { tmpDir, writeTree } from '../helpers/tmp';

describe('config defaults', () => {
  it('has every SPEC default', () => {
    const c = defaultConfig();
    const d = c.agents.defaults;
    expect(d.compaction.reserveTokensFloor).toBe(20000);
    expect(d.compaction.keepRecentTokens).toBe(20000);
    expect(d.compaction.maxHistoryShare).toBe(0.5);
    expect(d.compaction.identifierPolicy).toBe('strict');
    expect(d.compaction.timeoutSeconds).toBe(900);
    expect(d.compaction.memoryFlush).toMatchObject({ enabled: true, softThresholdTokens: 4000, forceFlushTranscriptBytes: 2 * 1024 * 1024 });
    expect(d.contextPruning).toMatchObject({
      mode: 'cache-ttl',
      ttl: '5m',
      keepLastAssistants: 3,
      softTrimRatio: 0.3,
      hardClearRatio: 0.5,
      minPrunableToolChars: 50000,
      softTrim: { maxChars: 4000, headChars: 1500, tailChars: 1500 },
      hardClear: { enabled: true, placeholder: '[Old tool result content cleared]' },
      tools: { allow: [], deny: [] },
    });
    const q = defaultConfig().memory.search.query;
    expect(q).toMatchObject({ maxResults: 6, minScore: 0.1 });
    expect(q.hybrid).toMatchObject({ enabled: true, candidateMultiplier: 4, temporalDecay: { enabled: false, halfLifeDays: 30 }, mmr: { enabled: false, lambda: 0.7 } });
    expect(defaultConfig().memory.search.chunking).toEqual({ tokens: 400, overlap: 80 });
    expect(defaultConfig().memory.search.sync.watchDebounceMs).toBe(1500);
  });
});

describe('loadConfig', () => {
  it('keeps valid keys, and a bad value falls back to its default with a warning naming the key', () => {
    const dir = writeTree(tmpDir(), {
      'cairn.json': `{
        // JSON5: comments and trailing commas are fine
        agents: { defaults: { compaction: { reserveTokensFloor: "lots", keepRecentTokens: 12345, }, }, },
      }`,
    });
    const { config, warnings } = loadConfig(dir);
    expect(config.agents.defaults.compaction.reserveTokensFloor).toBe(20000);
    expect(config.agents.defaults.compaction.keepRecentTokens).toBe(12345);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.keyPath).toBe('agents.defaults.compaction.reserveTokensFloor');
    expect(warnings[0]?.message).toContain('"lots"');
    expect(warnings[0]?.message).toMatch(/number/);
  });

  it('names the allowed range for out-of-range numbers', () => {
    const dir = writeTree(tmpDir(), { 'cairn.json': '{"agents":{"defaults":{"contextPruning":{"softTrimRatio":1.5}}}}' });
    const { config, warnings } = loadConfig(dir);
    expect(config.agents.defaults.contextPruning.softTrimRatio).toBe(0.3);
    expect(warnings[0]?.keyPath).toBe('agents.defaults.contextPruning.softTrimRatio');
    expect(warnings[0]?.message).toMatch(/1\.5.*<=\s*1|less than or equal to 1/i);
  });

  it('reports a truncated file with line and column, and runs on defaults', () => {
    const dir = writeTree(tmpDir(), { 'cairn.json': '{\n  "agents": {\n    "defaults": {\n      "contextTokens": 1000' });
    const { config, warnings } = loadConfig(dir);
    expect(config).toEqual(defaultConfig());
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toMatch(/cairn\.json: line 4, column \d+/);
  });

  it('reads openclaw.json too, and cairn.json wins; unknown OpenClaw keys are kept', () => {
    const dir = writeTree(tmpDir(), {
      'openclaw.json': '{ gateway: { port: 18789 }, agents: { defaults: { contextTokens: 64000, compaction: { keepRecentTokens: 111 } } } }',
      'cairn.json': '{ agents: { defaults: { compaction: { keepRecentTokens: 222 } } } }',
    });
    const { config, warnings, files } = loadConfig(dir);
    expect(warnings).toEqual([]);
    expect(files.map((f) => path.basename(f))).toEqual(['openclaw.json', 'cairn.json']);
    expect(config.agents.defaults.contextTokens).toBe(64000);
    expect(config.agents.defaults.compaction.keepRecentTokens).toBe(222);
    expect((config as Record<string, unknown>).gateway).toEqual({ port: 18789 });
  });
});

describe('state dir', () => {
  it('resolves --state-dir, then CAIRN_STATE_DIR, then ~/.cairn', () => {
    expect(resolveStateDir({ flag: '/a/b', env: { CAIRN_STATE_DIR: '/c' } })).toBe('/a/b');
    expect(resolveStateDir({ env: { CAIRN_STATE_DIR: '/c' } })).toBe('/c');
    expect(resolveStateDir({ env: {}, home: '/home/u' })).toBe('/home/u/.cairn');
  });

  it('creates the layout on first run and is writable', () => {
    const dir = path.join(tmpDir(), 'state');
    const info = openStateDir(dir);
    expect(info).toMatchObject({ created: true, writable: true, createdBy: 'cairn' });
    expect(fs.existsSync(path.join(dir, 'workspace', 'MEMORY.md'))).toBe(true);
    expect(fs.statSync(path.join(dir, 'workspace', 'memory')).isDirectory()).toBe(true);
    expect(fs.statSync(path.join(dir, 'agents', 'main', 'sessions')).isDirectory()).toBe(true);
    expect(openStateDir(dir)).toMatchObject({ created: false, writable: true, createdBy: 'cairn' });
  });

  it('opens a directory Cairn did not create read-only, without writing into it, until enabled', () => {
    const dir = writeTree(tmpDir(), { 'openclaw.json': '{}', 'workspace/MEMORY.md': '# mine\n' });
    const before = fs.readdirSync(dir).sort();
    expect(openStateDir(dir)).toMatchObject({ created: false, writable: false, createdBy: 'external' });
    expect(fs.readdirSync(dir).sort()).toEqual(before);
    setStateDirWritable(dir, true);
    expect(openStateDir(dir)).toMatchObject({ writable: true, createdBy: 'external' });
  });
});

describe('setConfigKey', () => {
  it('writes a valid value atomically and refuses an invalid one, leaving the file as it was', () => {
    const dir = tmpDir();
    setConfigKey(dir, 'agents.defaults.contextPruning.ttl', '10m');
    expect(loadConfig(dir).config.agents.defaults.contextPruning.ttl).toBe('10m');
    const before = fs.readFileSync(path.join(dir, 'cairn.json'), 'utf8');
    expect(() => setConfigKey(dir, 'agents.defaults.contextPruning.ttl', 'soon')).toThrow(/agents\.defaults\.contextPruning\.ttl/);
    expect(fs.readFileSync(path.join(dir, 'cairn.json'), 'utf8')).toBe(before);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
