// The mark: a gate (two posts and a lintel) with a bolt held inside it.
export function LogoMark({ className = "h-6 w-6" }: { className?: string }) {
  return (
    <svg viewBox="0 0 24 24" className={className} aria-hidden="true">
      <rect x="2.5" y="3" width="19" height="3" rx="1" fill="currentColor" />
      <rect x="3.5" y="6" width="3" height="15" rx="1" fill="currentColor" />
      <rect x="17.5" y="6" width="3" height="15" rx="1" fill="currentColor" />
      <path d="M13.2 7.5 9 14h2.8l-1 4.5L15 12h-2.8l1-4.5Z" fill="var(--lg-accent)" />
    </svg>
  );
}
