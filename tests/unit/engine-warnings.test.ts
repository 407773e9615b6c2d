/**
 * Engine warnings: each message is held once for Status and announced once as
 * `engine.warning` — a repeat (a watcher or config warning recurring on every call) is not
 * news, and emitting it again made the Status page reload on each repeat.
 */
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../electron/engine/engine';
import { tmpDir } from '../helpers/tmp';

describe('engine warnings', () => {
  it('announces a warning once, however often it recurs, and a new one again', async () => {
    const engine = createEngine({ stateDir: tmpDir(), deps: { env: {} } });
    const got: string[] = [];
    const off = engine.events.on('engine.warning', (p) => got.push(p.message));
    try {
      engine.ctx.warn('memory watcher: too many files');
      engine.ctx.warn('memory watcher: too many files');
      engine.ctx.warn('memory watcher: too many files');
      engine.ctx.warn('qmd: not installed');
      expect(got).toEqual(['memory watcher: too many files', 'qmd: not installed']);
      expect(engine.ctx.warnings().filter((w) => w.startsWith('memory watcher') || w.startsWith('qmd:'))).toEqual(got);
    } finally {
      off();
      await engine.dispose();
    }
  });
});
