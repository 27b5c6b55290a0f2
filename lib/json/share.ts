// Structural sharing for the query cache: a refetched answer keeps the objects of the previous one wherever
// nothing changed, so React re-renders only what did. React Query's own replaceEqualDeep builds its copies
// by assignment, which turns an own key `__proto__` of stored user JSON into the copy's prototype (the key
// vanishes, its value leaks in as inherited properties). This is the same algorithm with every copied key
// defined as an own property.

type Plain = Record<string, unknown>;

function isPlainObject(v: unknown): v is Plain {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}
const isPlainArray = (v: unknown): v is unknown[] => Array.isArray(v) && Object.keys(v).length === v.length;

/** `next`, with every part deep-equal to the same part of `prev` replaced by that part of `prev`. */
export function shareEqualDeep(prev: unknown, next: unknown, depth = 0): unknown {
  if (prev === next) return prev;
  if (depth > 500) return next;
  if (isPlainArray(prev) && isPlainArray(next)) {
    let same = prev.length === next.length;
    const copy = next.map((item, i) => {
      const shared = i < prev.length ? shareEqualDeep(prev[i], item, depth + 1) : item;
      if (i >= prev.length || shared !== prev[i]) same = false;
      return shared;
    });
    return same ? prev : copy;
  }
  if (isPlainObject(prev) && isPlainObject(next)) {
    const keys = Object.keys(next);
    let same = keys.length === Object.keys(prev).length;
    const copy: Plain = {};
    for (const key of keys) {
      const had = Object.hasOwn(prev, key);
      const shared = had ? shareEqualDeep(prev[key], next[key], depth + 1) : next[key];
      if (!had || shared !== prev[key]) same = false;
      Object.defineProperty(copy, key, { value: shared, writable: true, enumerable: true, configurable: true });
    }
    return same ? prev : copy;
  }
  return next;
}
