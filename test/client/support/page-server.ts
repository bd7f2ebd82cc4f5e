import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** The Content Security Policy the page is served under: nothing inline, nothing from elsewhere. */
export const STRICT_CSP = "default-src 'none'; script-src 'self'; connect-src 'self'; report-uri /csp-report"

export interface PageServer {
  url: string
  /** What the page posted to /report. */
  report: Promise<unknown>
  /** Every CSP violation report the browser sent. */
  violations: unknown[]
  close: () => Promise<void>
}

/**
 * Serves a test page under `STRICT_CSP`: `files` by path, and `/v2/…` passed through to the API, so
 * the page and the API share one origin, as a console served by the API would.
 */
export async function pageServer (files: Record<string, { type: string, body: string }>, api: string): Promise<PageServer> {
  let settle!: (value: unknown) => void
  const report = new Promise<unknown>((resolve) => { settle = resolve })
  const violations: unknown[] = []
  const target = new URL(api)
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?', 1)[0] as string
    if (path.startsWith('/v2/')) {
      const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      })
      upstream.on('error', () => { res.writeHead(502).end() })
      req.pipe(upstream)
      return
    }
    if (req.method === 'POST' && (path === '/report' || path === '/csp-report')) {
      const chunks: Buffer[] = []
      req.on('data', (chunk: Buffer) => chunks.push(chunk))
      req.on('end', () => {
        const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'))
        if (path === '/report') settle(body)
        else violations.push(body)
        res.writeHead(204).end()
      })
      return
    }
    const file = files[path]
    if (file === undefined) {
      res.writeHead(404).end()
      return
    }
    res.writeHead(200, { 'content-type': file.type, 'content-security-policy': STRICT_CSP, 'cache-control': 'no-store' }).end(file.body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    report,
    violations,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}
