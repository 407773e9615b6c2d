/** Pruning's public API (SPEC §3): what the rest of the engine imports from pruning. */
export { prune } from './prune';
export { findLastCallAt, currentModel, CACHE_TTL_CUSTOM_TYPE } from './cache-ttl';
export { findProjection, hasOnlyProjectionMarkers } from './replay';
