/**
 * `cairn llm status|test|download`: the chat model from the terminal. `status` reads the
 * settings (no network), `test` sends one tiny request, `download` fetches
 * `cairn.llm.modelUri` into cairn/models/ with a progress bar (Ctrl+C cancels; a partial file
 * is resumed next time).
 */
import type { Command } from 'commander';
import type { LlmStatus } from '../../../shared/types/llm';
import type { CliRuntime, GlobalOptions } from '../runtime';

export function formatStatus(s: LlmStatus): string {
  const lines = [`provider: ${s.provider}`, `configured: ${s.configured ? 'yes' : 'no'}`];
  if (s.model) lines.push(`model: ${s.model}`);
  if (s.baseUrl) lines.push(`base URL: ${s.baseUrl}`);
  if (s.keySource) lines.push(`API key: ${s.keySource === 'none' ? 'not set' : s.keySource === 'env' ? `from ${s.keyEnv}` : 'from cairn.llm.apiKey'}`);
  if (s.modelFile) lines.push(`model file: ${s.modelFile.path ?? s.modelFile.uri}${s.modelFile.exists ? '' : ' (not present)'}`);
  if (s.contextWindow) lines.push(`context window: ${s.contextWindow} tokens`);
  if (s.problem) lines.push(`problem: ${s.problem}`);
  return lines.join('\n');
}

export function register(program: Command, rt: CliRuntime): void {
  const llm = program.command('llm').description('the chat model: status, test connection, download a local model');
  const opts = (o: GlobalOptions) => ({ ...program.opts<GlobalOptions>(), ...o });

  llm
    .command('status')
    .description('what cairn.llm describes and whether it can work (no network)')
    .option('--json', 'print JSON')
    .action(async (o: GlobalOptions) => {
      const api = await rt.api(opts(o));
      const s = await api['llm.status']({});
      if (opts(o).json) rt.json(s);
      else rt.stdout(formatStatus(s));
      if (!s.configured) process.exitCode = 1;
    });

  llm
    .command('test')
    .description('send one tiny request and report the reply and latency')
    .option('--json', 'print JSON')
    .action(async (o: GlobalOptions) => {
      const api = await rt.api(opts(o));
      const r = await api['llm.test']({}, { signal: rt.signal });
      if (opts(o).json) rt.json(r);
      else rt.stdout(r.ok ? `ok (${r.latencyMs} ms): ${r.message}` : `failed (${r.latencyMs} ms): ${r.message}`);
      if (!r.ok) process.exitCode = 1;
    });

  llm
    .command('download')
    .description('download cairn.llm.modelUri (hf:… or https://) into cairn/models/')
    .action(async () => {
      const api = await rt.api(program.opts<GlobalOptions>());
      const { newOpId } = await import('../../../shared/client');
      const opId = newOpId();
      const ac = new AbortController();
      const onSigint = () => ac.abort();
      process.on('SIGINT', onSigint);
      rt.signal.addEventListener('abort', onSigint, { once: true });
      const bar = rt.progress('download');
      const off = api.on('llm.downloadProgress', (p) => {
        if (p.opId === opId && p.totalBytes > 0) bar.update(p.downloadedBytes, p.totalBytes, `${(p.downloadedBytes / 1e6).toFixed(1)} MB`);
      });
      try {
        const r = await api['llm.download']({}, { signal: ac.signal, opId });
        bar.stop();
        rt.stdout(`downloaded ${r.uri}\n  → ${r.path}`);
      } finally {
        bar.stop();
        off();
        process.off('SIGINT', onSigint);
      }
    });
}
