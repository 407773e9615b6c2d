/**
 * The engine's errors as the domains import them (`../core/errors`): EngineError, the system
 * error helpers. They live one floor down, in base/errors.ts, so that config/, util/ and rpc/
 * — which core/context.ts builds on — can throw them without importing core: that was the
 * config ↔ core cycle. This file adds nothing; it only re-exports.
 */
export * from '../base/errors';
