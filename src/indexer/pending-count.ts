import { INDEX_QUEUE } from '../outbox/index.ts'

export interface Endpoint {
  /** Base URL; `user:password@` in it is sent as basic auth, as the management API and the indexer expect. */
  url: string
  /** The virtual host of the index queue (`amqpVhost(AMQP_URL)`); `/` when not given, as the embedded queue's. */
  vhost?: string
}

/**
 * The virtual host an AMQP URL names, as RabbitMQ clients read it (rabbitmq-client does the same): the
 * first path segment, percent-decoded (`amqp://host/media` is `media`, `amqp://host/%2Fmedia` is
 * `/media`); `/` when there is none. Undefined URL (the embedded queue): `/`.
 */
export function amqpVhost (amqpUrl: string | undefined): string {
  if (amqpUrl === undefined) return '/'
  const segment = new URL(amqpUrl).pathname.split('/')[1] ?? ''
  return segment === '' ? '/' : decodeURIComponent(segment)
}

/**
 * `GET /api/queues/<vhost>/flex.indexelastic.indexdeduped.queue` on RabbitMQ's management API or on the
 * embedded indexing service (docs/search-and-indexing.md). `messages` is undefined when the answer lacks it:
 * RabbitMQ leaves it out for the first seconds after a queue is created (its statistics are sampled).
 */
export async function readQueueMessages (endpoint: Endpoint, options: { missingIsUnknown?: boolean } = {}): Promise<number | undefined> {
  const path = `/api/queues/${encodeURIComponent(endpoint.vhost ?? '/')}/${INDEX_QUEUE}`
  const body = await getJson(endpoint, path, options.missingIsUnknown === true) as { messages?: unknown } | undefined
  return typeof body?.messages === 'number' ? body.messages : undefined
}

/** The indexing service's outbox: with RabbitMQ, `unpublished` is what the broker has not been handed yet. */
export async function readOutbox (endpoint: Endpoint): Promise<{ unpublished: number, entries: number }> {
  const body = await getJson(endpoint, '/api/outbox') as { unpublished: number, entries: number }
  return { unpublished: body.unpublished, entries: body.entries }
}

/**
 * Whether an endpoint answers and takes our credentials: the status of a GET, or a thrown error naming
 * it (redacted) when it cannot be reached. Any answer but 401 and 403 proves both.
 */
export async function probe (endpoint: Endpoint, path: string): Promise<number> {
  const { url, headers } = split(endpoint.url, path)
  try {
    const response = await fetch(url, { headers })
    await response.body?.cancel()
    return response.status
  } catch (error) {
    throw new Error(`${redact(url)} is unreachable: ${(error as Error).message}`)
  }
}

export async function postJson (endpoint: Endpoint, path: string, payload: unknown): Promise<{ status: number, body: any }> {
  const { url, headers } = split(endpoint.url, path)
  const response = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(payload) })
  const text = await response.text()
  return { status: response.status, body: text === '' ? undefined : parseOr(text) }
}

async function getJson (endpoint: Endpoint, path: string, missingIsUnknown = false): Promise<unknown> {
  const { url, headers } = split(endpoint.url, path)
  const response = await fetch(url, { headers })
  const text = await response.text()
  // RabbitMQ answers 404 until a worker has declared the queue.
  if (response.status === 404 && missingIsUnknown) return undefined
  if (response.status === 404) throw new Error(`${redact(url)}: 404 (is the queue ${INDEX_QUEUE} declared? a worker declares it at start)`)
  if (!response.ok) throw new Error(`${redact(url)} answered ${response.status}: ${text.slice(0, 200)}`)
  return parseOr(text)
}

/** fetch refuses URLs with credentials: they move to an Authorization header. */
function split (base: string, path: string): { url: string, headers: Record<string, string> } {
  const parsed = new URL(base)
  const headers: Record<string, string> = { accept: 'application/json' }
  if (parsed.username !== '') {
    const pair = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`
    headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`
    parsed.username = ''
    parsed.password = ''
  }
  return { url: parsed.origin + parsed.pathname.replace(/\/$/, '') + path, headers }
}

function redact (url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//')
}

function parseOr (text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return { raw: text }
  }
}
