/**
 * The text of a message's content, the one rule every reader of a transcript uses: the
 * engine's context rebuild, serialisation for the summariser, the token estimate, the index
 * and the renderer. Content is a string or a list of blocks; a transcript written by another
 * program may hold anything, so blocks that are not objects, and text that is not a string,
 * are skipped rather than trusted. Empty text parts are skipped too. Pure, no Node imports.
 */

/** A content block as any transcript may hold it. */
interface LooseBlock {
  type?: unknown;
  text?: unknown;
  thinking?: unknown;
  name?: unknown;
  arguments?: unknown;
  mimeType?: unknown;
}

/** How the parts that are not plain text are written, and what joins the parts. */
export interface ContentTextOptions {
  /** Between the parts (default a newline). */
  sep?: string;
  /** What an image block becomes; absent: nothing. */
  image?: string | ((mimeType: string) => string);
  /** What a tool call becomes; absent: nothing. */
  toolCall?: (name: string, args: unknown) => string;
  /** Include the text of thinking blocks (default no). */
  thinking?: boolean;
}

/** The text of `content` (a message's `content`): its text blocks joined, per `o`. */
export function contentText(content: unknown, o: ContentTextOptions = {}): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const raw of content as unknown[]) {
    if (!raw || typeof raw !== 'object') continue;
    const b = raw as LooseBlock;
    if (b.type === 'text') {
      if (typeof b.text === 'string' && b.text) parts.push(b.text);
    } else if (b.type === 'thinking') {
      if (o.thinking && typeof b.thinking === 'string' && b.thinking) parts.push(b.thinking);
    } else if (b.type === 'toolCall') {
      if (o.toolCall) parts.push(o.toolCall(typeof b.name === 'string' ? b.name : '', b.arguments ?? {}));
    } else if (b.type === 'image' && o.image !== undefined) {
      parts.push(typeof o.image === 'string' ? o.image : o.image(typeof b.mimeType === 'string' ? b.mimeType : ''));
    }
  }
  return parts.join(o.sep ?? '\n');
}
