/** The key and secret the page signs with. */
export interface Credentials { apiKey: string, secret: string }

const KEY = 'reelhouse.console.credentials'

/**
 * A sign-in link (`/console#api_key=…&secret=…`, printed by `reelhouse console`) carries the credentials
 * in the fragment, which browsers never send to a server. They are taken once into `sessionStorage`
 * (this tab only, gone when it closes) and the fragment leaves the address bar and the history entry.
 */
export function takeLinkCredentials (): Credentials | undefined {
  const fragment = new URLSearchParams(location.hash.slice(1))
  const apiKey = fragment.get('api_key')
  const secret = fragment.get('secret')
  if (apiKey === null && secret === null) return undefined
  history.replaceState(null, '', `${location.pathname}${location.search}`)
  if (apiKey === null || secret === null || apiKey === '' || secret === '') return undefined
  const credentials = { apiKey, secret }
  saveCredentials(credentials)
  return credentials
}

export function savedCredentials (): Credentials | undefined {
  const saved = sessionStorage.getItem(KEY)
  if (saved === null) return undefined
  try {
    const parsed = JSON.parse(saved) as Partial<Credentials>
    return typeof parsed.apiKey === 'string' && typeof parsed.secret === 'string' ? { apiKey: parsed.apiKey, secret: parsed.secret } : undefined
  } catch {
    return undefined
  }
}

export function saveCredentials (credentials: Credentials): void {
  sessionStorage.setItem(KEY, JSON.stringify(credentials))
}

export function forgetCredentials (): void {
  sessionStorage.removeItem(KEY)
}
