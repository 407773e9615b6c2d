/** `cairn mcp`: an MCP server over stdio with memory_search and memory_get (SPEC §8). */
import type { Command } from 'commander';
import type { CliRuntime, GlobalOptions } from '../runtime';

export function register(program: Command, rt: CliRuntime): void {
  program
    .command('mcp')
    .description('run an MCP server on stdio with the memory_search and memory_get tools')
    .option('--agent <id>', 'agent id (default: main)')
    .action(async (opts: { agent?: string }) => {
      const o = { ...program.opts<GlobalOptions>(), ...opts };
      const { serveMcpStdio } = await import('../mcp-server');
      await serveMcpStdio(await rt.engine(o), o.agent);
    });
}
