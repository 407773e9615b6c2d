/**
 * One message of the timeline: user and assistant text as Markdown, thinking and tool calls
 * collapsible, tool results with their size (chars, est. tokens) and images as thumbnails;
 * a tool output the engine sent cut is fetched whole on "Show all".
 */
import { useSessions } from '../../stores/sessions';
import { fetchEntryText } from '../../stores/sessions-api';
import { Collapsible } from './Collapsible';
import { ShowAll } from './ShowAll';
import { Markdown } from './Markdown';
import { blocksOf, type RawBlock, type RawMessage } from './entry-types';
import { num } from './format';

/** Above this, a tool result opens collapsed. */
const OPEN_RESULT_CHARS = 600;
/** A tool result body shows at most this much until "Show all" is pressed. */
const SHOW_CHARS = 20_000;

function Thumb({ block }: { block: RawBlock }) {
  const mime = typeof block.mimeType === 'string' && /^image\/(png|jpeg|gif|webp)$/.test(block.mimeType) ? block.mimeType : undefined;
  if (!mime || typeof block.data !== 'string') return <span className="muted">[image: unsupported type]</span>;
  const kb = Math.round((block.data.length * 3) / 4 / 1024);
  return (
    <a className="thumb" href={`data:${mime};base64,${block.data}`} target="_blank" rel="noreferrer" title={`${mime}, ${kb} KB`}>
      <img src={`data:${mime};base64,${block.data}`} alt={`Image (${mime}, ${kb} KB)`} loading="lazy" />
    </a>
  );
}

function ToolCall({ block }: { block: RawBlock }) {
  const args = JSON.stringify(block.arguments ?? {});
  const short = args.length > 90 ? `${args.slice(0, 90)}…` : args;
  return (
    <Collapsible
      className="tool-call"
      summary={
        <>
          <span className="chip">tool call</span> <code>{block.name}</code> <span className="muted mono">{short}</span>
        </>
      }
    >
      {() => <pre className="pre">{JSON.stringify(block.arguments ?? {}, null, 2)}</pre>}
    </Collapsible>
  );
}

function LongText({ text }: { text: string }) {
  return (
    <Collapsible className="show-all" summary={`Show the remaining ${num(text.length - SHOW_CHARS)} of ${num(text.length)} chars`}>
      {() => <pre className="pre">{text.slice(SHOW_CHARS)}</pre>}
    </Collapsible>
  );
}

/** Tool result text in a pre; very long outputs show the first 20,000 chars, then "Show all". */
function ResultText({ text }: { text: string }) {
  return (
    <>
      <pre className="pre">{text.length > SHOW_CHARS ? text.slice(0, SHOW_CHARS) : text}</pre>
      {text.length > SHOW_CHARS && <LongText text={text} />}
    </>
  );
}

type Clip = { length: number; load: () => Promise<string> } | undefined;

function Blocks({ blocks, markdown, clipOf }: { blocks: RawBlock[]; markdown: boolean; clipOf?: (b: RawBlock) => Clip }) {
  return (
    <>
      {blocks.map((b, i) => {
        const clip = clipOf?.(b);
        switch (b.type) {
          case 'text':
            if (clip) return <ShowAll key={i} text={String(b.text ?? '')} length={clip.length} load={clip.load} whole={(t) => <ResultText text={t} />} />;
            return markdown ? <Markdown key={i} text={String(b.text ?? '')} /> : <ResultText key={i} text={String(b.text ?? '')} />;
          case 'thinking':
            return (
              <Collapsible key={i} className="thinking" summary={<span className="muted">Thinking · {num(String(b.thinking ?? '').length)} chars</span>}>
                {() => <div className="thinking-body">{String(b.thinking ?? '')}</div>}
              </Collapsible>
            );
          case 'toolCall':
            return <ToolCall key={i} block={b} />;
          case 'image':
            return <Thumb key={i} block={b} />;
          default:
            return (
              <span key={i} className="muted">
                [{b.type ?? 'unknown'} block]
              </span>
            );
        }
      })}
    </>
  );
}

/** Size of a tool result: its text chars (full lengths of cut blocks) and images (the token estimate comes from the engine). */
function resultSize(m: RawMessage, clipped: Clipped): { chars: number; images: number } {
  let chars = 0;
  let images = 0;
  blocksOf(m.content).forEach((b, i) => {
    if (b.type === 'text' && typeof b.text === 'string') chars += clipped?.find((c) => c.block === i)?.length ?? b.text.length;
    else if (b.type === 'image') images++;
  });
  return { chars, images };
}

type Clipped = { block: number; length: number }[] | undefined;

/**
 * `tokens`: the engine's estimate for this message (SPEC §2). `clipped`: the tool-result
 * blocks the engine sent cut, fetched whole by entry id on "Show all".
 */
export function MessageView({ m, tokens, entryId, clipped }: { m: RawMessage; tokens: number | undefined; entryId?: string; clipped?: Clipped }) {
  const blocks = blocksOf(m.content);
  if (m.role === 'toolResult') {
    const size = resultSize(m, clipped);
    // Clip info is by content index; the text blocks below are a filtered list, so map by object.
    const clipByBlock = new Map<RawBlock, Clip>();
    blocks.forEach((b, i) => {
      const c = clipped?.find((x) => x.block === i);
      const sessionId = useSessions.getState().selectedId;
      if (c && entryId && sessionId) clipByBlock.set(b, { length: c.length, load: () => fetchEntryText(sessionId, entryId, i) });
    });
    const text = blocks.filter((b) => b.type === 'text');
    const images = blocks.filter((b) => b.type === 'image');
    return (
      <div className={`tool-result${m.isError ? ' is-error' : ''}`}>
        <Collapsible
          defaultOpen={size.chars <= OPEN_RESULT_CHARS}
          summary={
            <>
              <span className="chip">{m.isError ? 'tool error' : 'tool result'}</span> <code>{m.toolName}</code>{' '}
              <span className="muted" data-testid="result-size">
                {num(size.chars)} chars{tokens === undefined ? '' : ` · ~${num(tokens)} tokens`}{size.images ? ` · ${size.images} image${size.images > 1 ? 's' : ''}` : ''}
              </span>
            </>
          }
        >
          {() => <Blocks blocks={text} markdown={false} clipOf={(b) => clipByBlock.get(b)} />}
        </Collapsible>
        {images.length > 0 && <Blocks blocks={images} markdown={false} />}
      </div>
    );
  }
  return <Blocks blocks={blocks} markdown />;
}
