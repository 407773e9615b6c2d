/**
 * The local GGUF embedder (SPEC §6): an embedding model run in-process by node-llama-cpp on
 * the CPU, on the process's one shared runtime (util/llama-runtime.ts, also used by the
 * local chat model). node-llama-cpp is imported lazily, so processes that never use a local
 * model (most CLI commands) do not pay for loading it.
 *
 * `threads: 1` per embedding context by default: on a small machine llama.cpp's thread
 * pool costs more than it saves for short inputs (≈5 ms per embedding instead of ≈230 ms
 * measured on a 2-core box). A batch is spread over several single-threaded contexts
 * instead (`contexts`, default one per core, 1–4): each text is one independent llama.cpp
 * evaluation, so they parallelise without llama.cpp's per-layer thread barriers
 * (docs/benchmarks.md § Real sentence embedder). One context per core: the evaluations run
 * in llama.cpp's native threads, not on the event loop, so a second busy core does not stall
 * the main thread, and indexing (compute-bound, ≈ 1.4 ms of CPU per token here) runs ≈ 1.9×
 * faster on a 2-core box. node-llama-cpp reads only sequence 0's pooled embedding, so several
 * texts cannot share one decode; contexts are the way to use the cores. Shutdown follows the
 * order llama.cpp needs: contexts, then model, then runtime.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Llama, LlamaEmbeddingContext, LlamaModel, Token } from 'node-llama-cpp';
import type { EmbedOptions, Embedder } from './types';
import { l2normalize, throwIfAborted } from './vector';
import { checkGgufFile } from './gguf-check';
import { acquireLlamaRuntime } from '../util/llama-runtime';

export interface GgufEmbedderOptions {
  /** A .gguf embedding model on disk. */
  modelPath: string;
  /** llama.cpp threads per embedding; 1 is fastest for short texts on small machines. */
  threads?: number;
  /**
   * Embedding contexts a batch is spread over, each evaluating one text at a time on its own
   * `threads`; default one per core, 1 to 4.
   */
  contexts?: number;
  /** Context (max tokens per text); default min(model's training context, 2048). */
  contextSize?: number;
  /**
   * llama.cpp flash attention; default off. Embedding inputs are short, so its memory
   * saving buys nothing, and on the CPU path it cost 3.5× the CPU time per 200-token text
   * (measured with the tiny test model; see docs/benchmarks.md § Embedders).
   */
  flashAttention?: boolean;
  signal?: AbortSignal;
  /** Use this runtime instead of the process-wide shared one (util/llama-runtime.ts); `dispose()` leaves it alone. */
  llama?: Llama;
}

/**
 * Retrieval prompts of asymmetric embedding models, recognised by file or model name.
 * EmbeddingGemma (the default model) is trained with these; without them recall drops.
 */
export function retrievalPrompts(name: string): { query: string; document: string } | undefined {
  if (/embeddinggemma/i.test(name)) return { query: 'task: search result | query: ', document: 'title: none | text: ' };
  if (/nomic-embed/i.test(name)) return { query: 'search_query: ', document: 'search_document: ' };
  // BGE v1.5 English models (model card): the instruction on queries only, passages as they are.
  if (/bge-(small|base|large)-en/i.test(name)) return { query: 'Represent this sentence for searching relevant passages: ', document: '' };
  return undefined;
}

/**
 * What `cairn models import` recorded from the sentence-transformers config (cairn.* keys):
 * the prompts it was trained with and the max_seq_length it truncates to (special tokens
 * included), so Cairn embeds exactly as sentence-transformers does.
 */
function importedSettings(metadata: unknown): { prompts?: { query: string; document: string }; maxSeqLength?: number } {
  const c = (metadata as { cairn?: { prompt?: { query?: unknown; document?: unknown }; max_seq_length?: unknown } }).cairn;
  if (!c) return {};
  const q = typeof c.prompt?.query === 'string' ? c.prompt.query : '';
  const d = typeof c.prompt?.document === 'string' ? c.prompt.document : '';
  return {
    prompts: q || d ? { query: q, document: d } : undefined,
    maxSeqLength: typeof c.max_seq_length === 'number' && c.max_seq_length > 2 ? c.max_seq_length : undefined,
  };
}

/** An embedder over one loaded GGUF model. */
export class GgufEmbedder implements Embedder {
  readonly provider = 'local';
  readonly model: string;
  readonly id: string;
  readonly dims: number;
  private disposed = false;
  private readonly prompts: { query: string; document: string } | undefined;

  constructor(
    private readonly llama: Llama,
    private readonly llamaModel: LlamaModel,
    private readonly contexts: LlamaEmbeddingContext[],
    readonly modelPath: string,
    private readonly releaseRuntime: () => Promise<void>,
    private maxTokens: number,
  ) {
    this.model = path.basename(modelPath);
    this.id = `${this.provider}:${this.model}`;
    this.dims = llamaModel.embeddingVectorSize;
    const imported = importedSettings(llamaModel.fileInfo.metadata);
    this.prompts = imported.prompts ?? retrievalPrompts(`${this.model} ${llamaModel.fileInfo.metadata.general?.name ?? ''}`);
    // sentence-transformers counts [CLS] and [SEP] in max_seq_length.
    if (imported.maxSeqLength) this.maxTokens = Math.min(maxTokens, imported.maxSeqLength - 2);
  }

  /** Token count the model sees for `text` (for the UI's exact-count display). */
  countTokens(text: string): number {
    return this.llamaModel.tokenize(text, false).length;
  }

  async embed(texts: string[], opts: EmbedOptions = {}): Promise<Float32Array[]> {
    if (this.disposed) throw new Error(`local embedder ${this.model}: already disposed`);
    const out = new Array<Float32Array>(texts.length);
    let next = 0;
    let done = 0;
    let failed = false;
    // Each context takes the next text when it is free; results land at their text's index.
    const work = async (context: LlamaEmbeddingContext): Promise<void> => {
      while (!failed && next < texts.length) {
        throwIfAborted(opts.signal);
        const i = next++;
        out[i] = await this.embedOne(context, texts[i] as string, opts.kind ?? 'document');
        opts.onProgress?.(++done, texts.length);
      }
    };
    // allSettled, not all: no context may still be evaluating when the call has returned
    // (a caller's dispose() would free it under llama.cpp's feet).
    const results = await Promise.allSettled(this.contexts.slice(0, Math.max(1, texts.length)).map((c) => work(c).catch((err: unknown) => {
      failed = true;
      throw err;
    })));
    const rejected = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (rejected) throw rejected.reason;
    return out;
  }

  private async embedOne(context: LlamaEmbeddingContext, text: string, kind: 'document' | 'query'): Promise<Float32Array> {
    // Tokenise without special-token parsing (text saying "[CLS]" stays text) and cut to
    // the context: an over-long chunk is embedded by its head rather than failing the batch.
    const prefix = this.prompts && text.trim() ? this.prompts[kind] : '';
    let tokens: Token[] = this.llamaModel.tokenize(prefix + text, false);
    if (tokens.length > this.maxTokens) tokens = tokens.slice(0, this.maxTokens);
    const v = new Float32Array(this.dims);
    if (tokens.length > 0) {
      const { vector } = await context.getEmbeddingFor(tokens);
      if (vector.length === this.dims) v.set(vector);
    }
    // l2normalize maps an all-zero or NaN pooling result (no known token) to zeros.
    return l2normalize(v);
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    for (const c of this.contexts) await c.dispose();
    await this.llamaModel.dispose();
    await this.releaseRuntime();
  }
}

/**
 * One context per core, 1 to 4: a 2-core laptop indexes on both (measured 1.9× the texts/s of
 * one context at the same CPU per text, the event loop free); past 4 a model this small gains
 * too little per context for its memory.
 */
export function defaultContexts(cores = os.availableParallelism()): number {
  return Math.max(1, Math.min(4, Math.floor(cores)));
}

/** Load a GGUF embedding model; throws a clear error naming the file when it cannot. */
export async function createGgufEmbedder(opts: GgufEmbedderOptions): Promise<GgufEmbedder> {
  const modelPath = path.resolve(opts.modelPath);
  if (!fs.existsSync(modelPath)) throw new Error(`local embedder: model file not found: ${modelPath}`);
  throwIfAborted(opts.signal);
  // A truncated or corrupt file is named with what is wrong before llama.cpp sees it.
  try {
    checkGgufFile(modelPath);
  } catch (err) {
    throw new Error(`local embedder: cannot load ${(err as Error).message}`);
  }
  const runtime = opts.llama ? { llama: opts.llama, release: async () => {} } : await acquireLlamaRuntime();
  const { llama } = runtime;
  let model: LlamaModel | undefined;
  const contexts: LlamaEmbeddingContext[] = [];
  try {
    model = await llama.loadModel({ modelPath, gpuLayers: 0, loadSignal: opts.signal, defaultContextFlashAttention: opts.flashAttention ?? false });
    const contextSize = opts.contextSize ?? Math.min(model.trainContextSize || 2048, 2048);
    const n = Math.max(1, Math.floor(opts.contexts ?? defaultContexts()));
    for (let i = 0; i < n; i++) {
      contexts.push(await model.createEmbeddingContext({ contextSize, batchSize: contextSize, threads: opts.threads ?? 1, createSignal: opts.signal }));
    }
    // Room for the begin/end tokens node-llama-cpp adds (e.g. [CLS] … [SEP]).
    return new GgufEmbedder(llama, model, contexts, modelPath, runtime.release, contextSize - 3);
  } catch (err) {
    for (const c of contexts) await c.dispose().catch(() => undefined);
    await model?.dispose().catch(() => undefined);
    await runtime.release().catch(() => undefined);
    if (opts.signal?.aborted) throw err;
    throw new Error(`local embedder: cannot load ${modelPath}: ${(err as Error).message}`);
  }
}
