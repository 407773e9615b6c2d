/**
 * Local GGUF chat model through node-llama-cpp (prebuilt CPU binaries only: `build: "never"`,
 * `gpu: false`). Loaded lazily on the first call; one context sequence, so calls are queued.
 * Function calling goes through `LlamaChat.generateResponse` with our tools as grammar-
 * constrained functions where the model's chat template has a call syntax; otherwise (SmolLM2,
 * plain ChatML) every reply is JSON constrained by a schema grammar (llama-grammar.ts). node-llama-cpp would silently drop old turns when the context fills
 * ("context shift"); we turn that moment into a ContextOverflowError instead, so the turn
 * loop compacts the session the way SPEC §4 says rather than losing history unseen.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import type { Llama, LlamaChat, LlamaContext, LlamaContextSequence, LlamaGrammar, LlamaModel, ChatModelSegment, ChatWrapperSettings, GbnfJsonSchema } from 'node-llama-cpp';
import type { AssistantMessage, TextBlock, ThinkingBlock, ToolCallBlock, Usage, StopReason } from '../../../shared/types/messages';
import { ContextOverflowError, type ChatRequest, type ChatResult, type LLM } from './types';
import { abortError } from './errors';
import { toLlamaFunctions, toLlamaHistory } from './llama-convert';
import { grammarTurn, hasNativeFunctionCalling } from './llama-grammar';
import { downloadedPath } from './llama-download';
import { acquireLlamaRuntime, type LlamaRuntimeLease } from '../util/llama-runtime';
import { EngineError } from '../core/errors';

/** Largest context created when `cairn.llm.contextWindow` is not set (tokens). */
export const DEFAULT_MAX_CONTEXT = 32_768;

/**
 * Threads when `cairn.llm.threads` is not set: every core but one. node-llama-cpp's default
 * (every core) collapses when anything else runs: each token waits at llama.cpp's per-layer
 * thread barriers for a descheduled thread (a loaded 2-core box went from ~20 ms to minutes
 * per token); one free core keeps the UI, indexing and the embedder from causing that.
 */
function defaultChatThreads(cores = os.availableParallelism()): number {
  return Math.max(1, cores - 1);
}

/** The model file is missing or is not a usable GGUF chat model. */
export class LocalModelError extends EngineError {
  constructor(message: string) {
    super('unavailable', message);
    this.name = 'LocalModelError';
  }
}

/** Settings of the local model (the factory fills them from `cairn.llm`). */
export interface LlamaLlmOptions {
  /** A GGUF file; when absent, `modelUri` as downloaded into `modelsDir`. */
  modelPath?: string | undefined;
  /** hf:/https URI of a model downloaded earlier (never downloaded from here). */
  modelUri?: string | undefined;
  modelsDir?: string | undefined;
  /** Context size in tokens; default: what fits the model and free memory, at most DEFAULT_MAX_CONTEXT. */
  contextSize?: number | undefined;
  /** llama.cpp threads; default defaultChatThreads(). */
  threads?: number | undefined;
  maxOutputTokens?: number | undefined;
  /** Injected runtime (tests), left undisposed; default: the process's shared runtime (util/llama-runtime.ts), also the GGUF embedder's. */
  getLlama?: () => Promise<Llama>;
  /** Injected chat over the context sequence (tests without weights); default `new LlamaChat`. */
  createChat?: (sequence: LlamaContextSequence) => LlamaChat;
}

interface Loaded {
  llama: Llama;
  /** Lets go of the runtime: releases the shared one, leaves an injected one alone. */
  release: () => Promise<void>;
  model: LlamaModel;
  context: LlamaContext;
  chat: LlamaChat;
  /** Tools go through the JSON grammar: the chat template has no function calling of its own. */
  grammarTools: boolean;
  /** Compiled reply grammars by schema (compiling one costs a few ms per tool set). */
  grammars: Map<string, Promise<LlamaGrammar>>;
}

/** Check the file exists and starts with the GGUF magic, before touching native code. */
export function checkGgufFile(modelPath: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(modelPath, 'r');
    const head = Buffer.alloc(4);
    const n = fs.readSync(fd, head, 0, 4, 0);
    if (n < 4 || head.toString('latin1') !== 'GGUF') {
      throw new LocalModelError(`${modelPath} is not a GGUF model file (it does not start with "GGUF"); pick a .gguf chat model`);
    }
  } catch (err) {
    if (err instanceof LocalModelError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      throw new LocalModelError(`local chat model not found: ${modelPath}; set cairn.llm.modelPath to a GGUF file, or set cairn.llm.modelUri and download it (cairn llm download)`);
    }
    throw new LocalModelError(`cannot read ${modelPath}: ${(err as Error).message}`);
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** A local GGUF chat model behind the `LLM` interface; loaded lazily, disposed in order. */
export class LlamaLlm implements LLM {
  readonly provider = 'llama';
  readonly model: string;
  private loading: Promise<Loaded> | undefined;
  private loaded: Loaded | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private disposed = false;

  constructor(private readonly opts: LlamaLlmOptions) {
    const name = opts.modelPath ?? opts.modelUri ?? '';
    this.model = path.basename(name.replace(/^hf:/, '').replace(/#.*$/, '')).replace(/\.gguf$/i, '') || 'local';
  }

  /** The file to load: the configured path, or the downloaded file for the URI. */
  async resolveModelPath(): Promise<string> {
    if (this.opts.modelPath) return this.opts.modelPath;
    const uri = this.opts.modelUri;
    if (!uri) throw new LocalModelError('no local chat model configured: set cairn.llm.modelPath to a GGUF file, or cairn.llm.modelUri and download it');
    // Our own record first: finding a downloaded file must not need the network.
    const known = this.opts.modelsDir ? downloadedPath(this.opts.modelsDir, uri) : undefined;
    if (known) return known;
    const { resolveModelFile } = await import('node-llama-cpp');
    try {
      return await resolveModelFile(uri, { directory: this.opts.modelsDir, download: false, cli: false });
    } catch {
      throw new LocalModelError(`the model ${uri} is not downloaded yet: download it in Settings or with "cairn llm download"`);
    }
  }

  /** The loaded context's size; the configured size before loading. */
  get contextWindow(): number | undefined {
    return this.loaded?.context.contextSize ?? this.opts.contextSize;
  }

  /** Load runtime, model, context (idempotent). A failed load can be retried. */
  load(signal?: AbortSignal): Promise<Loaded> {
    if (this.disposed) return Promise.reject(new LocalModelError('the local model was disposed'));
    this.loading ??= this.doLoad(signal).catch((err: unknown) => {
      this.loading = undefined;
      throw err;
    });
    return this.loading;
  }

  private async doLoad(signal?: AbortSignal): Promise<Loaded> {
    const modelPath = await this.resolveModelPath();
    checkGgufFile(modelPath);
    const injected = this.opts.getLlama;
    const runtime: LlamaRuntimeLease = injected ? { llama: await injected(), release: async () => {} } : await acquireLlamaRuntime();
    const { llama, release } = runtime;
    let model: LlamaModel | undefined;
    try {
      model = await llama.loadModel({ modelPath, ...(signal ? { loadSignal: signal } : {}) });
      const context = await model.createContext({
        // "auto" would size the context to the model's training window when memory allows
        // (128k for many models): on a CPU that is slow to fill, so cap it unless configured.
        contextSize: this.opts.contextSize ?? { max: DEFAULT_MAX_CONTEXT },
        threads: this.opts.threads ?? defaultChatThreads(),
        ...(signal ? { createSignal: signal } : {}),
      });
      const sequence = context.getSequence();
      const lib = await import('node-llama-cpp');
      const chat = this.opts.createChat ? this.opts.createChat(sequence) : new lib.LlamaChat({ contextSequence: sequence });
      const generic: ChatWrapperSettings = lib.ChatWrapper.defaultSettings;
      const grammarTools = chat.chatWrapper ? !hasNativeFunctionCalling(chat.chatWrapper, generic) : false;
      this.loaded = { llama, release, model, context, chat, grammarTools, grammars: new Map() };
      return this.loaded;
    } catch (err) {
      await model?.dispose().catch(() => {});
      await release().catch(() => {});
      if (signal?.aborted) throw abortError(signal);
      throw new LocalModelError(`could not load ${modelPath}: ${(err as Error).message}`);
    }
  }

  chat(req: ChatRequest): Promise<ChatResult> {
    // One sequence: calls run one after another.
    const run = this.queue.then(() => this.generate(req));
    this.queue = run.catch(() => {});
    return run;
  }

  private async generate(req: ChatRequest): Promise<ChatResult> {
    if (req.signal?.aborted) throw abortError(req.signal);
    const loaded = await this.load(req.signal);
    const { chat, context } = loaded;
    const tools = req.tools ?? [];
    const grammarMode = loaded.grammarTools && tools.length > 0;
    const seq = chat.sequence;
    const before = seq.tokenMeter.getState();
    const internal = new AbortController();
    const onAbort = () => internal.abort(abortError(req.signal));
    req.signal?.addEventListener('abort', onAbort, { once: true });
    let overflow: ContextOverflowError | undefined;
    const maxTokens = req.maxTokens ?? this.opts.maxOutputTokens;
    const common = {
      signal: internal.signal,
      ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
      contextShift: {
        strategy: ({ maxTokensCount }: { maxTokensCount: number }) => {
          overflow = new ContextOverflowError(`the conversation no longer fits the local model's context (${context.contextSize} tokens, ${maxTokensCount} usable)`);
          internal.abort(overflow);
          // Return something that fits so node-llama-cpp does not fall back to its own shift.
          return { chatHistory: [{ type: 'model' as const, response: [] }] };
        },
      },
    };
    try {
      const content: (TextBlock | ThinkingBlock | ToolCallBlock)[] = [];
      const calls: { name: string; params: unknown }[] = [];
      let reason: string | undefined;
      if (grammarMode) {
        const out = await grammarTurn(
          { system: req.system, messages: req.messages, tools, maxTokens, onText: (delta) => req.onEvent?.({ type: 'text', delta }) },
          async (history, o) => {
            const r = await chat.generateResponse(history, {
              ...common,
              ...(o.grammar ? { grammar: o.grammar } : {}),
              maxTokens: o.maxTokens,
              ...(o.onText ? { onTextChunk: o.onText } : {}),
            });
            if (overflow) throw overflow;
            return { response: r.response, stopReason: r.metadata.stopReason };
          },
          (schema) => this.grammarFor(loaded, schema),
        );
        if (out.text) content.push({ type: 'text', text: out.text });
        if (out.call) calls.push({ name: out.call.name, params: out.call.arguments });
        reason = out.stopReason;
      } else {
        const res = await chat.generateResponse(toLlamaHistory(req.system, req.messages), {
          ...common,
          functions: toLlamaFunctions(req.tools),
          maxTokens,
          onResponseChunk: (chunk) => {
            if (!chunk.text) return;
            if (chunk.type === 'segment') {
              if (chunk.segmentType === 'thought') req.onEvent?.({ type: 'thinking', delta: chunk.text });
            } else req.onEvent?.({ type: 'text', delta: chunk.text });
          },
        });
        if (overflow) throw overflow;
        for (const item of res.fullResponse) {
          if (typeof item === 'string') {
            const last = content[content.length - 1];
            if (last?.type === 'text') last.text += item;
            else if (item) content.push({ type: 'text', text: item });
          } else if ((item as ChatModelSegment).segmentType === 'thought') content.push({ type: 'thinking', thinking: item.text });
        }
        for (const fc of res.functionCalls ?? []) calls.push({ name: fc.functionName, params: fc.params });
        reason = res.metadata.stopReason;
      }
      for (const fc of calls) {
        const args = fc.params && typeof fc.params === 'object' ? (fc.params as Record<string, unknown>) : {};
        const block: ToolCallBlock = { type: 'toolCall', id: `call_${crypto.randomUUID().slice(0, 12)}`, name: fc.name, arguments: args };
        content.push(block);
        req.onEvent?.({ type: 'toolCall', id: block.id, name: block.name, arguments: block.arguments });
      }
      const after = seq.tokenMeter.getState();
      const output = after.usedOutputTokens - before.usedOutputTokens;
      const evaluated = after.usedInputTokens - before.usedInputTokens;
      const inContext = Math.max(0, seq.contextTokens.length - output);
      const usage: Usage = { input: evaluated, output, cacheRead: Math.max(0, inContext - evaluated), cacheWrite: 0, totalTokens: seq.contextTokens.length };
      const stopReason: StopReason = calls.length ? 'toolUse' : reason === 'maxTokens' ? 'length' : reason === 'abort' ? 'aborted' : 'stop';
      const message: AssistantMessage = { role: 'assistant', content, provider: this.provider, model: this.model, usage, stopReason, timestamp: Date.now() };
      return { message, usage, stopReason };
    } catch (err) {
      if (overflow) throw overflow;
      if (req.signal?.aborted) throw abortError(req.signal);
      throw err;
    } finally {
      req.signal?.removeEventListener('abort', onAbort);
    }
  }

  /** The grammar for this schema (compiled once; the same tools come back every call). */
  private grammarFor(loaded: Loaded, schema: GbnfJsonSchema): Promise<LlamaGrammar> {
    const key = JSON.stringify(schema);
    let g = loaded.grammars.get(key);
    if (!g) {
      g = loaded.llama.createGrammarForJsonSchema(schema as never) as Promise<LlamaGrammar>;
      loaded.grammars.set(key, g);
      g.catch(() => loaded.grammars.delete(key));
    }
    return g;
  }

  /** Exact token count with the model's tokenizer (loads the model if needed). */
  async countTokens(text: string): Promise<number> {
    const { model } = await this.load();
    return model.tokenize(text).length;
  }

  /** Dispose in order: chat, context, model, then let go of the runtime (disposed when no embedder holds it either). */
  async dispose(): Promise<void> {
    this.disposed = true;
    const l = this.loaded ?? (await this.loading?.catch(() => undefined));
    this.loaded = undefined;
    this.loading = undefined;
    if (!l) return;
    l.chat.dispose();
    await l.context.dispose();
    await l.model.dispose();
    await l.release();
  }
}
