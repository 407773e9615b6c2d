/**
 * The token chart (uPlot): estimated context tokens per turn over the session's life, with
 * the drops at compactions marked, and the memory-flush and compaction thresholds (from the
 * config) drawn as lines. Clicking the chart jumps the timeline to that turn. Loaded lazily:
 * uPlot is not needed for the first paint of the page. A session far past its window (28M
 * tokens against 200k) would flatten the thresholds onto zero: above twice the window the
 * y-axis is clipped at 1.3x the window and the peak is stated; the flush and
 * compaction lines carry their own labels, moved apart when they would overlap.
 */
import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { TokenSeries } from '../../stores/sessions';
import { compact, num } from './format';

function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

export default function TokenChart({ series, onPick }: { series: TokenSeries; onPick: (entryId: string) => void }) {
  const box = useRef<HTMLDivElement>(null);
  const pick = useRef(onPick);
  pick.current = onPick;
  const peak = series.points.reduce((m, p) => Math.max(m, p.tokens), 0);
  const clipAt = peak > series.contextWindow * 2 ? series.contextWindow * 1.3 : undefined;
  const [labels, setLabels] = useState<string | undefined>();

  useEffect(() => {
    const el = box.current;
    if (!el || series.points.length === 0) return;
    const xs = series.points.map((_, i) => i + 1);
    const tokens = series.points.map((p) => p.tokens);
    const drops = series.points.map((p) => (p.compaction ? p.tokens : null));
    const flush = xs.map(() => series.flushThreshold);
    const limit = xs.map(() => series.compactionThreshold);
    const accent = cssVar('--accent', '#3a6ea5');
    const warn = cssVar('--warn', '#b26a00');
    const fail = cssVar('--fail', '#c62828');
    const text = cssVar('--muted', '#6b675f');
    const grid = cssVar('--border', '#dedad2');
    const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid } };
    const opts: uPlot.Options = {
      width: Math.max(300, el.clientWidth),
      height: 150,
      cursor: { drag: { x: false, y: false }, points: { size: 6 } },
      legend: { show: true, live: true },
      scales: { x: { time: false }, y: { range: (_u, _min, max) => [0, clipAt ?? Math.max(max, series.contextWindow) * 1.05] } },
      hooks: {
        // Label the two threshold lines at the right edge; 176k and 180k would print on top
        // of each other, so the upper label moves up until they are a line apart.
        draw: [
          (u) => {
            const ctx = u.ctx;
            const px = devicePixelRatio || 1;
            const x = u.bbox.left + u.bbox.width - 4 * px;
            let yC = u.valToPos(series.compactionThreshold, 'y', true) - 3 * px;
            const yF = u.valToPos(series.flushThreshold, 'y', true) + 11 * px;
            const gap = 13 * px;
            if (yF - yC < gap) yC = yF - gap;
            ctx.save();
            ctx.font = `${11 * px}px system-ui, sans-serif`;
            ctx.textAlign = 'right';
            ctx.fillStyle = fail;
            ctx.fillText(`compaction ${compact(series.compactionThreshold)}`, x, yC);
            ctx.fillStyle = warn;
            ctx.fillText(`flush ${compact(series.flushThreshold)}`, x, yF);
            ctx.restore();
            setLabels(`${Math.round(yC / px)},${Math.round(yF / px)}`);
          },
        ],
      },
      axes: [
        { ...axis, label: 'turn', labelSize: 14, size: 30 },
        { ...axis, size: 52, values: (_u, vals) => vals.map((v) => compact(v)) },
      ],
      series: [
        { label: 'turn' },
        { label: 'context tokens', stroke: accent, width: 1.5, fill: `${accent}22`, value: (_u, v) => (v == null ? '—' : num(v)) },
        { label: 'compaction', stroke: fail, width: 0, points: { show: true, size: 9, stroke: fail, fill: fail }, value: (_u, v) => (v == null ? '—' : `after ${num(v)}`) },
        { label: `flush ≥ ${compact(series.flushThreshold)}`, stroke: warn, width: 1, dash: [6, 4], points: { show: false }, value: () => num(series.flushThreshold) },
        { label: `compact > ${compact(series.compactionThreshold)}`, stroke: fail, width: 1, dash: [3, 3], points: { show: false }, value: () => num(series.compactionThreshold) },
      ],
    };
    const plot = new uPlot(opts, [xs, tokens, drops, flush, limit], el);
    const onClick = () => {
      const i = plot.cursor.idx;
      const p = i == null ? undefined : series.points[i];
      if (p) pick.current(p.entryId);
    };
    plot.over.addEventListener('click', onClick);
    const ro = new ResizeObserver(() => plot.setSize({ width: Math.max(300, el.clientWidth), height: 150 }));
    ro.observe(el);
    return () => {
      ro.disconnect();
      plot.over.removeEventListener('click', onClick);
      plot.destroy();
    };
  }, [series, clipAt]);

  return (
    <>
      {clipAt !== undefined && (
        <p className="muted chart-clip" data-testid="chart-clipped">
          The axis stops at {num(Math.round(clipAt))} tokens so the thresholds stay readable; this session peaks at {num(peak)}, far past its{' '}
          {num(series.contextWindow)}-token window.
        </p>
      )}
      <div
      ref={box}
      data-labels={labels}
      className="token-chart"
      role="img"
      aria-label={`Context tokens over ${series.points.length} turns; window ${num(series.contextWindow)}, flush at ${num(series.flushThreshold)}, compaction above ${num(series.compactionThreshold)}`}
      data-testid="token-chart"
      />
    </>
  );
}
