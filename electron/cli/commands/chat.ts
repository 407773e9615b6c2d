/**
 * `cairn chat [--session ID]`: the assistant in the terminal, for when no window is wanted.
 * A readline REPL over the engine's `chat.send`: the reply streams to stdout, tool calls,
 * pruning, memory flush and compaction show as short bracketed lines on stderr.
 * `/compact [--all] [instructions]` compacts, `/new` starts a new session, `/exit` quits.
 * Ctrl+C cancels the running reply; at the prompt it exits (so does Ctrl+D).
 */
import type { Command } from 'commander';
import type { CairnApi } from '../../../shared/client';
import type { ChatEvent } from '../../../shared/types/chat';
import type { CliRuntime, GlobalOptions } from '../runtime';

export interface ReplOptions {
  sessionId?: string | undefined;
  agentId?: string | undefined;
  input: NodeJS.ReadableStream;
  /** Reply text (no newline added). */
  out: (s: string) => void;
  /** Status lines (newline added by the caller's writer). */
  info: (s: string) => void;
  /** Subscribe to Ctrl+C outside readline (non-TTY input); returns an unsubscribe. */
  onInterrupt?: (fn: () => void) => () => void;
}

/** One short status line per non-text event. */
export function describeEvent(e: ChatEvent): string | undefined {
  switch (e.kind) {
    case 'toolCall':
      return `[tool] ${e.name}(${JSON.stringify(e.arguments).slice(0, 120)})`;
    case 'toolResult':
      return e.isError ? `[tool] ${e.name} failed: ${e.preview.split('\n')[0]?.slice(0, 160)}` : undefined;
    case 'pruning':
      return `[pruned old tool output for this call: ${e.softTrimmed} trimmed, ${e.cleared} cleared, ${e.charsSaved} chars saved]`;
    case 'flush':
      if (e.warning) return `[warning: ${e.warning}]`;
      return `[memory flush: ${e.wrote.length ? `wrote ${e.wrote.join(', ')}` : 'nothing to write'}]`;
    case 'compaction':
      return e.compacted
        ? `[compacted (${e.trigger}): ${e.tokensBefore} → ${e.tokensAfter} tokens${e.extract ? ', deterministic extract' : ''}]`
        : `[compaction (${e.trigger}) skipped: ${e.reason ?? 'nothing to compact'}]`;
    case 'retry':
      return `[context overflow, compacting and retrying: ${e.reason}]`;
    default:
      return undefined;
  }
}

/** Run the REPL until /exit, end of input or Ctrl+C at the prompt. Resolves to the exit code. */
export async function chatRepl(api: CairnApi, o: ReplOptions): Promise<number> {
  let sessionId = o.sessionId;
  let running: AbortController | undefined;
  let failed = false;
  const [status, { newOpId }, { default: readline }] = await Promise.all([api['llm.status']({}), import('../../../shared/client'), import('node:readline')]);
  o.info(`cairn chat — ${status.configured ? `${status.provider} ${status.model ?? ''}`.trim() : `no model configured (${status.problem ?? 'set cairn.llm'})`}`);
  o.info(`${sessionId ? `session ${sessionId}` : 'new session'}. /compact [--all] [instructions], /new, /exit. Ctrl+C cancels a reply.`);
  const rl = readline.createInterface({ input: o.input, terminal: false, crlfDelay: Infinity });
  const interrupt = () => {
    if (running) {
      running.abort();
      return;
    }
    rl.close();
  };
  rl.on('SIGINT', interrupt);
  const off = o.onInterrupt?.(interrupt);
  try {
    for await (const raw of rl) {
      const text = raw.trim();
      if (!text) continue;
      if (text === '/exit' || text === '/quit') break;
      if (text === '/new') {
        sessionId = undefined;
        o.info('[new session on the next message]');
        continue;
      }
      running = new AbortController();
      const opId = newOpId();
      let wroteText = false;
      const unsubscribe = api.on('chat.event', (p) => {
        if (p.opId !== opId) return;
        if (p.event.kind === 'text') {
          o.out(p.event.delta);
          wroteText = true;
          return;
        }
        const line = describeEvent(p.event);
        if (line) {
          if (wroteText) o.out('\n');
          wroteText = false;
          o.info(line);
        }
      });
      try {
        const res = await api['chat.send']({ text, ...(sessionId ? { sessionId } : {}), ...(o.agentId ? { agentId: o.agentId } : {}) }, { signal: running.signal, opId });
        if (wroteText) o.out('\n');
        if (!sessionId) o.info(`[session ${res.sessionId}]`);
        sessionId = res.sessionId;
      } catch (err) {
        if (wroteText) o.out('\n');
        const e = err as { code?: string; message: string };
        if (e.code === 'cancelled') o.info('[cancelled]');
        else {
          o.info(`error: ${e.message}`);
          // No model, or a session that does not exist: every further message fails the same way.
          failed = e.code === 'unavailable' || e.code === 'not_found' || failed;
        }
      } finally {
        unsubscribe();
        running = undefined;
      }
    }
  } finally {
    off?.();
    rl.close();
  }
  return failed ? 1 : 0;
}

export function register(program: Command, rt: CliRuntime): void {
  program
    .command('chat')
    .description('talk to the assistant in the terminal (tools, memory, pruning and compaction as in the app)')
    .option('--session <id>', 'continue this session (default: a new one)')
    .option('--agent <id>', 'agent id (default: main)')
    .action(async (opts: { session?: string; agent?: string }) => {
      const g = program.opts<GlobalOptions>();
      const api = await rt.api(g);
      const code = await chatRepl(api, {
        sessionId: opts.session,
        agentId: opts.agent,
        input: process.stdin,
        out: (s) => process.stdout.write(s),
        info: (s) => rt.stderr(s),
        onInterrupt: (fn) => {
          process.on('SIGINT', fn);
          return () => process.off('SIGINT', fn);
        },
      });
      if (code) process.exitCode = code;
    });
}
