/** The one Embedder interface (SPEC §6): every embedding provider implements it. On the ground floor because the engine context names it; embed/types.ts re-exports it. */

export interface EmbedOptions {
  signal?: AbortSignal;
  /** Called as batches finish: `done` of `total` texts embedded. */
  onProgress?: (done: number, total: number) => void;
  /**
   * What the texts are: indexed chunks ("document", the default) or a search query.
   * Retrieval models that embed the two differently (EmbeddingGemma's prompts, Gemini's
   * taskType, Voyage's input_type) use it; symmetric embedders ignore it.
   */
  kind?: 'document' | 'query';
}

export interface Embedder {
  /** Provider name: "local" | "openai" | "gemini" | "voyage" | "static" | a test name. */
  readonly provider: string;
  /** Model name or file; part of the embedding cache key and the index identity. */
  readonly model: string;
  /** `${provider}:${model}` */
  readonly id: string;
  /** Vector dimensions. */
  readonly dims: number;
  /** Embed texts; every returned vector is L2-normalised and has `dims` entries. */
  embed(texts: string[], opts?: EmbedOptions): Promise<Float32Array[]>;
  dispose(): Promise<void>;
}
