/**
 * The two ways a body changes a resource: PATCH merges (only the fields given change) and PUT replaces
 * (fields not given return to their defaults; the id stays). POST creates like a PUT over the defaults.
 */
export type WriteMode = 'merge' | 'replace'

/** What a body applies to: the current state for a merge, the defaults for a replacement. */
export function basisOf<T> (mode: WriteMode, current: T, defaults: T): T {
  return mode === 'merge' ? current : defaults
}
