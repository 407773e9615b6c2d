/** `cairn index`: sync the agent's memory index (progress bar on stderr; `--json` for machines). */
import type { Command } from 'commander';
import type { CliRuntime, GlobalOptions } from '../runtime';

interface IndexOptions extends GlobalOptions {
  agent?: string;
  force?: boolean;
}

export function register(program: Command, rt: CliRuntime): void {
  program
    .command('index')
    .description('sync the memory index (only changed files; --force rebuilds everything)')
    .option('--agent <id>', 'agent id (default: main)')
    .option('--force', 'rebuild the whole index')
    .option('--json', 'print {files, chunks, embedded, durationMs, mode, unreadable}')
    .action(async (opts: IndexOptions) => {
      const o = { ...program.opts<GlobalOptions>(), ...opts };
      const engine = await rt.engine(o);
      const { memoryRegistry } = await import('../../engine/index/registry');
      const agentId = engine.ctx.agentId(o.agent);
      const reg = memoryRegistry(engine.ctx);
      const bar = rt.progress('indexing', o);
      const off = engine.events.on('index.progress', (p) => {
        // Files to index are known up front; chunks are counted as files are read.
        if (p.filesTotal > 0) bar.update(p.filesDone, p.filesTotal, `${p.chunksDone} chunks`);
      });
      let r;
      try {
        r = await rt.interruptible('indexing', (signal) => reg.sync(agentId, { force: o.force, signal }));
      } finally {
        off();
        bar.stop();
      }
      if (!r) return;
      if (o.json) {
        rt.json({ files: r.files, chunks: r.chunks, embedded: r.embedded, durationMs: r.durationMs, mode: r.mode, unreadable: r.unreadable ?? [] });
        return;
      }
      const status = await (await reg.get(agentId)).status();
      const emb = status.embedder ? `${status.embedder.provider}/${status.embedder.model}` : 'no embedder';
      rt.stdout(
        `${r.full ? 'rebuilt' : 'synced'} ${r.files} files, ${r.chunks} chunks (${r.embedded} embedded) in ${r.durationMs} ms — ${r.mode}, ${emb}, vectors: ${status.vector}`,
      );
      for (const w of status.warnings) rt.stderr(`warning: ${w}`);
    });
}
