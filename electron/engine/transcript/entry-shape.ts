/**
 * Shape checks for a parsed transcript line beyond "is an object with a type and an id":
 * a message whose content is neither text nor a list of blocks, or a value
 * nested deeper than any real entry, would crash the code that walks it later ("m.content is
 * not iterable", "Maximum call stack size exceeded"). Such a line is reported as malformed
 * like any other bad line: kept in the file byte for byte, skipped in the context.
 */
import { jsonDepthExceeds, MAX_ENTRY_DEPTH } from '../util/json-depth';

const ROLES_WITH_BLOCKS = new Set(['user', 'assistant', 'toolResult']);

function typeName(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

/** Why the message of a `message` entry cannot be used, or undefined when it can. */
function messageProblem(message: unknown): string | undefined {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return `"message" must be an object, got ${typeName(message)}`;
  const m = message as { role?: unknown; content?: unknown };
  if (typeof m.role !== 'string') return `"message.role" must be a string, got ${typeName(m.role)}`;
  if (!ROLES_WITH_BLOCKS.has(m.role)) return undefined; // other roles (bashExecution, custom…) are shown, not walked
  const c = m.content;
  // Plain text instead of blocks is tolerated everywhere (other writers produce it); anything
  // else is not content at all.
  if (typeof c === 'string') return undefined;
  if (!Array.isArray(c)) return `"message.content" (role ${m.role}) must be a string or an array of blocks, got ${typeName(c)}`;
  for (let i = 0; i < c.length; i++) {
    const b = c[i] as { type?: unknown } | null;
    if (b === null || typeof b !== 'object' || Array.isArray(b)) return `"message.content[${i}]" must be an object, got ${typeName(b)}`;
    if (typeof b.type !== 'string') return `"message.content[${i}].type" must be a string, got ${typeName(b.type)}`;
    const t = b as { type: string; text?: unknown; thinking?: unknown; name?: unknown };
    if (t.type === 'text' && typeof t.text !== 'string') return `"message.content[${i}].text" must be a string, got ${typeName(t.text)}`;
    if (t.type === 'thinking' && typeof t.thinking !== 'string') return `"message.content[${i}].thinking" must be a string, got ${typeName(t.thinking)}`;
    if (t.type === 'toolCall' && typeof t.name !== 'string') return `"message.content[${i}].name" of a tool call must be a string, got ${typeName(t.name)}`;
  }
  return undefined;
}

/**
 * False when `raw` cannot nest deeper than `limit`: that needs more than `limit` opening
 * brackets. Counted with native indexOf (fast on the long tool-result lines), so the walk of
 * the parsed value runs only for the rare line with many brackets.
 */
function mayNestDeeper(raw: string, limit: number): boolean {
  if (raw.length <= 2 * limit) return false;
  let n = 0;
  for (const ch of ['{', '[']) {
    for (let at = raw.indexOf(ch); at !== -1; at = raw.indexOf(ch, at + 1)) if (++n > limit) return true;
  }
  return false;
}

/**
 * Why a parsed entry (an object with a string `type` and `id`) cannot be used, or undefined.
 * `raw` is the line's text, used to skip the depth walk for lines that cannot be that deep.
 */
export function entryProblem(obj: Record<string, unknown>, raw: string): string | undefined {
  if (mayNestDeeper(raw, MAX_ENTRY_DEPTH) && jsonDepthExceeds(obj, MAX_ENTRY_DEPTH)) return `value nested deeper than ${MAX_ENTRY_DEPTH} levels`;
  if (obj.type === 'message') return messageProblem(obj.message);
  if (obj.type === 'compaction' && typeof obj.summary !== 'string') return `"summary" of a compaction must be a string, got ${typeName(obj.summary)}`;
  return undefined;
}
