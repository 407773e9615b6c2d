/**
 * What `cairn search`'s thin client (bin/thin-client.mjs) needs of the engine's rules, in one
 * entry that scripts/build-cli.mjs bundles beside the CLI (dist/cli/bundle/thin-rules.js):
 * which state dir, where its Cairn files are, and whether a running engine's discovery record
 * can be trusted. The thin client loads this bundle (or, when the bundle is stale, this file
 * through tsx, as bin/cairn.mjs runs the CLI), so its rules are the engine's own, typed, never
 * a JavaScript copy. Keep the imports light: every thin `cairn search` loads them.
 */
export { findServingEngine, type EngineRecord, type ServingEngine } from '../server/engine-discovery';
