/**
 * Invalid requests name their fields with a message for a person (issue 14.6), so the UI can
 * mark the field: the real dispatcher of a real engine on a temp state dir.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../electron/engine/engine';
import { tmpDir } from '../helpers/tmp';

let engine: Engine | undefined;
afterEach(async () => {
  await engine?.dispose();
  engine = undefined;
});

describe('field errors', () => {
  it('a value out of range names the field path and says the limit in words', async () => {
    engine = createEngine({ stateDir: tmpDir() });
    const r = await engine.dispatcher.dispatch('prune.preview', { sessionId: 'abc', overrides: { softTrimRatio: 5, keepLastAssistants: 1.5 } });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('bad_request');
    expect(r.error.fields).toEqual(
      expect.arrayContaining([
        { path: 'overrides.softTrimRatio', message: 'must be at most 1' },
        { path: 'overrides.keepLastAssistants', message: expect.stringMatching(/whole number/) },
      ]),
    );
    // The message stays complete for the CLI and logs.
    expect(r.error.message).toMatch(/prune\.preview: invalid request: .*overrides\.softTrimRatio/);
  });
});
