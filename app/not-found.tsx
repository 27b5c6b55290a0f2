import Link from "next/link";

// Any path no page answers (HTTP 404). Dashboard records that do not exist have their own page inside the
// shell: app/(dashboard)/not-found.tsx.
export default function NotFound() {
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col items-center justify-center gap-3 px-6 text-center" data-testid="not-found">
      <h1 className="text-xl font-semibold text-ink">Page not found</h1>
      <p className="text-sm text-ink-2">No page answers this address.</p>
      <Link href="/" className="text-sm text-accent hover:underline">Back to the overview</Link>
    </main>
  );
}
