/**
 * The engine's module graph: no cycles, and arrows point down the floors below.
 * `npm run lint` runs this; tests/unit/module-graph.test.ts proves that the rules fire. There
 * is no baseline of known violations: any violation fails.
 *
 * Floors, low to high (a folder may import its own floor and anything lower; type-only
 * imports count too, so a domain's types point down as well):
 *   0  base (what every floor needs: the engine error and the system-error helpers)
 *   1  util
 *   2  config, rpc (the dispatcher and event bus: they import nothing from the engine but
 *      base; text rules live in shared/text, below the engine)
 *   3  core (the context and the seam interfaces it names; it builds on config and rpc, and
 *      re-exports base's errors as core/errors for the domains)
 *   4  transcript, embed, llm
 *   5  pruning, index
 *   6  search, compaction
 *   7  qmd
 *   8  sessions, chat
 *   9  app, openclaw
 *   the root files (assemble.ts, engine.ts, host.ts, startup.ts, search-backend.ts) assemble
 *   the floors: no folder imports them.
 * config, util and rpc sit below core so the context can load the config without a cycle
 * (config ↔ core was one: config threw core's EngineError while core/context loaded config).
 * Every folder must be on a floor: a file in a folder that is on none breaks `folder-on-no-floor`.
 * Below the top floor the dispatcher is imported for its types only: loading it loads every
 * channel's zod schema (a fifth of `cairn search`'s start-up), and EngineError is in base/.
 *
 * Every process's code is cruised too (issue 38): the CLI (electron/cli), `bin/`, `scripts/`
 * and the OpenClaw plugin (openclaw-plugin/), with no cycles anywhere and these floors:
 *   shared < engine < server < cli < bin's search format (used by the CLI and bin alike);
 *   the plugin stands alone (OpenClaw loads its folder, nothing else of Cairn's);
 *   bin/ imports bin/ only (it runs before tsx is registered: sources load through the
 *   bundle or tsx at run time, never by a static import);
 *   scripts/ (build and test tooling) is imported by no product code.
 */
const E = '^electron/engine/';
const floor = {
  0: ['base'],
  1: ['util'],
  2: ['config', 'rpc'],
  3: ['core'],
  4: ['transcript', 'embed', 'llm'],
  5: ['pruning', 'index'],
  6: ['search', 'compaction', 'memory-health'],
  7: ['qmd'],
  8: ['sessions', 'chat'],
  9: ['app', 'openclaw', 'dreaming'],
};
const floorOf = Object.fromEntries(Object.entries(floor).flatMap(([n, ds]) => ds.map((d) => [d, Number(n)])));
const above = (n) => Object.entries(floorOf).filter(([, f]) => f > n).map(([d]) => d);
const top = Math.max(...Object.values(floorOf));
const placed = `${E}(${Object.keys(floorOf).join('|')})/`;
const unplaced = { path: `${E}[^/]+/`, pathNot: placed };

const upward = Object.entries(floorOf)
  .filter(([, f]) => above(f).length)
  .map(([dir, f]) => ({
    name: `no-up-from-${dir}`,
    comment: `electron/engine/${dir}/ (floor ${f}) must not import a higher floor (${above(f).join(', ')}): move the shared piece down, or pass an interface in from engine.ts.`,
    severity: 'error',
    from: { path: `${E}${dir}/` },
    to: { path: `${E}(${above(f).join('|')})/` },
  }));

/** What the engine, the CLI, bin/ and the plugin may not import (see the floors above). */
const processes = [
  {
    name: 'engine-below-its-callers',
    comment:
      "electron/engine/ is the floor the CLI, the server and the window stand on: it imports none of them, nor bin/, scripts/ or the plugin — except the plugin's wire.js and path-inside.js, the bridge protocol's and the containment rule's one description (plain JS importing Node built-ins only: the plugin, loaded by OpenClaw from its own folder, can load nothing of Cairn's, so the shared piece lives on its side).",
    severity: 'error',
    from: { path: E },
    to: { path: '^(electron/(cli|server|main|preload)|bin|scripts|openclaw-plugin)/', pathNot: '^openclaw-plugin/(wire|path-inside)\\.js$' },
  },
  {
    name: 'cli-not-the-window',
    comment: "electron/cli/ runs under plain Node: no Electron main or preload code, no plugin or build scripts (the plugin's wire.js and path-inside.js excepted: the bridge's framing, the one containment rule).",
    severity: 'error',
    from: { path: '^electron/cli/' },
    to: { path: '^(electron/(main|preload)|scripts|openclaw-plugin)/', pathNot: '^openclaw-plugin/(wire|path-inside)\\.js$' },
  },
  {
    name: 'plugin-stands-alone',
    comment: 'openclaw-plugin/ is loaded by OpenClaw from its own folder, under its own Node: it imports its own files and Node built-ins only, and talks to Cairn over the bridge.',
    severity: 'error',
    from: { path: '^openclaw-plugin/' },
    to: { pathNot: ['^openclaw-plugin/'], dependencyTypesNot: ['core'] },
  },
  {
    name: 'bin-stands-alone',
    comment: 'bin/ runs before tsx is registered and before the bundle is chosen: it imports bin/ and npm packages only; sources load at run time through the bundle or tsx.',
    severity: 'error',
    from: { path: '^bin/', pathNot: '\\.d\\.mts$' },
    to: { path: '^(electron|shared|scripts|openclaw-plugin)/' },
  },
  {
    name: 'no-product-code-imports-scripts',
    comment: 'scripts/ is build and test tooling: the engine, the CLI, the window, bin/ and the plugin never import it.',
    severity: 'error',
    from: { path: '^(electron|shared|bin|openclaw-plugin)/' },
    to: { path: '^scripts/' },
  },
];

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A cycle: two modules that need each other share a third, lower module.',
      severity: 'error',
      from: { path: '^(electron|bin|scripts|openclaw-plugin)/' },
      to: { circular: true },
    },
    ...processes,
    ...upward,
    {
      name: 'no-engine-root-from-domains',
      comment: 'The root files (engine.ts, startup.ts, search-backend.ts) assemble the floors: domains take the context (core/context) as a parameter and never import the assembly.',
      severity: 'error',
      from: { path: `${E}[a-z-]+/` },
      to: { path: `${E}[^/]+\\.ts$` },
    },
    {
      name: 'context-only-from-the-root',
      comment: 'Only the root (assemble.ts) makes engine contexts: a context made elsewhere lacks what the root wires in (search backend, session sources, transcript-change reactions). Domains import core/context for its types only (`import type`); to look into another state dir, take a context maker from the root as a parameter.',
      severity: 'error',
      from: { path: E, pathNot: [`${E}[^/]+\\.ts$`, `${E}core/`] },
      to: { path: `${E}core/context\\.ts$`, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'folder-on-no-floor',
      comment: 'A folder of electron/engine/ that is on no floor of .dependency-cruiser.cjs: nothing would check its arrows. Put it on the floor of what it imports.',
      severity: 'error',
      from: unplaced,
      to: {},
    },
    {
      name: 'folder-on-no-floor',
      comment: 'A folder of electron/engine/ that is on no floor of .dependency-cruiser.cjs: nothing would check its arrows. Put it on the floor of what it imports.',
      severity: 'error',
      from: {},
      to: unplaced,
    },
    {
      name: 'folder-on-no-floor',
      comment: 'A folder of electron/engine/ that is on no floor of .dependency-cruiser.cjs: nothing would check its arrows. Put it on the floor of what it imports.',
      severity: 'error',
      from: { ...unplaced, orphan: true },
      to: {},
    },
    {
      name: 'no-dispatcher-at-runtime-below-top',
      comment: 'Below the top floor the dispatcher is imported for its types only (`import type`): loading it loads every channel\'s zod schema. Throw EngineError from core/errors.',
      severity: 'error',
      from: { path: E, pathNot: [`${E}(${floor[top].join('|')})/`, `${E}[^/]+\\.ts$`, `${E}rpc/`] },
      to: { path: `${E}rpc/(dispatcher|direct)\\.ts$`, dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
    includeOnly: '^(electron|shared|bin|scripts|openclaw-plugin)/',
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
};
