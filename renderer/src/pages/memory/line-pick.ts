/**
 * Citing any line of the open memory file: a click on a line (source) or a
 * block (rendered) picks its lines, Shift+click extends the pick, and a text selection picks
 * the lines it spans. Works on every view through event delegation on `[data-line]`
 * (blocks add `data-end`), so no per-line buttons are added to the DOM of a long file.
 */
import type { LineRange } from '../../stores/memory';

function linesOf(el: Element | null): LineRange | undefined {
  const hit = el?.closest('[data-line]');
  const from = Number(hit?.getAttribute('data-line'));
  if (!hit || !Number.isInteger(from) || from < 1) return undefined;
  const end = Number(hit.getAttribute('data-end'));
  return { from, to: Number.isInteger(end) && end >= from ? end : from };
}

const elementOf = (n: Node | null): Element | null => (n && n.nodeType === Node.ELEMENT_NODE ? (n as Element) : (n?.parentElement ?? null));

/** The lines a click (or the current text selection) in `container` picks, given the previous pick. */
export function pickLines(container: HTMLElement, ev: { target: EventTarget | null; shiftKey: boolean }, previous: LineRange | undefined): LineRange | undefined {
  const target = ev.target as Element | null;
  if (target?.closest('a, button, input, textarea, select')) return previous;
  const sel = window.getSelection();
  if (sel && !sel.isCollapsed && container.contains(sel.anchorNode) && container.contains(sel.focusNode)) {
    const a = linesOf(elementOf(sel.anchorNode));
    const b = linesOf(elementOf(sel.focusNode));
    if (a && b) return { from: Math.min(a.from, b.from), to: Math.max(a.to, b.to) };
  }
  const here = linesOf(target);
  if (!here) return previous;
  if (ev.shiftKey && previous) return { from: Math.min(previous.from, here.from), to: Math.max(previous.to, here.to) };
  return here;
}
