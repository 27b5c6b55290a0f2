"use client";

import { Monitor, Moon, Sun } from "lucide-react";
import { useSyncExternalStore } from "react";

type Theme = "light" | "dark" | "system";
const OPTIONS: { value: Theme; label: string; icon: typeof Sun }[] = [
  { value: "light", label: "Light", icon: Sun },
  { value: "dark", label: "Dark", icon: Moon },
  { value: "system", label: "System", icon: Monitor },
];

export function applyTheme(theme: Theme) {
  const dark = theme === "dark" || (theme === "system" && window.matchMedia("(prefers-color-scheme: dark)").matches);
  document.documentElement.classList.toggle("dark", dark);
}

/** Runs before first paint (inlined in <head>) so a dark-theme user never sees a light flash. */
export const THEME_BOOT_SCRIPT = `(function(){try{var t=localStorage.getItem("lg-theme")||"system";var d=t==="dark"||(t==="system"&&matchMedia("(prefers-color-scheme: dark)").matches);document.documentElement.classList.toggle("dark",d)}catch(e){}})()`;

// The chosen theme lives in localStorage; other tabs hear about changes through the "storage" event.
function subscribe(onChange: () => void) {
  window.addEventListener("storage", onChange);
  window.addEventListener("lg-theme", onChange);
  return () => {
    window.removeEventListener("storage", onChange);
    window.removeEventListener("lg-theme", onChange);
  };
}
const readTheme = () => (localStorage.getItem("lg-theme") as Theme | null) ?? "system";

export function ThemeToggle() {
  const theme = useSyncExternalStore(subscribe, readTheme, () => "system" as Theme);
  function choose(next: Theme) {
    localStorage.setItem("lg-theme", next);
    applyTheme(next);
    window.dispatchEvent(new Event("lg-theme"));
  }
  return (
    <div role="radiogroup" aria-label="Theme" className="flex rounded-md border border-line bg-panel-2 p-0.5">
      {OPTIONS.map(({ value, label, icon: Icon }) => (
        <button
          key={value}
          type="button"
          role="radio"
          aria-checked={theme === value}
          aria-label={`${label} theme`}
          onClick={() => choose(value)}
          className={`flex flex-1 items-center justify-center gap-1 rounded px-2 py-1 text-xs transition-colors ${
            theme === value ? "bg-panel text-ink shadow-sm" : "text-ink-3 hover:text-ink-2"
          }`}
        >
          <Icon className="h-3.5 w-3.5" />
          <span>{label}</span>
        </button>
      ))}
    </div>
  );
}
