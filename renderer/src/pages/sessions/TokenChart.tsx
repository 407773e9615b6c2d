/**
 * The token chart (uPlot): estimated context tokens per turn over the session's life, with
 * the drops at compactions marked, and the memory-flush and compaction thresholds (from the
 * config) drawn as lines. Clicking the chart jumps the timeline to that turn. Loaded lazily:
 * uPlot is not needed for the first paint of the page.
 */
import { useEffect, useRef } from 'react';
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
      scales: { x: { time: false }, y: { range: (_u, _min, max) => [0, Math.max(max, series.contextWindow) * 1.05] } },
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
  }, [series]);

  return (
    <div
      ref={box}
      className="token-chart"
      role="img"
      aria-label={`Context tokens over ${series.points.length} turns; window ${num(series.contextWindow)}, flush at ${num(series.flushThreshold)}, compaction above ${num(series.compactionThreshold)}`}
      data-testid="token-chart"
    />
  );
}
