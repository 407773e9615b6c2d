/**
 * A child process that points the assistant's file tools at a FIFO in the workspace and
 * prints each result as a JSON line. Run as a child because a blocking read of a FIFO would
 * freeze the thread for good — in the test runner it could not even time out.
 */
import { workspaceTools } from '../../electron/engine/chat/tools/workspace';
import { flushToolRunner } from '../../electron/engine/compaction/flush-tools';
import type { Tool, ToolOutput } from '../../electron/engine/chat/tools/types';

const [workspace, rel] = process.argv.slice(2) as [string, string];
const [read, , edit] = workspaceTools({ workspace, writable: () => true }) as [Tool, Tool, Tool];
const text = (o: ToolOutput) => (o.content[0] as { text: string }).text;

async function main(): Promise<void> {
  const r = await read.run({ path: rel });
  process.stdout.write(`${JSON.stringify({ tool: 'read', isError: r.isError, text: text(r) })}\n`);
  const e = await edit.run({ path: rel, oldText: 'a', newText: 'b' });
  process.stdout.write(`${JSON.stringify({ tool: 'edit', isError: e.isError, text: text(e) })}\n`);
  const f = flushToolRunner(workspace, '2025-03-02').run('read', { path: rel });
  process.stdout.write(`${JSON.stringify({ tool: 'flush-read', isError: f.isError, text: f.text })}\n`);
  const w = flushToolRunner(workspace, '2025-03-02').run('write', { path: 'memory/2025-03-02.md', content: '- a fact' });
  process.stdout.write(`${JSON.stringify({ tool: 'flush-write', isError: w.isError, text: w.text })}\n`);
}
void main();
