"use client";

// Live feedback on the password rule, from the same function the server enforces.
import { Check, X } from "lucide-react";
import { MIN_PASSWORD_LENGTH, passwordProblems, type PasswordContext } from "@/lib/auth/password-policy";

export function PasswordRules({ password, context }: { password: string; context: PasswordContext }) {
  const problems = password ? passwordProblems(password, context) : [];
  if (!password) return <p className="text-xs text-ink-3">At least {MIN_PASSWORD_LENGTH} characters; not a common password, your name or your email.</p>;
  if (problems.length === 0) {
    return (
      <p className="flex items-center gap-1 text-xs text-pass" data-testid="password-ok">
        <Check className="h-3.5 w-3.5" /> Strong enough.
      </p>
    );
  }
  return (
    <ul className="space-y-0.5" data-testid="password-problems">
      {problems.map((p) => (
        <li key={p} className="flex items-start gap-1 text-xs text-fail">
          <X className="mt-0.5 h-3.5 w-3.5 shrink-0" /> {p}
        </li>
      ))}
    </ul>
  );
}
