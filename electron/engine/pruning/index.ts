/** Pruning's public API (SPEC §3). */
export { prune, softTrimText, type PruneDiff, type PruneResult, type PruneOptions, type ToolResultDiff, type PruneAction, type KeptReason } from './prune';
export { findLastCallAt, currentModel, ttlGate, CACHE_TTL_CUSTOM_TYPE, type TtlGate, type CacheTtlData } from './cache-ttl';
export { toolPrunablePredicate } from './globs';
export { weightedLength, messageWeight } from './chars';
export { findProjection, isProjectionMarker, hasOnlyProjectionMarkers, toolResultKey, type ProjectionState, type ReplayMode, type ReplayRecord } from './replay';
