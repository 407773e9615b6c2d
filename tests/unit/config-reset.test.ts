/** Resetting a setting removes it from cairn.json without leaving empty objects behind (issue 14.13). */
import fs from 'node:fs';
import path from 'node:path';
import JSON5 from 'json5';
import { describe, expect, it } from 'vitest';
import { setConfigKey } from '../../electron/engine/config/edit';
import { tmpDir } from '../helpers/tmp';

describe('config reset', () => {
  it('drops emptied parents and keeps everything else', () => {
    const dir = tmpDir();
    setConfigKey(dir, 'agents.defaults.contextPruning.softTrimRatio', 0.4);
    setConfigKey(dir, 'agents.defaults.compaction.reserveTokensFloor', 30000);
    const read = () => JSON5.parse(fs.readFileSync(path.join(dir, 'cairn.json'), 'utf8')) as { agents: { defaults: { contextPruning?: { softTrimRatio?: number }; compaction?: { reserveTokensFloor?: number } } } };
    expect(read().agents.defaults.contextPruning?.softTrimRatio).toBe(0.4);
    setConfigKey(dir, 'agents.defaults.contextPruning.softTrimRatio', undefined);
    expect(read()).toEqual({ agents: { defaults: { compaction: { reserveTokensFloor: 30000 } } } });
    setConfigKey(dir, 'agents.defaults.compaction.reserveTokensFloor', undefined);
    expect(read()).toEqual({});
  });
});
