/**
 * The embed domain's types: the Embedder interface, defined on the ground floor
 * (core/embedder.ts) because the engine context names it (its `createEmbedder` dependency).
 */
export type { EmbedOptions, Embedder } from '../core/embedder';
