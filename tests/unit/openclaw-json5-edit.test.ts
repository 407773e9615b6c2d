/**
 * The comment-keeping JSON5 edit behind `cairn connect openclaw` on files written by hand:
 * comments (also ones that look like braces or keys), single-quoted and quoted keys, trailing
 * commas, an empty object. Every other byte stays; the result parses to the intended config.
 */
import JSON5 from 'json5';
import { describe, expect, it } from 'vitest';
import { setJson5Path } from '../../electron/engine/openclaw/json5-edit';

describe('setJson5Path', () => {
  it('edits inside existing objects and leaves tricky comments and strings alone', () => {
    const src = [
      '// { not: "an object" }',
      '{',
      "  'tools': { // tools: { deny: [] }",
      '    "de\\"ny": "x}", /* ] */',
      "    note: 'a // b', ",
      '  },',
      '  agents: {},',
      '}',
      '',
    ].join('\n');
    let t = setJson5Path(src, ['tools', 'deny'], ['memory_search']);
    t = setJson5Path(t, ['agents', 'defaults'], { x: 1 });
    t = setJson5Path(t, ['tools', 'note'], 'kept key');
    expect(JSON5.parse(t)).toEqual({ tools: { 'de"ny': 'x}', note: 'kept key', deny: ['memory_search'] }, agents: { defaults: { x: 1 } } });
    for (const keep of ['// { not: "an object" }', '// tools: { deny: [] }', '/* ] */', '"de\\"ny": "x}"']) expect(t).toContain(keep);
  });

  it('adds to an empty root and keeps a file without a trailing newline as it was', () => {
    expect(JSON5.parse(setJson5Path('{}', ['mcp', 'servers', 'cairn'], { command: '/n' }))).toEqual({ mcp: { servers: { cairn: { command: '/n' } } } });
    const t = setJson5Path('{\n  "a": 1\n}', ['b'], true);
    expect(t).toBe('{\n  "a": 1,\n  "b": true\n}');
  });

  it('refuses a path through a value that is not an object, naming it', () => {
    expect(() => setJson5Path('{ tools: [1] }', ['tools', 'deny'], [])).toThrow('tools is not an object');
    expect(() => setJson5Path('[1]', ['a'], 1)).toThrow('not a JSON5 object');
  });
});
