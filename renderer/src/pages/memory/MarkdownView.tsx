/**
 * A memory file shown two ways: rendered Markdown (react-markdown + remark-gfm; raw HTML is
 * never rendered) with each block's source line number in a gutter, or the source with every
 * line numbered. Blocks/lines inside the cited range are highlighted and scrolled into view.
 * A big file (a 6 MB note was 60k DOM nodes and hung the window) is shown as
 * source in a virtual list (BigSourceView): only the lines in view are in the DOM.
 */
import { createElement, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { BigSourceView, isBigText } from './BigSourceView';
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import type { LineRange } from '../../stores/memory';

interface Positioned {
  node?: { position?: { start: { line: number }; end: { line: number } } };
  children?: ReactNode;
}

const BLOCKS = ['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'pre', 'blockquote', 'table', 'hr'] as const;

/** Block renderers that carry their source lines and the highlight. */
function blockComponents(range: LineRange | undefined): Components {
  const out: Record<string, unknown> = {};
  for (const tag of BLOCKS) {
    out[tag] = ({ node, children, ...rest }: Positioned & Record<string, unknown>) => {
      const start = node?.position?.start.line;
      const end = node?.position?.end.line ?? start;
      const hit = range && start !== undefined && end !== undefined && start <= range.to && end >= range.from;
      return createElement(
        tag,
        { ...rest, 'data-line': start, 'data-end': end, className: `md-block${hit ? ' md-hl' : ''}` },
        tag === 'hr' ? undefined : children,
      );
    };
  }
  // Links open outside the app window; they never navigate it.
  out.a = ({ node: _n, children, ...rest }: Positioned & Record<string, unknown>) => createElement('a', { ...rest, target: '_blank', rel: 'noreferrer noopener' }, children);
  return out as Components;
}

export function RenderedView({ text, range }: { text: string; range: LineRange | undefined }) {
  if (isBigText(text)) return <BigSourceView text={text} range={range} note />;
  return <SmallRenderedView text={text} range={range} />;
}

function SmallRenderedView({ text, range }: { text: string; range: LineRange | undefined }) {
  const ref = useRef<HTMLDivElement>(null);
  const components = useMemo(() => blockComponents(range), [range]);
  useEffect(() => {
    ref.current?.querySelector('.md-hl')?.scrollIntoView({ block: 'center' });
  }, [text, range]);
  return (
    <div ref={ref} className="md-rendered" data-testid="memory-rendered">
      <Markdown remarkPlugins={[remarkGfm]} components={components} skipHtml>
        {text}
      </Markdown>
    </div>
  );
}

export function SourceView({ text, range }: { text: string; range: LineRange | undefined }) {
  if (isBigText(text)) return <BigSourceView text={text} range={range} />;
  return <SmallSourceView text={text} range={range} />;
}

function SmallSourceView({ text, range }: { text: string; range: LineRange | undefined }) {
  const ref = useRef<HTMLOListElement>(null);
  const lines = useMemo(() => text.replace(/\n$/, '').split('\n'), [text]);
  useEffect(() => {
    ref.current?.querySelector('.src-hl')?.scrollIntoView({ block: 'center' });
  }, [text, range]);
  return (
    <ol ref={ref} className="src-lines" aria-label="Source with line numbers" data-testid="memory-source">
      {lines.map((l, i) => {
        const n = i + 1;
        const hit = range && n >= range.from && n <= range.to;
        return (
          <li key={n} value={n} className={hit ? 'src-hl' : undefined} data-line={n}>
            <code>{l || ' '}</code>
          </li>
        );
      })}
    </ol>
  );
}
