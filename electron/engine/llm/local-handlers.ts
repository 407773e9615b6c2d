/**
 * Contract handlers for choosing a local chat model in place: `llm.localModels` lists the
 * GGUF chat models on disk, `llm.useLocal` makes one the chat model (cairn.llm) after checking
 * the file, so the Chat page's "no model" state has a way out that works with one click.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { EngineContext } from '../core/context';
import type { LlmStatus } from '../../../shared/types/llm';
import { EngineError } from '../core/errors';
import type { Handlers } from '../rpc/dispatcher';
import { setConfigKey } from '../config/edit';
import { llmStatus } from './handlers';
import { demoModelsDir, findLocalChatModels, ggufArchitecture, isChatArchitecture } from './local-models';

export function llmLocalHandlers(ctx: EngineContext): Pick<Handlers, 'llm.localModels' | 'llm.useLocal'> {
  return {
    'llm.localModels': () => {
      const modelsDir = ctx.paths().modelsDir;
      const env = ctx.env();
      return {
        modelsDir,
        models: findLocalChatModels([
          { dir: modelsDir, source: 'models' },
          { dir: demoModelsDir(env), source: 'demo' },
        ]),
      };
    },
    'llm.useLocal': ({ path: given }) => useLocalModel(ctx, path.resolve(ctx.stateDir, given)),
  };
}

/** Make the GGUF chat model at `file` the chat model (cairn.llm) after checking it; returns the new status. */
export function useLocalModel(ctx: EngineContext, file: string): LlmStatus {
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) throw new EngineError('not_found', `No file at ${file}: give the path of a .gguf chat model file`);
  const arch = ggufArchitecture(file);
  if (!arch) throw new EngineError('bad_request', `${file} is not a GGUF model file: pick a .gguf chat model`);
  if (!isChatArchitecture(arch)) throw new EngineError('bad_request', `${path.basename(file)} is an embedding model (${arch}), it cannot chat: pick a chat model`);
  // A foreign dir's settings go to its home in Cairn's data dir, never into the dir (as config.set).
  const dir = ctx.state().settingsDir;
  setConfigKey(dir, 'cairn.llm.provider', 'llama');
  setConfigKey(dir, 'cairn.llm.modelPath', file);
  ctx.reloadConfig();
  return llmStatus(ctx);
}
