/**
 * `cairn audit [--session ID] [--memory] [--json]`: what each compaction lost (the whole agent's
 * summary, or one session's compactions with where each lost item was said) and, with
 * `--memory`, the MEMORY.md health list. Read only.
 */
import type { Command } from 'commander';
import { UsageError, type CliRuntime, type GlobalOptions } from '../runtime';
import { formatHealth, formatSessionAudit, formatStateAudit } from './audit-format';

interface Opts extends GlobalOptions {
  agent?: string;
  session?: string;
  memory?: boolean;
}

export function register(program: Command, rt: CliRuntime): void {
  program
    .command('audit')
    .description('what each compaction lost (identifiers, asks, TODOs, decisions) and, with --memory, the MEMORY.md health list')
    .option('--session <id>', 'one session: every compaction with what it lost and where it was said')
    .option('--memory', 'the MEMORY.md health list (duplicates, stale sources, never recalled, contradictions)')
    .option('--agent <id>', 'agent id (default: main)')
    .option('--json', 'print JSON')
    .action(async (o: Opts) => {
      const g = { ...program.opts<GlobalOptions>(), ...o };
      const api = await rt.api(g);
      const { CairnError } = await import('../../../shared/client');
      try {
        if (g.memory) {
          const h = await api['memory.health']({ agentId: g.agent });
          if (g.json) rt.json(h);
          else rt.stdout(formatHealth(h));
          return;
        }
        if (g.session) {
          const a = await api['audit.session']({ sessionId: g.session, agentId: g.agent });
          if (g.json) rt.json(a);
          else rt.stdout(formatSessionAudit(a));
          return;
        }
        const s = await api['audit.state']({ agentId: g.agent });
        if (g.json) rt.json(s);
        else rt.stdout(formatStateAudit(s));
      } catch (err) {
        if (err instanceof CairnError && err.code === 'bad_request') throw new UsageError(err.message);
        throw err;
      }
    });
}
