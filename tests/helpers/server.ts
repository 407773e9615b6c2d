/** Start a real engine + `cairn serve` server on a temp state dir, for e2e and server tests. */
import path from 'node:path';
import { createEngine, type Engine } from '../../electron/engine/engine';
import type { EngineDeps } from '../../electron/engine/core/context';
import { startServer, type RunningServer } from '../../electron/server/server';

export const RENDERER_DIR = path.resolve(__dirname, '..', '..', 'dist', 'renderer');

export interface Served {
  engine: Engine;
  server: RunningServer;
  close(): Promise<void>;
}

export async function serveStateDir(stateDir: string, deps?: EngineDeps): Promise<Served> {
  const engine = createEngine({ stateDir, deps });
  const server = await startServer({ dispatcher: engine.dispatcher, events: engine.events, staticDir: RENDERER_DIR });
  return {
    engine,
    server,
    async close() {
      await server.close();
      await engine.dispose();
    },
  };
}
