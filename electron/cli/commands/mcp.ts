/**
 * `cairn mcp`: an MCP server with memory_search, memory_get and the memory files as resources
 * (SPEC §8), over stdio, or with `--http` over Streamable HTTP on 127.0.0.1 behind the state
 * dir's token (the URL it prints carries it).
 */
import type { Command } from 'commander';
import { UsageError, type CliRuntime, type GlobalOptions } from '../runtime';

interface McpOptions extends GlobalOptions {
  agent?: string;
  http?: boolean;
  port?: string;
}

export function register(program: Command, rt: CliRuntime): void {
  program
    .command('mcp')
    .description('run an MCP server (memory_search, memory_get, memory files as resources) on stdio, or with --http on 127.0.0.1')
    .option('--agent <id>', 'agent id (default: main)')
    .option('--http', 'serve Streamable HTTP on 127.0.0.1 instead of stdio; prints the URL (with its token)')
    .option('--port <n>', 'with --http: the port (default: a free one)')
    .action(async (opts: McpOptions) => {
      const o = { ...program.opts<GlobalOptions>(), ...opts };
      if (!o.http) {
        if (o.port !== undefined) throw new UsageError('--port needs --http');
        const { serveMcpStdio } = await import('../mcp/server');
        await serveMcpStdio(await rt.engine(o), o.agent);
        return;
      }
      const port = o.port === undefined ? 0 : Number(o.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port: expected 0-65535, got ${JSON.stringify(o.port)}`);
      const { serveMcpHttp } = await import('../mcp/http');
      await serveMcpHttp(await rt.engine(o), { agent: o.agent, port, signal: rt.signal, print: (line) => rt.stdout(line) });
    });
}
