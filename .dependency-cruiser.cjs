/**
 * The engine's module graph (issue 11): no cycles, and arrows point down the floors below.
 * `npm run lint` runs this; tests/unit/module-graph.test.ts proves that the rules fire. There
 * is no baseline of known violations: the last three (the index calling the search pipeline,
 * search choosing the QMD backend) went with the search-backend seam, so any violation fails.
 *
 * Floors, low to high (a folder may import its own floor's shared bottom and anything lower):
 *   0  util, rpc/errors+events, config (text rules live in shared/text, below the engine)
 *   1  transcript, embed, llm
 *   2  pruning, index
 *   3  search, compaction
 *   4  qmd
 *   5  sessions, chat
 *   6  app, rpc/dispatcher, engine.ts, context.ts, search-backend.ts, startup.ts (the root files
 *      assemble the floors; context.ts only names types from below)
 */
const E = '^electron/engine/';
const floor = {
  0: ['util', 'config'],
  1: ['transcript', 'embed', 'llm'],
  2: ['pruning', 'index'],
  3: ['search', 'compaction'],
  4: ['qmd'],
  5: ['sessions', 'chat'],
  6: ['app'],
};
const floorOf = Object.fromEntries(Object.entries(floor).flatMap(([n, ds]) => ds.map((d) => [d, Number(n)])));
const above = (n) => Object.entries(floorOf).filter(([, f]) => f > n).map(([d]) => d);

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
      comment: 'Domains take the context as a parameter; they never import the engine facade or its assembly.',
      severity: 'error',
      from: { path: `${E}[a-z-]+/` },
      to: { path: `${E}(engine|startup)\\.ts$` },
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
