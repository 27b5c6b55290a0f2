// Form primitives: a labelled field, text input, select, button and an inline alert, on the design tokens.
import type { ButtonHTMLAttributes, InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from "react";

export function Field({ label, htmlFor, hint, error, children }: { label: ReactNode; htmlFor: string; hint?: ReactNode; error?: ReactNode; children: ReactNode }) {
  return (
    <div className="space-y-1">
      <label htmlFor={htmlFor} className="block text-xs font-medium text-ink-2">{label}</label>
      {children}
      {error ? <p id={`${htmlFor}-note`} className="text-xs text-fail" role="alert">{error}</p> : hint ? <p id={`${htmlFor}-note`} className="text-xs text-ink-3">{hint}</p> : null}
    </div>
  );
}

const control = "w-full rounded-md border border-line bg-panel px-3 py-2 text-sm text-ink placeholder:text-ink-3 focus:border-accent focus:ring-2 focus:ring-accent/25 focus:outline-none disabled:opacity-60";

export function TextInput(props: InputHTMLAttributes<HTMLInputElement>) {
  return <input {...props} className={`${control} ${props.className ?? ""}`} />;
}

export function Select(props: SelectHTMLAttributes<HTMLSelectElement>) {
  return <select {...props} className={`${control} ${props.className ?? ""}`} />;
}

export function Button({ variant = "primary", className = "", ...props }: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: "primary" | "secondary" | "danger" | "ghost" }) {
  const look = {
    primary: "bg-accent text-accent-ink hover:brightness-110",
    secondary: "border border-line bg-panel text-ink hover:bg-panel-2",
    danger: "border border-fail/30 bg-fail/10 text-fail hover:bg-fail/15",
    ghost: "text-ink-2 hover:bg-panel-2 hover:text-ink",
  }[variant];
  return (
    <button
      type="button"
      {...props}
      className={`inline-flex items-center justify-center gap-1.5 rounded-md px-3 py-2 text-sm font-medium transition disabled:cursor-not-allowed disabled:opacity-60 ${look} ${className}`}
    />
  );
}

export function Alert({ tone, children, testId }: { tone: "fail" | "pass" | "warn"; children: ReactNode; testId?: string }) {
  const look = { fail: "border-fail/30 bg-fail/10 text-fail", pass: "border-pass/30 bg-pass/10 text-pass", warn: "border-warn/30 bg-warn/10 text-warn" }[tone];
  return (
    <div role={tone === "fail" ? "alert" : "status"} data-testid={testId} className={`rounded-md border px-3 py-2 text-sm ${look}`}>
      {children}
    </div>
  );
}
