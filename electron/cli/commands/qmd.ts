/**
 * `cairn qmd [status|update]`: the QMD backend (SPEC §9) from the command line — which
 * backend serves searches, the agent's QMD collections, last refresh and failures; `update`
 * repairs the collections and runs `qmd update` (+ `qmd embed`) now, waiting for it to end
 * (a search waits at most 60 s for QMD's first build).
 */
import type { Command } from 'commander';
import type { QmdStatus } from '../../../shared/types/qmd';
import { UsageError, type CliRuntime, type GlobalOptions } from '../runtime';

interface QmdOptions extends GlobalOptions {
  agent?: string;
}

/** Human-readable status. */
export function formatQmdStatus(s: QmdStatus): string {
  const lines = [`backend: ${s.backend}${s.backend === 'qmd' ? ` (command: ${s.command}, mode: ${s.searchMode})` : ' (QMD is off: set memory.backend to "qmd")'}`];
  const a = s.agent;
  if (!a) return lines.join('\n');
  lines.push(`home: ${a.home}`);
  lines.push(a.collections.length ? 'collections:' : 'collections: none (memory.qmd.includeDefaultMemory and sessions are off)');
  for (const c of a.collections) lines.push(`  ${c.name.padEnd(12)} ${c.source.padEnd(8)} ${c.path}  ${c.pattern}`);
  lines.push(`last update: ${a.lastUpdate ?? 'never'}${a.lastEmbed ? ` · last embed: ${a.lastEmbed}` : ''}${a.updating ? ' · updating now' : ''}`);
  if (a.lastError) lines.push(`last error: ${a.lastError}`);
  if (a.retryAt) lines.push(`searches use the built-in index until ${a.retryAt}`);
  return lines.join('\n');
}

export function register(program: Command, rt: CliRuntime): void {
  program
    .command('qmd')
    .description('the QMD search backend: status (default) or update (repair collections, qmd update/embed now)')
    .argument('[action]', 'status | update', 'status')
    .option('--agent <id>', 'agent id (default: main)')
    .option('--json', 'print JSON')
    .action(async (action: string, opts: QmdOptions) => {
      const o = { ...program.opts<GlobalOptions>(), ...opts };
      if (action !== 'status' && action !== 'update') {
        throw new UsageError(`qmd: unknown action ${JSON.stringify(action)} (status or update)`);
      }
      const engine = await rt.engine(o);
      const call = { signal: rt.signal, opId: undefined };
      const status = action === 'update' ? await engine.handlers['qmd.update']({ agentId: o.agent }, call) : await engine.handlers['qmd.status']({ agentId: o.agent }, call);
      if (o.json) rt.json(status);
      else rt.stdout(formatQmdStatus(status));
    });
}
