/**
 * The engine's module graph: no cycles, and arrows point down the floors below.
 * `npm run lint` runs this; tests/unit/module-graph.test.ts proves that the rules fire. There
 * is no baseline of known violations: any violation fails.
 *
 * Floors, low to high (a folder may import its own floor and anything lower; type-only
 * imports count too, so a domain's types point down as well):
 *   0  core (the engine error, the context and the seam interfaces it names), util, config,
 *      rpc (the dispatcher and event bus: they import nothing from the engine but core;
 *      text rules live in shared/text, below the engine)
 *   1  transcript, embed, llm
 *   2  pruning, index
 *   3  search, compaction
 *   4  qmd
 *   5  sessions, chat
 *   6  app, openclaw
 *   the root files (engine.ts, startup.ts, search-backend.ts) assemble the floors: no folder
 *   imports them.
 * Every folder must be on a floor: a file in a folder that is on none breaks `folder-on-no-floor`.
 * Below the top floor the dispatcher is imported for its types only: loading it loads every
 * channel's zod schema (a fifth of `cairn search`'s start-up), and EngineError is in core/.
 */
const E = '^electron/engine/';
const floor = {
  0: ['core', 'util', 'config', 'rpc'],
  1: ['transcript', 'embed', 'llm'],
  2: ['pruning', 'index'],
  3: ['search', 'compaction'],
  4: ['qmd'],
  5: ['sessions', 'chat'],
  6: ['app', 'openclaw', 'dreaming'],
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

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A cycle in the engine: two modules that need each other share a third, lower module.',
      severity: 'error',
      from: { path: E },
      to: { circular: true },
    },
    ...upward,
    {
      name: 'no-engine-root-from-domains',
      comment: 'The root files (engine.ts, startup.ts, search-backend.ts) assemble the floors: domains take the context (core/context) as a parameter and never import the assembly.',
      severity: 'error',
      from: { path: `${E}[a-z-]+/` },
      to: { path: `${E}[^/]+\\.ts$` },
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
    includeOnly: '^electron/engine/',
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
};
