/**
 * `cairn serve`: the UI and the contract on 127.0.0.1 behind a token kept per state dir in a
 * private file (server/token-file.ts), so a restart on the same port keeps open windows working.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import type { CliRuntime, GlobalOptions } from '../runtime';
import { UsageError } from '../runtime';

/** dist/renderer, found from this file whether run from source or from a bundle. */
export function rendererDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return path.resolve(here, '..', '..', '..', 'dist', 'renderer');
}

interface ServeOptions extends GlobalOptions {
  port?: string;
  open?: boolean;
}

export function register(program: Command, rt: CliRuntime): void {
  program
    .command('serve')
    .description('serve the Cairn UI on 127.0.0.1 (token-protected) for a browser')
    .option('--port <n>', 'port (default: a free one)')
    .option('--open', 'open the UI in Chromium app mode if available')
    .action(async (opts: ServeOptions) => {
      const o = { ...program.opts<GlobalOptions>(), ...opts };
      const port = o.port === undefined ? 0 : Number(o.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port: expected 0-65535, got ${JSON.stringify(o.port)}`);
      // A host, not a single engine: the window can open another state dir without a restart.
      const first = await rt.engine(o);
      const stateDir = first.ctx.stateDir;
      const { createdBy } = first.ctx.state();
      await first.dispose();
      const [{ startServer }, { openInChromiumApp }, { createEngineHost }, { loadOrCreateToken, tokenFilePath }, { hostMcpRoute, MCP_PATH }, { publishEngine }] = await Promise.all([
        import('../../server/server'),
        import('../../server/open-browser'),
        import('../../engine/host'),
        import('../../server/token-file'),
        import('../mcp/http'),
        import('../../server/engine-record'),
      ]);
      const host = createEngineHost({ stateDir, deps: rt.deps, create: false });
      // The token stays the first dir's for the whole run: open windows keep working after a switch.
      const token = loadOrCreateToken(tokenFilePath(stateDir, createdBy));
      // /mcp follows the window: a switch of state dir serves the new engine's memory there too.
      const mcp = hostMcpRoute(host);
      const server = await startServer({ dispatcher: host.dispatcher, events: host.events, staticDir: rendererDir(), port, token, mcp });
      // Found by `cairn search` (bin/thin-client.mjs), which then asks this engine.
      const record = publishEngine(host, { port: server.port, token, recordDir: (dir, by) => path.dirname(tokenFilePath(dir, by)) });
      rt.stdout(`Cairn is serving ${stateDir}`);
      rt.stdout(`Open: ${server.openUrl}`);
      rt.stdout(`MCP: ${server.url}${MCP_PATH}?token=${token}`);
      let closeBrowser: (() => Promise<void>) | undefined;
      if (o.open) {
        const r = openInChromiumApp(server.openUrl, path.join(host.current().ctx.state().cairnDir, 'chromium-profile'));
        rt.stdout(r.opened ? r.reason : `Not opened (${r.reason}); open the URL above in a browser.`);
        closeBrowser = r.close;
      }
      await new Promise<void>((resolve) => {
        const stop = () => resolve();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
        rt.signal.addEventListener('abort', stop, { once: true });
      });
      rt.stderr('Stopping…');
      // The window we opened goes with the server: left open it would only show "Disconnected".
      await closeBrowser?.();
      record.close();
      await mcp.close();
      await server.close();
      await host.dispose();
    });
}
