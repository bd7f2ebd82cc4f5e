import { ApiError } from '../../errors/api-error.ts'

export const MAX_PATHS = 100
const MAX_NAME = 255
const PREFIX = '/by_full_path/'
const CONTROL = /[\u0000-\u001f\u007f]/

/**
 * The full paths of a `/v2/labels/by_full_path/<paths>` request, in request order without repeats.
 * Clients send one encoded segment (`%2FSports%2FHockey`) or the raw paths (`/Sports/Hockey,/News`), and
 * some encode the separating commas too; so the path is decoded first and then split at each comma that
 * starts a new path (`,/`). A name may hold a comma; it cannot end with one and have children.
 */
export function fullPathsOf (url: string): string[] {
  const path = url.split('?', 1)[0] as string
  const encoded = path.slice(path.indexOf(PREFIX) + PREFIX.length)
  let text: string
  try {
    text = decodeURIComponent(encoded)
  } catch {
    throw new ApiError('label_path_invalid', 'Label paths must be URL-encoded UTF-8.')
  }
  if (text === '') throw new ApiError('label_path_invalid', 'Give at least one label path, e.g. /v2/labels/by_full_path/%2FSports%2FHockey.')
  const paths = [...new Set(text.split(/,(?=\/)/))]
  if (paths.length > MAX_PATHS) throw new ApiError('label_path_invalid', `At most ${MAX_PATHS} label paths per request.`)
  for (const fullPath of paths) namesOf(fullPath)
  return paths
}

/** The label names along a full path (`/a/b` → `['a', 'b']`), or a 400 saying what is wrong with it. */
export function namesOf (fullPath: string): string[] {
  const quoted = JSON.stringify(fullPath)
  if (!fullPath.startsWith('/')) throw new ApiError('label_path_invalid', `Label path ${quoted} must start with "/".`)
  const names = fullPath.slice(1).split('/')
  if (names.some((name) => name === '')) throw new ApiError('label_path_invalid', `Label path ${quoted} has an empty name.`)
  if (names.some((name) => [...name].length > MAX_NAME)) throw new ApiError('label_path_invalid', `Label path ${quoted} has a name longer than ${MAX_NAME} characters.`)
  if (CONTROL.test(fullPath)) throw new ApiError('label_path_invalid', `Label path ${quoted} contains control characters.`)
  return names
}

/** Every prefix of a full path, shortest first (`/a/b` → `/a`, `/a/b`). */
export function prefixesOf (fullPath: string): string[] {
  const names = namesOf(fullPath)
  return names.map((_, i) => `/${names.slice(0, i + 1).join('/')}`)
}
