/**
 * The short list of small instruct GGUF chat models Cairn recommends to a person without a
 * model, and their handlers: `llm.recommended` (the list, marked when already downloaded) and
 * `llm.downloadRecommended` (download with progress, cancel and resume through llama-download.ts,
 * then make it the chat model). Sizes are the files' sizes on Hugging Face, rounded; memory is
 * the file plus a working context of a few thousand tokens, rounded up.
 * `deps.modelDownloadBaseUrl` replaces huggingface.co (tests serve the files locally).
 */
import type { RecommendedModel } from '../../../shared/types/llm-recommended';
import type { EngineContext } from '../core/context';
import { EngineError } from '../core/errors';
import type { Handlers } from '../rpc/dispatcher';
import { downloadedPath, downloadModel, ModelDownloadError } from './llama-download';
import { useLocalModel } from './local-handlers';

const GB = 1e9;

/** One entry of the list: where it lives on Hugging Face and what a person needs to know. */
interface CatalogueEntry extends Omit<RecommendedModel, 'uri' | 'downloadedPath'> {
  /** `<user>/<repo>` on Hugging Face. */
  repo: string;
  /** The .gguf file in it. */
  file: string;
}

/** The recommended models, smallest first. */
const RECOMMENDED_MODELS: readonly CatalogueEntry[] = [
  {
    id: 'qwen2.5-1.5b',
    name: 'Qwen2.5 1.5B Instruct (Q4_K_M)',
    repo: 'Qwen/Qwen2.5-1.5B-Instruct-GGUF',
    file: 'qwen2.5-1.5b-instruct-q4_k_m.gguf',
    sizeBytes: 1.12 * GB,
    memoryBytes: 2 * GB,
    license: 'Apache-2.0',
    licenseUrl: 'https://huggingface.co/Qwen/Qwen2.5-1.5B-Instruct/blob/main/LICENSE',
    goodFor: 'Quick everyday answers and summaries on any recent laptop; many languages.',
  },
  {
    id: 'llama3.2-3b',
    name: 'Llama 3.2 3B Instruct (Q4_K_M)',
    repo: 'bartowski/Llama-3.2-3B-Instruct-GGUF',
    file: 'Llama-3.2-3B-Instruct-Q4_K_M.gguf',
    sizeBytes: 2.02 * GB,
    memoryBytes: 3.5 * GB,
    license: 'Llama 3.2 Community License',
    licenseUrl: 'https://huggingface.co/meta-llama/Llama-3.2-3B-Instruct/blob/main/LICENSE.txt',
    goodFor: 'Better conversation, instructions and tool use; a good default with 8 GB of memory.',
  },
  {
    id: 'phi3.5-mini',
    name: 'Phi-3.5 mini Instruct (Q4_K_M)',
    repo: 'bartowski/Phi-3.5-mini-instruct-GGUF',
    file: 'Phi-3.5-mini-instruct-Q4_K_M.gguf',
    sizeBytes: 2.39 * GB,
    memoryBytes: 4 * GB,
    license: 'MIT',
    licenseUrl: 'https://huggingface.co/microsoft/Phi-3.5-mini-instruct/blob/main/LICENSE',
    goodFor: 'Reasoning, maths and code for its size; English first.',
  },
];

/** Where `entry` is downloaded from: `hf:` normally, `<base>/<repo>/resolve/main/<file>` with a base URL. */
function recommendedUri(entry: Pick<CatalogueEntry, 'repo' | 'file'>, baseUrl: string | undefined): string {
  if (!baseUrl) return `hf:${entry.repo}/${entry.file}`;
  return `${baseUrl.replace(/\/+$/, '')}/${entry.repo}/resolve/main/${entry.file}`;
}

function listed(ctx: EngineContext): RecommendedModel[] {
  const modelsDir = ctx.paths().modelsDir;
  return RECOMMENDED_MODELS.map(({ repo, file, ...rest }) => {
    const uri = recommendedUri({ repo, file }, ctx.deps.modelDownloadBaseUrl);
    const done = downloadedPath(modelsDir, uri);
    return { ...rest, uri, ...(done ? { downloadedPath: done } : {}) };
  });
}

export function llmRecommendedHandlers(ctx: EngineContext): Pick<Handlers, 'llm.recommended' | 'llm.downloadRecommended'> {
  return {
    'llm.recommended': () => ({ models: listed(ctx), modelsDir: ctx.paths().modelsDir }),
    'llm.downloadRecommended': async ({ id }, { signal, opId }) => {
      const entry = listed(ctx).find((m) => m.id === id);
      if (!entry) throw new EngineError('not_found', `No recommended model ${JSON.stringify(id)} (known: ${RECOMMENDED_MODELS.map((m) => m.id).join(', ')})`);
      let file = entry.downloadedPath;
      if (!file) {
        try {
          file = await downloadModel(entry.uri, {
            modelsDir: ctx.paths().modelsDir,
            signal,
            // A dead network is named at once (a DNS or connection error fails the first request);
            // a silent one within seconds, not minutes.
            preflightTimeoutMs: 5_000,
            onProgress: (p) => ctx.events.emit('llm.downloadProgress', { ...(opId ? { opId } : {}), ...p }),
          });
        } catch (err) {
          if (err instanceof ModelDownloadError) throw new EngineError('unavailable', err.message);
          throw err;
        }
      }
      return useLocalModel(ctx, file);
    },
  };
}
