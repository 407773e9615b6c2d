// A bridge that answers off the wire, for the plugin's answer check: `hello` right, `recall`
// and `search` with results of the wrong shape (a number where text belongs, a hit without its
// citation). Run as the plugin's `bin` (`node openclaw-bridge-misfit.mjs --state-dir <dir> openclaw-bridge`).
import { encodeLine, readLines } from '../../openclaw-plugin/wire.js';

const wrong = {
  hello: { version: 'misfit', stateDir: process.argv[3], pid: process.pid },
  recall: { context: 42, outcome: 'injected', tookMs: 1, hits: 1 },
  search: [{ corpus: 'cairn', path: 'memory/a.md', score: 1, snippet: 'text', startLine: 1, endLine: 2, source: 'memory', kind: 'memory', provenanceLabel: 'Cairn' }],
};
for await (const line of readLines(process.stdin)) {
  const req = JSON.parse(line);
  if (req.op in wrong) process.stdout.write(encodeLine({ id: req.id, ok: true, result: wrong[req.op] }));
}
