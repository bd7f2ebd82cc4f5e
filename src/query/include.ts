import { validationError } from '../errors/api-error.ts'

/** What an asset list can embed in each item (docs/resources.md, "Assets"). */
export const DEFAULT_INCLUDES = ['metadata', 'labels', 'player'] as const
export type DefaultInclude = typeof DEFAULT_INCLUDES[number]

/**
 * Parses `include`, a comma-separated list (`metadata,labels`), case-insensitively. Blank items and
 * spaces or `+` around names are ignored, so `metadata,+labels,` works; repeats count once.
 * @throws ApiError validation_failed naming every unknown value.
 * @example parseInclude('metadata,labels').has('labels') // true
 */
export function parseInclude (raw: string | undefined): ReadonlySet<DefaultInclude>
export function parseInclude<T extends string> (raw: string | undefined, allowed: readonly T[]): ReadonlySet<T>
export function parseInclude (raw: string | undefined, allowed: readonly string[] = DEFAULT_INCLUDES): ReadonlySet<string> {
  const found = new Set<string>()
  const unknown: string[] = []
  for (const item of (raw ?? '').split(',')) {
    const name = item.replace(/^[\s+]+|[\s+]+$/g, '')
    if (name === '') continue
    const match = allowed.find((candidate) => candidate.toLowerCase() === name.toLowerCase())
    if (match !== undefined) found.add(match)
    else if (!unknown.includes(name)) unknown.push(name)
  }
  if (unknown.length > 0) {
    const names = unknown.map((name) => `'${name}'`).join(', ')
    const message = `Unknown include value${unknown.length > 1 ? 's' : ''} ${names}; include takes ${allowed.join(', ')}.`
    throw validationError(message, { include: [message] })
  }
  return found
}
