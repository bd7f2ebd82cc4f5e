/**
 * A table looked up, or filled, with text a caller chose: it has no prototype, so `constructor`,
 * `toString` or `__proto__` find nothing and add an ordinary entry (docs/security.md, "Input").
 */
export function dictionary<V> (entries: Readonly<Record<string, V>> = {}): Record<string, V | undefined> {
  return Object.assign(Object.create(null) as Record<string, V | undefined>, entries)
}
