// @ts-check
/**
 * Reading an OpenClaw turn for recall: the text of a message, the last turns' texts, and
 * which turns get no recall. The rules follow OpenClaw 2026.9's own (its active-memory
 * plugin's `isEligibleInteractiveSession` and session-key helpers): only user-triggered
 * turns; heartbeat, cron, memory-flush, dreaming and sub-agent runs are not a person asking.
 */

/**
 * The text of a message's content: a string, or the text blocks of a content array.
 * @param {unknown} content
 * @returns {string}
 */
export function textOf(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((b) => (b && typeof b === 'object' && b.type === 'text' && typeof b.text === 'string' ? b.text : ''))
    .filter(Boolean)
    .join('\n');
}

/**
 * The texts of the last `n` user and assistant messages, oldest first.
 * @param {unknown[]} messages
 * @param {number} n
 * @returns {string[]}
 */
export function recentTexts(messages, n) {
  /** @type {string[]} */
  const out = [];
  for (let i = messages.length - 1; i >= 0 && out.length < n; i--) {
    const m = /** @type {any} */ (messages[i]);
    if (!m || (m.role !== 'user' && m.role !== 'assistant')) continue;
    const t = textOf(m.content).trim();
    if (t) out.push(t);
  }
  return out.reverse();
}

/**
 * Why this turn gets no recall, or '' when it does.
 * @param {any} ctx the hook context (trigger, sessionKey, inputProvenance)
 * @param {string} message the user's message
 * @returns {string}
 */
export function recallSkipReason(ctx, message) {
  const trigger = typeof ctx?.trigger === 'string' ? ctx.trigger : '';
  if (trigger && trigger !== 'user') return `${trigger} turn`;
  const key = typeof ctx?.sessionKey === 'string' ? ctx.sessionKey.toLowerCase() : '';
  const rest = key.startsWith('agent:') ? key.split(':').slice(2).join(':') : key;
  if (rest.startsWith('subagent:') || rest.includes(':subagent:')) return 'sub-agent turn';
  if (rest.startsWith('cron:')) return 'cron turn';
  if (/^dreaming-narrative-/.test(rest)) return 'dreaming turn';
  if (ctx?.inputProvenance?.kind === 'inter_session') return 'message from another session';
  if (/^\s*(HEARTBEAT|Read HEARTBEAT\.md)/.test(message)) return 'heartbeat turn';
  if (!message.trim()) return 'no text in the message';
  return '';
}
