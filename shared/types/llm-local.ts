/** Local GGUF chat models found on disk, offered by the Chat page when no model is set up (no Node imports). */

export interface LocalChatModel {
  /** Absolute path of the .gguf file. */
  path: string;
  /** File name without `.gguf`. */
  name: string;
  bytes: number;
  /** `general.architecture` from the file's header (llama, qwen2, gemma3…). */
  architecture: string;
  /** `models`: the state's models dir; `demo`: the small test/demo model cache (scripts/fetch-test-models.mjs). */
  source: 'models' | 'demo';
}

export interface LocalChatModels {
  models: LocalChatModel[];
  /** Where downloaded models live (`<state>/cairn/models`). */
  modelsDir: string;
}
