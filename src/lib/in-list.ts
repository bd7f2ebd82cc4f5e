/**
 * The values of an SQL `IN (…)` list, padded to the next power of two by repeating the last one (the
 * same condition: a list matches a value once whatever its repeats). The SQL text of a query holds one
 * placeholder per value, and the embedded database keeps a prepared statement per SQL text
 * (SQLITE_STATEMENT_CACHE), each some tens of KiB of native memory with a few hundred placeholders: lists
 * of every length from 1 to 500 would make up to 500 statements of one query. Padded, a query takes at
 * most ten shapes up to 512 values. docs/deployment.md, "Memory".
 * @example inList(['a', 'b', 'c']) // ['a', 'b', 'c', 'c']
 */
export function inList<T> (values: Iterable<T>): T[] {
  const list = [...values]
  if (list.length === 0) return list
  let size = 1
  while (size < list.length) size *= 2
  const last = list[list.length - 1]
  while (list.length < size) list.push(last)
  return list
}
