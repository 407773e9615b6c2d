/** Synthetic data for bench/context.ts: deterministic text and a large pi-v3 transcript. */
import fs from 'node:fs';

export /** A deterministic pseudo-random text of `n` chars (words, paths, numbers). */
function text(n: number, seed: number): string {
  const words = ['build', 'error', 'src/app.ts', 'value', 'port', '8787', 'const', 'return', 'test', 'ok', 'failed', 'node_modules', 'line', '{', '}'];
  let s = '';
  let x = seed;
  while (s.length < n) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    s += `${words[x % words.length]}${x % 7 === 0 ? '\n' : ' '}`;
  }
  return s.slice(0, n);
}

export /** Write a transcript of about `mb` MB: turns with tool results of 0.5–8 KB and a compaction every ~2,000 turns. */
function writeTranscript(file: string, mb: number): { entries: number } {
  const fd = fs.openSync(file, 'w');
  fs.writeSync(fd, `${JSON.stringify({ type: 'session', version: 3, id: 'bench', timestamp: '2025-03-01T00:00:00.000Z', cwd: '/tmp' })}\n`);
  let bytes = 0;
  let id = 0;
  let parent: string | null = null;
  let lastUser = '';
  const hex = (n: number) => n.toString(16).padStart(8, '0');
  const push = (body: Record<string, unknown>) => {
    const e = { id: hex(++id), parentId: parent, timestamp: new Date(Date.UTC(2025, 2, 1) + id * 1000).toISOString(), ...body };
    parent = e.id;
    const line = `${JSON.stringify(e)}\n`;
    bytes += line.length;
    fs.writeSync(fd, line);
    return e.id;
  };
  for (let i = 0; bytes < mb * 1024 * 1024; i++) {
    lastUser = push({ type: 'message', message: { role: 'user', content: `Ask ${i}: look at src/mod${i}.ts, port ${3000 + (i % 1000)}. ${text(200, i)}`, timestamp: i } });
    push({ type: 'message', message: { role: 'assistant', content: [{ type: 'thinking', thinking: text(300, i + 1) }, { type: 'toolCall', id: `call_${i}`, name: i % 3 ? 'read' : 'edit', arguments: { path: `src/mod${i}.ts` } }], provider: 'anthropic', model: 'claude', usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 }, stopReason: 'toolUse' } });
    push({ type: 'message', message: { role: 'toolResult', toolCallId: `call_${i}`, toolName: i % 3 ? 'read' : 'edit', content: [{ type: 'text', text: text(500 + ((i * 7919) % 7500), i + 2) }], details: { ms: i }, isError: false } });
    push({ type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: `Done ${i}. ${text(400, i + 3)}` }], stopReason: 'stop' } });
    if (i % 50 === 0) push({ type: 'custom', customType: 'openclaw.cache-ttl', data: { timestamp: Date.UTC(2025, 2, 1) + id * 1000, provider: 'anthropic', modelId: 'claude' } });
    if (i > 0 && i % 2000 === 0) push({ type: 'compaction', summary: `## Decisions\n- step ${i}\n${text(3000, i)}`, firstKeptEntryId: lastUser, tokensBefore: 150000, details: { readFiles: [], modifiedFiles: [] } });
  }
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  return { entries: id };
}

