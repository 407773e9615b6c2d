/**
 * OpenClaw 2026.9's key paths and the retired ones of older installs: each setting Cairn reads
 * is read at today's path and at the older one, today's wins where both are set, and
 * Settings writes a cairn.json with old keys back at today's names.
 */
import fs from 'node:fs';
import path from 'node:path';
import JSON5 from 'json5';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../electron/engine/config/load';
import { setConfigKey } from '../../electron/engine/config/edit';
import { memorySearchSettings } from '../../electron/engine/config/memory-search';
import { resolveAgentWorkspace } from '../../electron/engine/config/workspace';
import { listAgentIds } from '../../electron/engine/config/state-dir';
import { openClawModel } from '../../electron/engine/llm/openclaw-model';
import { tmpDir, writeTree } from '../helpers/tmp';

function load(files: Record<string, unknown>) {
  const dir = writeTree(tmpDir('cairn-legacy-'), Object.fromEntries(Object.entries(files).map(([k, v]) => [k, JSON.stringify(v)])));
  return { dir, ...loadConfig(dir) };
}

describe('memory search settings', () => {
  it('are read at memory.search (today), agents.defaults.memorySearch and top-level memorySearch (older)', () => {
    for (const config of [
      { memory: { search: { sources: ['memory', 'sessions'] } } },
      { agents: { defaults: { memorySearch: { sources: ['memory', 'sessions'] } } } },
      { memorySearch: { sources: ['memory', 'sessions'] } },
    ]) {
      const loaded = load({ 'openclaw.json': config });
      expect(memorySearchSettings(loaded.config).sources, JSON.stringify(config)).toEqual(['memory', 'sessions']);
      expect(loaded.warnings).toEqual([]);
    }
  });

  it('today\'s memory.search wins key by key over the older paths, and the older path is named in a note', () => {
    const loaded = load({
      'openclaw.json': {
        memorySearch: { provider: 'openai', query: { maxResults: 3 } },
        agents: { defaults: { memorySearch: { sources: ['memory', 'sessions'], query: { maxResults: 4, minScore: 0.2 } } } },
        memory: { search: { query: { maxResults: 9 } } },
      },
    });
    const s = memorySearchSettings(loaded.config);
    expect(s.query.maxResults).toBe(9);
    expect(s.query.minScore).toBe(0.2);
    expect(s.sources).toEqual(['memory', 'sessions']);
    expect(s.provider).toBe('openai');
    const notes = (loaded.notes ?? []).map((n) => n.message).join('\n');
    expect(notes).toMatch(/agents\.defaults\.memorySearch is OpenClaw's older name .*read as memory\.search/);
    expect(notes).toMatch(/memorySearch is OpenClaw's older name/);
  });

  it('a later file wins even when it uses the older name (cairn.json over openclaw.json)', () => {
    const loaded = load({
      'openclaw.json': { memory: { search: { sources: ['memory'] } }, agents: { entries: { main: {} } } },
      'cairn.json': { agents: { defaults: { memorySearch: { sources: ['memory', 'sessions'] } } } },
    });
    expect(memorySearchSettings(loaded.config).sources).toEqual(['memory', 'sessions']);
  });

  it('per agent: agents.entries.<id>.memory.search (today), .memorySearch and agents.list[].memorySearch (older); today wins', () => {
    for (const agents of [
      { entries: { work: { memory: { search: { sources: ['memory', 'sessions'] } } } } },
      { entries: { work: { memorySearch: { sources: ['memory', 'sessions'] } } } },
      { list: [{ id: 'main' }, { id: 'work', memorySearch: { sources: ['memory', 'sessions'] } }] },
    ]) {
      const { config } = load({ 'openclaw.json': { agents } });
      expect(memorySearchSettings(config, 'work').sources, JSON.stringify(agents)).toEqual(['memory', 'sessions']);
      expect(memorySearchSettings(config, 'main').sources).toEqual(['memory']);
    }
    const both = load({
      'openclaw.json': {
        agents: {
          list: [{ id: 'work', memorySearch: { query: { maxResults: 2 } }, workspace: '/old' }],
          entries: { work: { memory: { search: { query: { maxResults: 7 } } }, workspace: '/today' } },
        },
      },
    });
    expect(memorySearchSettings(both.config, 'work').query.maxResults).toBe(7);
    expect(both.config.agents.entries.work?.workspace).toBe('/today');
  });
});

describe('agents, workspaces and models', () => {
  it('the roster is read from agents.entries (today) and agents.list (older); workspaces follow either', () => {
    const root = tmpDir('cairn-legacy-ws-');
    fs.mkdirSync(path.join(root, 'w'));
    for (const agents of [
      { entries: { main: { default: true }, work: { workspace: path.join(root, 'w') } } },
      { list: [{ id: 'main', default: true }, { id: 'work', workspace: path.join(root, 'w') }] },
    ]) {
      const { dir, config } = load({ 'openclaw.json': { agents } });
      expect(listAgentIds(dir, config)).toEqual(['main', 'work']);
      expect(resolveAgentWorkspace(dir, config, 'work').workspace).toBe(path.join(root, 'w'));
    }
  });

  it('agents.defaults.workspace, compaction and contextPruning are read at their (unchanged) paths', () => {
    const { config, warnings } = load({
      'openclaw.json': { agents: { defaults: { workspace: '/ws', compaction: { keepRecentTokens: 1234 }, contextPruning: { ttl: '9m' } } } },
    });
    expect(warnings).toEqual([]);
    expect(config.agents.defaults.workspace).toBe('/ws');
    expect(config.agents.defaults.compaction.keepRecentTokens).toBe(1234);
    expect(config.agents.defaults.contextPruning.ttl).toBe('9m');
  });

  it('the chat model is read at agents.defaults.model (today) and top-level defaultModel (older); today wins', () => {
    expect(openClawModel(load({ 'openclaw.json': { agents: { defaults: { model: { primary: 'openai/gpt-x' } } } } }).config)?.source).toContain('openai/gpt-x');
    expect(openClawModel(load({ 'openclaw.json': { defaultModel: 'openai/gpt-old' } }).config)?.source).toContain('openai/gpt-old');
    expect(openClawModel(load({ 'openclaw.json': { defaultModel: 'openai/gpt-old', agents: { defaults: { model: 'openai/gpt-x' } } } }).config)?.source).toContain('openai/gpt-x');
  });
});

describe('Settings writes today\'s keys', () => {
  it('a change migrates a cairn.json written with the older names; an older key path is set at today\'s', () => {
    const dir = writeTree(tmpDir('cairn-legacy-edit-'), {
      'cairn.json': JSON.stringify({
        agents: { defaults: { memorySearch: { provider: 'none', sources: ['memory', 'sessions'] } }, list: [{ id: 'work', memorySearch: { extraPaths: ['x'] } }] },
        memory: { search: { provider: 'local' } },
      }),
    });
    setConfigKey(dir, 'agents.defaults.memorySearch.query.maxResults', 8);
    const written = JSON5.parse(fs.readFileSync(path.join(dir, 'cairn.json'), 'utf8')) as Record<string, unknown>;
    expect(written).toEqual({
      agents: { defaults: {}, entries: { work: { memory: { search: { extraPaths: ['x'] } } } } },
      memory: { search: { provider: 'local', sources: ['memory', 'sessions'], query: { maxResults: 8 } } },
    });
    const loaded = loadConfig(dir);
    expect(loaded.notes).toEqual([]);
    expect(memorySearchSettings(loaded.config).query.maxResults).toBe(8);
    expect(memorySearchSettings(loaded.config, 'work').extraPaths).toEqual(['x']);
  });
});
