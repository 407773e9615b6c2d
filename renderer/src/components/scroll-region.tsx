/**
 * A box that scrolls its own content (`overflow: auto`) must be reachable by keyboard, or a
 * keyboard user cannot scroll it (axe `scrollable-region-focusable`). Whether it overflows
 * depends on the machine's fonts and the window's size — a diff that fits with one font
 * overflows with Noto CJK — so every such box that holds no focusable element of its own is
 * a tab stop, named, with the focus ring of `[data-scroll-region]` (styles.css).
 */
import type { ReactNode } from 'react';

/** Props that make a scrolling box a named tab stop (role `group` lets a `div`/`pre` carry the name). */
export function scrollRegion(label: string): { tabIndex: 0; role: 'group'; 'aria-label': string; 'data-scroll-region': '' } {
  return { tabIndex: 0, role: 'group', 'aria-label': label, 'data-scroll-region': '' };
}

/** A Markdown code block (react-markdown's `pre`): it scrolls sideways, so a keyboard user can reach it. */
export function CodeBlock({ children, className }: { children?: ReactNode; className?: string | undefined }) {
  return (
    <pre className={className} {...scrollRegion('Code block')}>
      {children}
    </pre>
  );
}
