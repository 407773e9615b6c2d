/**
 * `cairn models import <folder|file>`: converts a sentence-transformers BERT model on disk
 * (a folder with config.json, model.safetensors and vocab.txt / tokenizer.json) into a GGUF
 * embedding model in cairn/models/, offline and without Python, with a progress bar on
 * stderr. `--use` also points memorySearch.local.modelPath at it in cairn.json; otherwise it
 * prints the setting to add.
 */
import path from 'node:path';
import type { Command } from 'commander';
import type { CliRuntime, GlobalOptions } from '../runtime';

interface ImportCliOptions extends GlobalOptions {
  out?: string;
  name?: string;
  f32?: boolean;
  f16?: boolean;
  use?: boolean;
}

/** Register `import` under the `models` command. */
export function registerModelsImport(models: Command, program: Command, rt: CliRuntime): void {
  models
    .command('import <source>')
    .description('convert a sentence-transformers (BERT) model folder into a GGUF embedding model in cairn/models/ (offline)')
    .option('--out <file>', 'write the .gguf here instead of cairn/models/<name>.gguf')
    .option('--name <name>', "the model's name (and file name); default the model card's title or the folder's name")
    .option('--f16', "store the layers' matrices as F16 instead of Q8_0 (a larger file, ≈ 40% more CPU per text)")
    .option('--f32', 'store matrices as F32 (bit-exact weights, ≈ 3× the size) instead of Q8_0')
    .option('--use', 'also set memory.search.local.modelPath (and memory.search.provider "local") in cairn.json')
    .option('--json', 'print JSON')
    .action(async (source: string, o: ImportCliOptions) => {
      const opts = { ...program.opts<GlobalOptions>(), ...o };
      const ctx = await rt.context(opts);
      const { importSentenceTransformers } = await import('../../engine/embed/import/index');
      const bar = rt.progress('import', opts);
      let result;
      try {
        result = await importSentenceTransformers(source, {
          outFile: opts.out ? path.resolve(opts.out) : undefined,
          outDir: ctx.paths().modelsDir,
          f32: opts.f32,
          f16: opts.f16,
          name: opts.name,
          signal: rt.signal,
          onProgress: (done, total) => bar.update(done, total, `${done}/${total} tensors`),
        });
      } finally {
        bar.stop();
      }
      if (opts.use) {
        const api = await rt.api(opts);
        await api['config.set']({ keyPath: 'memory.search.local.modelPath', value: result.outFile });
        await api['config.set']({ keyPath: 'memory.search.provider', value: 'local' });
      }
      if (opts.json) return rt.json({ ...result, used: Boolean(opts.use) });
      const lines = [
        `imported ${result.name} (${result.layers} layers, ${result.dims} dims, ${result.vocab} tokens, ${result.pooling} pooling${result.normalize ? ', normalized' : ''})`,
        `  → ${result.outFile} (${(result.bytes / 1e6).toFixed(1)} MB)`,
        ...result.warnings.map((w) => `warning: ${w}`),
      ];
      if (result.prompts.query) lines.push(`  query prompt: ${JSON.stringify(result.prompts.query)}`);
      lines.push(
        opts.use
          ? 'Memory search now uses it (cairn.json: memory.search.provider "local", memory.search.local.modelPath); the next index sync re-embeds everything.'
          : `To use it, set in cairn.json: { memory: { search: { provider: "local", local: { modelPath: ${JSON.stringify(result.outFile)} } } } }\n  (or run again with --use); the next index sync re-embeds everything.`,
      );
      rt.stdout(lines.join('\n'));
    });
}
