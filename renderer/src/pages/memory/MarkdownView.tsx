/**
 * A memory file shown two ways: rendered Markdown (react-markdown + remark-gfm; raw HTML is
 * never rendered) with each block's source line number in a gutter, or the source with every
 * line numbered. Blocks/lines inside the cited range are highlighted and scrolled into view.
 * A big file (a 6 MB note was 60k DOM nodes and hung the window) is shown as
 * source in a virtual list (BigSourceView): only the lines in view are in the DOM.
 * OpenClaw's annotations (HTML comments, which the rendered view skips) show as chips on
 * their block or line, beside the provenance OpenClaw recorded for the lines (ProvenanceLabel).
 */
import { createElement, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { BigSourceView, isBigText } from './BigSourceView';
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import type { LineRange } from '../../stores/memory';
import type { LineAnnotations, LineProvenance } from '../../../../shared/types/search';
import { AnnotationChips } from '../../components/AnnotationChips';
import { ProvenanceLabel } from '../../components/ProvenanceLabel';
import { scrollRegion } from '../../components/scroll-region';

interface Positioned {
  node?: { position?: { start: { line: number }; end: { line: number } } };
  children?: ReactNode;
}

const BLOCKS = ['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'pre', 'blockquote', 'table', 'hr'] as const;

/** Block renderers that carry their source lines and the highlight. */
function blockComponents(range: LineRange | undefined, notes: LineAnnotations[] = [], provs: LineProvenance[] = []): Components {
  const out: Record<string, unknown> = {};
  for (const tag of BLOCKS) {
    out[tag] = ({ node, children, ...rest }: Positioned & Record<string, unknown>) => {
      const start = node?.position?.start.line;
      const end = node?.position?.end.line ?? start;
      const hit = range && start !== undefined && end !== undefined && start <= range.to && end >= range.from;
      // A list item's own lines only: a nested item renders its own chips.
      const last = tag === 'li' ? start : (end ?? start);
      const own = start !== undefined && last !== undefined && tag !== 'hr' ? notes.filter((n) => n.line >= start && n.line <= last) : [];
      const from = start !== undefined && last !== undefined && tag !== 'hr' ? provs.filter((p) => p.startLine >= start && p.startLine <= last) : [];
      const chips = [
        ...from.map((p) => createElement(ProvenanceLabel, { key: `p${p.startLine}`, p: p.provenance })),
        ...own.map((n) => createElement(AnnotationChips, { key: `a${n.line}`, a: n.annotations })),
      ];
      return createElement(
        tag,
        { ...rest, ...(tag === 'pre' ? scrollRegion('Code block') : {}), 'data-line': start, 'data-end': end, className: `md-block${hit ? ' md-hl' : ''}` },
        tag === 'hr' ? undefined : chips.length ? [children, ' ', ...chips] : children,
      );
    };
  }
  // Links open outside the app window; they never navigate it.
  out.a = ({ node: _n, children, ...rest }: Positioned & Record<string, unknown>) => createElement('a', { ...rest, target: '_blank', rel: 'noreferrer noopener' }, children);
  return out as Components;
}

/** What the views mark on lines: OpenClaw's annotations and recorded provenance. */
interface LineMarks {
  annotations?: LineAnnotations[] | undefined;
  provenance?: LineProvenance[] | undefined;
}

export function RenderedView({ text, range, annotations, provenance }: { text: string; range: LineRange | undefined } & LineMarks) {
  if (isBigText(text)) return <BigSourceView text={text} range={range} note />;
  return <SmallRenderedView text={text} range={range} annotations={annotations} provenance={provenance} />;
}

function SmallRenderedView({ text, range, annotations, provenance }: { text: string; range: LineRange | undefined } & LineMarks) {
  const ref = useRef<HTMLDivElement>(null);
  const components = useMemo(() => blockComponents(range, annotations, provenance), [range, annotations, provenance]);
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

export function SourceView({ text, range, annotations, provenance }: { text: string; range: LineRange | undefined } & LineMarks) {
  if (isBigText(text)) return <BigSourceView text={text} range={range} />;
  return <SmallSourceView text={text} range={range} annotations={annotations} provenance={provenance} />;
}

function SmallSourceView({ text, range, annotations, provenance }: { text: string; range: LineRange | undefined } & LineMarks) {
  const byLine = useMemo(() => new Map((annotations ?? []).map((n) => [n.line, n.annotations])), [annotations]);
  const provByLine = useMemo(() => new Map((provenance ?? []).map((p) => [p.startLine, p.provenance])), [provenance]);
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
            {provByLine.has(n) && <ProvenanceLabel p={provByLine.get(n)!} />}
            {byLine.has(n) && <AnnotationChips a={byLine.get(n)!} />}
          </li>
        );
      })}
    </ol>
  );
}
