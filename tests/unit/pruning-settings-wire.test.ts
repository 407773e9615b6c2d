/**
 * prune.preview carries the effective pruning settings typed end to end (issue 11.5): every
 * default filled in by the engine's schema, the config's values and the request's overrides
 * applied, so the Sessions page shows them without a second copy of the defaults.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ContextPruningSchema } from '../../electron/engine/config/schema';
import { createEngine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import type { ContextPruningSettings } from '../../shared/types/pruning';
import { copyFixture, FIXTURE_SESSION_ID } from '../helpers/fixtures';

describe('prune.preview settings', () => {
  it('are the schema defaults plus the config and the overrides', async () => {
    const { stateDir } = copyFixture();
    fs.writeFileSync(path.join(stateDir, 'cairn.json'), JSON.stringify({ agents: { defaults: { contextPruning: { ttl: '1h', softTrim: { maxChars: 9000 } } } } }));
    const engine = createEngine({ stateDir });
    try {
      const r = await createDirectClient(engine)['prune.preview']({ sessionId: FIXTURE_SESSION_ID, overrides: { keepLastAssistants: 5 } });
      const expected: ContextPruningSettings = ContextPruningSchema.parse({ ttl: '1h', softTrim: { maxChars: 9000 }, keepLastAssistants: 5 });
      expect(r.settings).toEqual(expected);
      expect(r.settings).toMatchObject({ mode: 'cache-ttl', ttl: '1h', softTrimRatio: 0.3, hardClearRatio: 0.5, keepLastAssistants: 5 });
      expect(r.settings.softTrim).toEqual({ maxChars: 9000, headChars: 1500, tailChars: 1500 });
    } finally {
      await engine.dispose();
    }
  });
});
