/**
 * A `<details>` that renders its body only while open, so a closed 100k-char tool output or
 * thinking block costs nothing in a 10,000-entry timeline.
 */
import { useState, type ReactNode } from 'react';

export function Collapsible({
  summary,
  children,
  className,
  defaultOpen = false,
  onToggle,
}: {
  summary: ReactNode;
  children: () => ReactNode;
  className?: string;
  defaultOpen?: boolean;
  onToggle?: (open: boolean) => void;
}) {
  const [open, setOpen] = useState(defaultOpen);
  return (
    <details
      className={className}
      open={open}
      onToggle={(e) => {
        const next = (e.currentTarget as HTMLDetailsElement).open;
        if (next !== open) {
          setOpen(next);
          onToggle?.(next);
        }
      }}
    >
      <summary>{summary}</summary>
      {open && children()}
    </details>
  );
}
