/**
 * Contract handlers for embedding models (`models.status`, `models.download`) and the
 * `cairn doctor` check that says which embedder memory search will use and why. Status
 * and doctor only plan (no model load, no network); download runs only when asked.
 */
import type { DoctorCheck } from '../../../shared/contract/app';
import type { ModelsStatus } from '../../../shared/types/models';
import type { EngineContext } from '../core/context';
import { EngineError } from '../core/errors';
import type { Handlers } from '../rpc/dispatcher';
import { downloadModel, findDownloadedModel, listModelFiles } from './download';
import { planEmbedder } from './factory';
import { memorySearchSettings } from '../config/memory-search';
import { SUGGESTION_TEXT } from '../config/suggestions';

/** Plan the embedder for the default agent's settings. */
export async function modelsStatus(ctx: EngineContext): Promise<ModelsStatus> {
  const settings = memorySearchSettings(ctx.config().config);
  const modelsDir = ctx.paths().modelsDir;
  const plan = await planEmbedder(settings, { modelsDir, env: ctx.env() });
  const candidates = plan.map(({ provider, available, detail }) => ({ provider, available, detail }));
  const selected = candidates.find((c) => c.available);
  const defaultModelPath = await findDownloadedModel(settings.local.modelUri, modelsDir);
  return {
    configuredProvider: settings.enabled ? settings.provider : 'none',
    ...(selected ? { selected } : {}),
    candidates,
    modelsDir,
    defaultModelUri: settings.local.modelUri,
    ...(defaultModelPath ? { defaultModelPath } : {}),
    files: listModelFiles(modelsDir).map(({ name, bytes }) => ({ name, bytes })),
  };
}

export function modelsHandlers(ctx: EngineContext): Pick<Handlers, 'models.status' | 'models.download'> {
  return {
    'models.status': () => modelsStatus(ctx),
    'models.download': async (req, { signal, opId }) => {
      const uri = req.uri ?? memorySearchSettings(ctx.config().config).local.modelUri;
      try {
        const file = await downloadModel(uri, ctx.paths().modelsDir, {
          signal,
          onProgress: (p) => ctx.events.emit('models.progress', { ...(opId ? { opId } : {}), uri, ...p }),
        });
        return { path: file, uri };
      } catch (err) {
        if (signal.aborted) throw err;
        throw new EngineError('unavailable', (err as Error).message);
      }
    },
  };
}

/** The doctor's view: which embedder auto-selection picks, why, and how to do better. */
export async function embedderDoctorCheck(ctx: EngineContext): Promise<DoctorCheck> {
  const s = await modelsStatus(ctx);
  const base = { id: 'embedder', label: 'Memory search embedder' };
  if (s.configuredProvider === 'none') {
    return { ...base, status: 'warn', detail: 'no embedder: memory search is keyword-only (FTS)', hint: SUGGESTION_TEXT.localEmbedder() };
  }
  if (!s.selected) {
    const why = s.candidates.map((c) => `${c.provider}: ${c.detail}`).join('; ');
    return { ...base, status: 'warn', detail: `provider "${s.configuredProvider}" is unavailable (${why}); search runs keyword-only`, hint: SUGGESTION_TEXT.staticFallback() };
  }
  const skipped = s.candidates.slice(0, s.candidates.indexOf(s.selected)).map((c) => `${c.provider}: ${c.detail}`);
  const detail = `${s.configuredProvider === 'auto' ? 'auto picks' : 'uses'} ${s.selected.provider} (${s.selected.detail})${skipped.length ? `; skipped ${skipped.join('; ')}` : ''}`;
  if (s.selected.provider === 'static') {
    return {
      ...base,
      status: 'ok',
      detail,
      hint: `The shipped static embeddings (potion-base-8M) work offline but recall less than a real embedding model: download the recommended local model (Settings → Memory search, channel models.download: ${s.defaultModelUri}) or set OPENAI_API_KEY / GEMINI_API_KEY / VOYAGE_API_KEY.`,
    };
  }
  return { ...base, status: 'ok', detail };
}

