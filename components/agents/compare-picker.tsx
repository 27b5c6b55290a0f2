// Pick the two versions to compare: a plain GET form, so the result is the shareable URL (?a=…&b=…) and works
// before any script has loaded.
export type VersionChoice = { id: string; number: number; name: string };

const select = "w-full min-w-0 rounded-md border border-line bg-panel px-2 py-1.5 text-sm text-ink sm:w-72";

function Choice({ name, label, choices, value }: { name: "a" | "b"; label: string; choices: VersionChoice[]; value: string | null }) {
  return (
    <span className="flex min-w-0 flex-col gap-1">
      <label htmlFor={`compare-${name}`} className="text-xs text-ink-2">
        {label}
      </label>
      <select id={`compare-${name}`} name={name} defaultValue={value ?? ""} required className={select}>
        <option value="" disabled>
          Pick a version
        </option>
        {choices.map((c) => (
          <option key={c.id} value={c.id}>
            #{c.number} · {c.name}
          </option>
        ))}
      </select>
    </span>
  );
}

export function ComparePicker({ agent, choices, a, b }: { agent: string; choices: VersionChoice[]; a: string | null; b: string | null }) {
  return (
    <form method="get" action={`/agents/${encodeURIComponent(agent)}/compare`} className="flex flex-wrap items-end gap-3" data-testid="compare-picker">
      <Choice name="a" label="Version A" choices={choices} value={a} />
      <Choice name="b" label="Version B" choices={choices} value={b} />
      <button type="submit" className="rounded-md bg-accent px-3 py-1.5 text-sm font-medium text-accent-ink hover:opacity-90">
        Compare
      </button>
    </form>
  );
}
