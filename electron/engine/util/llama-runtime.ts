/**
 * The one node-llama-cpp runtime of a process (thread), shared by the GGUF embedder and the
 * local chat model and reference-counted: creating it costs ~2.4 s (loading the binary,
 * probing the CPU), the index re-creates its embedder whenever memorySearch settings change,
 * and a second runtime would load llama.cpp again beside the first. The last
 * holder to release it disposes it, after its own contexts and models (the order llama.cpp
 * needs). node-llama-cpp is imported lazily, so processes that never use a local model
 * (most CLI commands) do not pay for loading it.
 */
import type { Llama } from 'node-llama-cpp';

/** A hold on the shared runtime; `release()` once the holder's models are disposed (idempotent). */
export interface LlamaRuntimeLease {
  llama: Llama;
  release: () => Promise<void>;
}

/** Create a new node-llama-cpp runtime: prebuilt CPU binary only, never a source build. Prefer `acquireLlamaRuntime`. */
export async function loadLlamaRuntime(): Promise<Llama> {
  const { getLlama, LlamaLogLevel } = await import('node-llama-cpp');
  // logLevel error: llama.cpp's load chatter and tokenizer round-trip notes are not the user's business.
  return getLlama({ build: 'never', gpu: false, logLevel: LlamaLogLevel.error, progressLogs: false });
}

let shared: { llama: Promise<Llama>; refs: number } | undefined;

/**
 * Take a hold on the process-wide runtime, loading it on first use. A failed load is not
 * kept: the next caller tries again.
 */
export async function acquireLlamaRuntime(): Promise<LlamaRuntimeLease> {
  const entry = (shared ??= { llama: loadLlamaRuntime(), refs: 0 });
  entry.refs++;
  let llama: Llama;
  try {
    llama = await entry.llama;
  } catch (err) {
    if (shared === entry) shared = undefined;
    throw err;
  }
  let released = false;
  return {
    llama,
    release: async () => {
      if (released) return;
      released = true;
      if (--entry.refs === 0) {
        if (shared === entry) shared = undefined;
        await llama.dispose();
      }
    },
  };
}

/**
 * How many holds the shared runtime has (0 when none is loaded); for the tests that check
 * disposal releases it.
 * @internal
 */
export function llamaRuntimeHolds(): number {
  return shared?.refs ?? 0;
}
