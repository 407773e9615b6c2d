/**
 * The scripted model that make-openclaw-dreaming-fixture.mjs serves to the real OpenClaw
 * (OpenAI chat-completions wire, streamed). It has no intelligence: a user turn that carries
 * `[[search: q1 | q2 | q3]]` gets one memory_search call per query, in order (OpenClaw's own
 * tool, so OpenClaw records the recalls); `[[write: path | text]]` gets a write call; any other
 * turn, and every background completion (dream diary, consolidation), gets a fixed answer
 * picked by what the request asks for. Every request is logged to a JSONL file for review.
 */
import fs from 'node:fs';
import http from 'node:http';

const chunk = (delta, finish = null) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'fake-1', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

/** Plain text of a chat message's content. */
const textOf = (content) => (typeof content === 'string' ? content : Array.isArray(content) ? content.map((p) => p?.text ?? '').join('\n') : '');

/**
 * Start the model on 127.0.0.1. `answer(body)` may return a string for requests the script
 * wants to answer itself (e.g. the consolidation decision); otherwise the default applies.
 */
export async function startScriptedModel({ logFile, answer, settleMs = 1500 }) {
  let calls = 0;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      if (!req.url?.endsWith('/chat/completions')) return void res.writeHead(404).end();
      const body = JSON.parse(raw);
      calls += 1;
      if (logFile) fs.appendFileSync(logFile, `${JSON.stringify(body)}\n`);
      const reply = decide(body, answer);
      // OpenClaw records a recall after the tool returns, without awaiting it: the answer
      // after the last search waits a moment so the process does not exit before it lands.
      setTimeout(() => send(res, reply), reply.afterSearch ? settleMs : 0);
    });
  });
  const send = (res, reply) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (reply.call) {
        const call = { index: 0, id: `call_${calls}`, type: 'function', function: { name: reply.call.name, arguments: JSON.stringify(reply.call.args) } };
        res.write(chunk({ role: 'assistant', content: null, tool_calls: [call] }));
        res.write(chunk({}, 'tool_calls'));
      } else {
        res.write(chunk({ role: 'assistant', content: reply.text }));
        res.write(chunk({}, 'stop'));
      }
      res.end('data: [DONE]\n\n');
  };
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  return { baseUrl: `http://127.0.0.1:${port}/v1`, calls: () => calls, close: () => new Promise((r) => server.close(() => r())) };
}

/** What to answer: a tool call still due in this turn, the script's own answer, or a short text. */
function decide(body, answer) {
  const messages = body.messages ?? [];
  const tools = new Set((body.tools ?? []).map((t) => t.function?.name));
  // The person's message of this turn: OpenClaw adds its own context as later user messages.
  let lastUser = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role === 'assistant' && lastUser < 0 && !messages[i].tool_calls) break;
    if (messages[i].role === 'user' && !textOf(messages[i].content).startsWith('<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT')) { lastUser = i; break; }
  }
  const userText = lastUser >= 0 ? textOf(messages[lastUser].content) : '';
  const doneCalls = messages.slice(lastUser + 1).filter((m) => m.role === 'tool').length;
  const search = /\[\[search: ([^\]]+)\]\]/.exec(userText);
  if (search && (tools.has('memory_search') || tools.has('tool_call'))) {
    const queries = search[1].split('|').map((q) => q.trim()).filter(Boolean);
    // Behind OpenClaw's compact tool surface the tool is reached through tool_call.
    const via = (args) => (tools.has('memory_search') ? { name: 'memory_search', args } : { name: 'tool_call', args: { id: 'memory_search', args } });
    if (doneCalls < queries.length) return { call: via({ query: queries[doneCalls] }) };
    return { text: `I looked that up in memory (${queries.length} searches) and found the notes above.`, afterSearch: true };
  }
  const write = /\[\[write: ([^|\]]+)\|([^\]]+)\]\]/.exec(userText);
  if (write && tools.has('write') && doneCalls === 0) return { call: { name: 'write', args: { path: write[1].trim(), content: `${write[2].trim()}\n` } } };
  const own = answer?.(body, userText);
  if (typeof own === 'string') return { text: own };
  return { text: 'Noted.' };
}
