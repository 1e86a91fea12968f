/** A screen of the spec that a later issue builds; says so plainly instead of pretending. */
export function PlaceholderPage({ title }: { title: string }) {
  return (
    <section className="page">
      <h1 className="page-title">{title}</h1>
      <p className="muted">This screen is not available yet.</p>
    </section>
  );
}
