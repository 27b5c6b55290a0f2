// Looking up a caller-given name on a plain object must find only what was put there: `table["toString"]`
// otherwise returns Object.prototype's function, `table["__proto__"]` the prototype itself, and assigning to
// `out["__proto__"]` replaces a prototype instead of adding a key. Use these (or a Map) wherever the name
// comes from a request, a stored document or a span.

/** record[key] when `key` is the record's own property, else undefined (never an inherited member). */
export function ownValue<V>(record: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Whether `key` is one of the object's own keys; narrows it to the object's key type. */
export function isOwnKey<T extends object>(record: T, key: PropertyKey): key is keyof T {
  return Object.hasOwn(record, key);
}

/** An empty record without a prototype: any name, `__proto__` included, is an ordinary key of it. */
export function dictionary<V>(): Record<string, V> {
  return Object.create(null) as Record<string, V>;
}
