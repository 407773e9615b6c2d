/**
 * `cairn models status|download`: embedding models from the terminal. `status` says which
 * embedder memory search uses and why (no network, nothing loaded); `download` fetches
 * `memory.search.local.modelUri` (or a given hf:/https URI) into cairn/models/ with a
 * progress bar — only when asked (SPEC §6). Ctrl+C cancels and removes the partial file.
 */
import type { Command } from 'commander';
import type { ModelsStatus } from '../../../shared/types/models';
import type { CliRuntime, GlobalOptions } from '../runtime';
import { registerModelsImport } from './models-import';

export function formatModelsStatus(s: ModelsStatus): string {
  const lines = [`provider: ${s.configuredProvider}`];
  lines.push(s.selected ? `embedder: ${s.selected.provider} (${s.selected.detail})` : 'embedder: none (keyword-only search)');
  for (const c of s.candidates) lines.push(`  ${c === s.selected ? '→' : c.available ? '+' : '-'} ${c.provider}: ${c.detail}`);
  lines.push(`models dir: ${s.modelsDir}`);
  lines.push(`recommended model: ${s.defaultModelUri}${s.defaultModelPath ? ` (downloaded: ${s.defaultModelPath})` : ' (not downloaded: cairn models download)'}`);
  for (const f of s.files) lines.push(`  ${f.name} ${(f.bytes / 1e6).toFixed(1)} MB`);
  return lines.join('\n');
}

export function register(program: Command, rt: CliRuntime): void {
  const models = program.command('models').description('embedding models for memory search: status, download, import');
  const opts = (o: GlobalOptions) => ({ ...program.opts<GlobalOptions>(), ...o });

  models
    .command('status')
    .description('which embedder memory search uses and why, and the models on disk (no network)')
    .option('--json', 'print JSON')
    .action(async (o: GlobalOptions) => {
      const api = await rt.api(opts(o));
      const s = await api['models.status']({});
      if (opts(o).json) rt.json(s);
      else rt.stdout(formatModelsStatus(s));
    });

  registerModelsImport(models, program, rt);

  models
    .command('download [uri]')
    .description('download an embedding model (default: memorySearch.local.modelUri) into cairn/models/')
    .option('--json', 'print JSON')
    .action(async (uri: string | undefined, o: GlobalOptions) => {
      const api = await rt.api(opts(o));
      const { newOpId } = await import('../../../shared/client');
      const opId = newOpId();
      const ac = new AbortController();
      const onSigint = (): void => ac.abort();
      process.on('SIGINT', onSigint);
      rt.signal.addEventListener('abort', onSigint, { once: true });
      const bar = rt.progress('download', opts(o));
      const off = api.on('models.progress', (p) => {
        if (p.opId === opId && p.totalBytes > 0) bar.update(p.downloadedBytes, p.totalBytes, `${(p.downloadedBytes / 1e6).toFixed(1)} MB`);
      });
      try {
        const r = await api['models.download'](uri ? { uri } : {}, { signal: ac.signal, opId });
        bar.stop();
        if (opts(o).json) rt.json(r);
        else rt.stdout(`downloaded ${r.uri}\n  → ${r.path}\nMemory search uses it from the next index sync (a full reindex, since the model changed).`);
      } finally {
        bar.stop();
        off();
        process.off('SIGINT', onSigint);
      }
    });
}
