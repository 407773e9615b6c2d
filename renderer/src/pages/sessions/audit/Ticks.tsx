/** A sentence whose `backticked` parts are shown as code (the audit's summary lines). */
export function Ticks({ text }: { text: string }) {
  return (
    <>
      {text.split('`').map((part, i) => (i % 2 ? <code key={i}>{part}</code> : <span key={i}>{part}</span>))}
    </>
  );
}
