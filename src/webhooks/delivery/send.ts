import { lookup } from 'node:dns/promises'
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { isIP, connect as netConnect, type Socket } from 'node:net'
import { connect as tlsConnect } from 'node:tls'
import { forbiddenReason } from './address-policy.ts'

/** Resolves a host name to its addresses (all of them: one forbidden address refuses the target). */
export type Resolver = (host: string) => Promise<Array<{ address: string, family: number }>>

/** Opens the connection to the address that was checked; `servername` is the URL's host (TLS SNI). */
export type Connector = (target: { address: string, port: number, tls: boolean, servername: string }) => Socket

export interface TargetPolicy {
  /** WEBHOOKS_ALLOW_PRIVATE: any address may be a target (a private network's receivers). */
  allowPrivate: boolean
  /** WEBHOOKS_ALLOW_HTTP: `http://` targets are allowed. */
  allowHttp: boolean
  resolve?: Resolver
  connect?: Connector
  /** Milliseconds an attempt may take from the connection to the end of the answer (10 s). */
  timeoutMs?: number
}

/** What one attempt ended with. `status` is undefined when no answer came; `error` says why, never with an address. */
export interface AttemptOutcome {
  status?: number
  error?: string
  /** The first 1 KiB of the answer's body, for a public target only. */
  response?: string
  latencyMs: number
}

const systemResolver: Resolver = async (host) => await lookup(host, { all: true, verbatim: true })
const systemConnector: Connector = ({ address, port, tls, servername }) =>
  tls ? tlsConnect({ host: address, port, servername: isIP(servername) === 0 ? servername : undefined, ALPNProtocols: ['http/1.1'] }) : netConnect({ host: address, port })

const RESPONSE_BYTES = 1024

/**
 * Why `url` may not be a target before any lookup (a scheme, or an IP literal that is forbidden), or
 * undefined. Creating an endpoint checks this; every attempt checks the resolved addresses again.
 */
export function staticRefusal (url: URL, policy: Pick<TargetPolicy, 'allowHttp' | 'allowPrivate'>): string | undefined {
  if (url.protocol !== 'https:' && !(policy.allowHttp && url.protocol === 'http:')) return 'the target must be an https:// URL'
  if (url.username !== '' || url.password !== '') return 'the target must not carry a user name or password'
  const host = bareHost(url.hostname)
  if (!policy.allowPrivate && isIP(host) !== 0) {
    const reason = forbiddenReason(host)
    if (reason !== undefined) return `the target is ${reason}`
  }
  return undefined
}

/**
 * One attempt: resolve the host, refuse it if any of its addresses is forbidden, connect to the address
 * checked (never a second lookup), send the body, read the answer's status. Redirects are answers like
 * any other: never followed.
 */
export async function sendAttempt (target: string, headers: Record<string, string>, body: string, policy: TargetPolicy, now: () => number): Promise<AttemptOutcome> {
  const started = now()
  const elapsed = (): number => Math.max(0, now() - started)
  const url = new URL(target)
  const refused = staticRefusal(url, policy)
  if (refused !== undefined) return { error: `Not delivered: ${refused}.`, latencyMs: 0 }
  const host = bareHost(url.hostname)
  let addresses: Array<{ address: string, family: number }>
  try {
    addresses = isIP(host) !== 0 ? [{ address: host, family: isIP(host) }] : await (policy.resolve ?? systemResolver)(host)
  } catch {
    return { error: `Not delivered: the name ${host} could not be resolved.`, latencyMs: elapsed() }
  }
  const first = addresses[0]
  if (first === undefined) return { error: `Not delivered: the name ${host} has no address.`, latencyMs: elapsed() }
  if (!policy.allowPrivate) {
    for (const { address } of addresses) {
      const reason = forbiddenReason(address)
      if (reason !== undefined) return { error: `Not delivered: ${isIP(host) !== 0 ? 'the target is' : `the name ${host} resolves to`} ${reason}.`, latencyMs: elapsed() }
    }
  }
  const isPublic = addresses.every(({ address }) => forbiddenReason(address) === undefined)
  const tls = url.protocol === 'https:'
  const port = url.port === '' ? (tls ? 443 : 80) : Number(url.port)
  const connector = policy.connect ?? systemConnector
  try {
    const answer = await exchange(url, port, headers, body, policy.timeoutMs ?? 10_000, () => connector({ address: first.address, port, tls, servername: host }))
    return { status: answer.status, ...(isPublic ? { response: answer.body } : {}), latencyMs: elapsed() }
  } catch (error) {
    return { error: `Not delivered: ${describe(error)}.`, latencyMs: elapsed() }
  }
}

function exchange (url: URL, port: number, headers: Record<string, string>, body: string, timeoutMs: number, socket: () => Socket): Promise<{ status: number, body: string }> {
  return new Promise((resolve, reject) => {
    const payload = Buffer.from(body)
    const req = httpRequest({
      method: 'POST',
      host: url.hostname,
      port,
      path: `${url.pathname}${url.search}`,
      // No agent: with one, Node would open its own connection to the host name (a second lookup).
      createConnection: socket,
      headers: { ...headers, 'content-type': 'application/json', 'content-length': String(payload.length), 'user-agent': 'Reelhouse-Webhooks/1', host: url.host }
    }, (res: IncomingMessage) => {
      const chunks: Buffer[] = []
      let kept = 0
      res.on('data', (chunk: Buffer) => {
        if (kept < RESPONSE_BYTES) { chunks.push(chunk); kept += chunk.length }
      })
      res.on('end', () => { clearTimeout(timer); resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).subarray(0, RESPONSE_BYTES).toString('utf8') }) })
      res.on('error', (error) => { clearTimeout(timer); reject(error) })
    })
    const timer = setTimeout(() => { req.destroy(new TimeoutError()) }, timeoutMs)
    req.on('error', (error) => { clearTimeout(timer); reject(error) })
    req.end(payload)
  })
}

class TimeoutError extends Error {}

/** Why a connection failed, in words that name no address (a system error's message may). */
function describe (error: unknown): string {
  if (error instanceof TimeoutError) return 'no answer within the timeout'
  const code = (error as NodeJS.ErrnoException).code
  switch (code) {
    case 'ECONNREFUSED': return 'the connection was refused'
    case 'ECONNRESET': return 'the connection was reset'
    case 'EHOSTUNREACH': case 'ENETUNREACH': return 'the target is unreachable'
    case 'ETIMEDOUT': return 'the connection timed out'
    default: return code !== undefined && (code.startsWith('ERR_TLS') || code.includes('CERT')) ? 'the TLS handshake failed' : 'the connection failed'
  }
}

function bareHost (hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname
}
