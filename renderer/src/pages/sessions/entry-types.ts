/**
 * The loose shape of a transcript entry as the engine sends it (SPEC §1.1): the raw JSON
 * object of its line. The renderer reads only the fields it shows and tolerates anything
 * else (unknown entry types, extra fields), as OpenClaw files have many.
 */
import { contentText } from '../../../../shared/text/content';

export interface RawEntry {
  type: string;
  id: string;
  parentId?: string | null;
  timestamp?: string;
  /** Not stored: the engine's token estimate of the entry's message, attached when loaded. */
  $tokens?: number;
  /** Not stored: the entry's 1-based line in the JSONL file (search citations use it). */
  $line?: number;
  /** Not stored: tool-result text blocks the engine sent cut (content index, full length); the rest is fetched on "Show all". */
  $clipped?: { block: number; length: number }[];
  [field: string]: unknown;
}

export interface RawBlock {
  type?: string;
  text?: string;
  thinking?: string;
  id?: string;
  name?: string;
  arguments?: unknown;
  data?: string;
  mimeType?: string;
  [field: string]: unknown;
}

export interface RawMessage {
  role?: string;
  content?: string | RawBlock[];
  toolName?: string;
  toolCallId?: string;
  isError?: boolean;
  model?: string;
  provider?: string;
  usage?: { input?: number; output?: number; totalTokens?: number; cacheRead?: number; cacheWrite?: number };
  stopReason?: string;
  [field: string]: unknown;
}

/** The message of a `message` entry. */
export function messageOf(e: RawEntry): RawMessage | undefined {
  const m = e.message;
  return e.type === 'message' && typeof m === 'object' && m !== null ? (m as RawMessage) : undefined;
}

/** The content blocks of a message (a string becomes one text block). */
export function blocksOf(content: RawMessage['content']): RawBlock[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content.filter((b): b is RawBlock => typeof b === 'object' && b !== null) : [];
}

/** Characters of the text parts of a message's content. */
export function textChars(content: RawMessage['content']): number {
  let n = 0;
  for (const b of blocksOf(content)) if (b.type === 'text' && typeof b.text === 'string') n += b.text.length;
  return n;
}

/** Joined text of the text blocks. */
export function textOf(content: RawMessage['content']): string {
  return contentText(content);
}
