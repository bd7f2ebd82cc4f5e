import type { Credentials } from './credentials.ts'

/**
 * The sign-in link of the web console: `<base>/console#api_key=…&secret=…`. The credentials ride in the
 * fragment, which browsers never send to a server; the page takes them into the tab's session storage and
 * removes them from the address bar (docs/console.md). It is printed to the caller's own terminal, the one
 * place a secret is shown again, and never logged.
 */
export function consoleLink (baseUrl: string, credentials: Credentials): string {
  const fragment = new URLSearchParams({ api_key: credentials.apiKey, secret: credentials.secret }).toString()
  return `${baseUrl.replace(/\/+$/, '')}/console#${fragment}`
}
