/** An honest empty page for views that are not built yet: says what will be here. */
export function Placeholder({ title, what }: { title: string; what: string }) {
  return (
    <section className="page" aria-labelledby="ph-title">
      <header className="page-header">
        <h1 id="ph-title">{title}</h1>
      </header>
      <p className="muted">{what}</p>
    </section>
  );
}
