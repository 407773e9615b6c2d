/** What Settings → Memory search and `cairn doctor` show about embedding models (no Node imports). */

/** One embedder the auto order (or the configured provider) would consider. */
export interface EmbedderCandidateInfo {
  provider: 'local' | 'openai' | 'gemini' | 'voyage' | 'static';
  available: boolean;
  /** Why it is (un)available: "key from OPENAI_API_KEY", "no local model (…)". */
  detail: string;
}

export interface ModelsStatus {
  /** `memory.search.provider` as configured ("auto", "local", …, "none"). */
  configuredProvider: string;
  /** The embedder that would be used (the first available candidate); absent = full-text only. */
  selected?: EmbedderCandidateInfo;
  /** Every candidate in the order tried. */
  candidates: EmbedderCandidateInfo[];
  /** Where downloaded models live (`<state>/cairn/models`). */
  modelsDir: string;
  /** What "Download recommended model" fetches (`memory.search.local.modelUri`). */
  defaultModelUri: string;
  /** The downloaded file for that URI, when present. */
  defaultModelPath?: string;
  /** GGUF files in the models dir. */
  files: { name: string; bytes: number }[];
}

export interface ModelDownloadProgress {
  opId?: string;
  uri: string;
  downloadedBytes: number;
  totalBytes: number;
}
