/** The recommended local chat models Cairn offers to download (no Node imports). */

export interface RecommendedModel {
  /** Stable id (`qwen2.5-1.5b`), what `llm.downloadRecommended` takes. */
  id: string;
  /** Name for a person ("Qwen2.5 1.5B Instruct"). */
  name: string;
  /** Download size in bytes (approximate: the server's own count is shown while downloading). */
  sizeBytes: number;
  /** Memory it needs to chat, in bytes (model + a working context, approximate). */
  memoryBytes: number;
  /** Licence name, and where to read it. */
  license: string;
  licenseUrl: string;
  /** What it is good for, in one sentence. */
  goodFor: string;
  /** Where it comes from (`hf:<user>/<repo>/<file>.gguf`). */
  uri: string;
  /** The file once downloaded (absent: not on this computer yet). */
  downloadedPath?: string;
}

export interface RecommendedModels {
  models: RecommendedModel[];
  /** Where downloads go. */
  modelsDir: string;
}
