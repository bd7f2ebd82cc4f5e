import { APIError, signedPath, type Problem } from 'reelhouse/client'
import { newWebhookSecret, signatureHeaders } from '../webhooks/signing.ts'
import { UsageError } from './cli-error.ts'
import type { Connection } from './connection.ts'

export interface ListenOptions {
  /** Where each event is POSTed, signed. */
  forwardTo: string
  /** The secret the forwarded events are signed with; a new one when undefined (printed). */
  secret: string | undefined
  /** Only these event types are forwarded (all when undefined). */
  types: ReadonlySet<string> | undefined
  /** Each forwarded event's outcome, as a line or as JSON. */
  report: (outcome: ForwardOutcome) => void
  /** Said once per (re)connection on stderr. */
  status: (line: string) => void
}

export interface ForwardOutcome { event_id: string, type: string, status: number | null, error: string | null, latency_ms: number }

interface StreamEvent { id: string, type: string, data: string }

/** Each forward waits at most this long for the local receiver (ms), as a delivery does. */
const FORWARD_TIMEOUT_MS = 10_000
/** Pauses before opening the stream again after it ended or failed (ms), the last one repeating. */
const RECONNECT_MS = [500, 1000, 2000, 5000, 10_000]

/**
 * `reelhouse webhooks listen`: reads the account's events from the signed server-sent-events stream
 * (`GET /v2/webhook_events`) and POSTs each, signed like a delivery (Standard Webhooks headers with
 * this attempt's time), to a local URL. The service never connects to this machine. When the stream
 * ends (the server closes it after a while, or restarts) it is opened again, signed afresh, after the
 * last event received, so none is missed.
 */
export async function listen (connection: Connection, options: ListenOptions): Promise<never> {
  const secret = options.secret ?? newWebhookSecret()
  let after: string | undefined
  let failures = 0
  let first = true
  for (;;) {
    let response: Response
    try {
      response = await openStream(connection, after)
    } catch (error) {
      if (first) throw error
      options.status(`The stream could not be opened (${(error as Error).message}); trying again.`)
      await pause(failures++)
      continue
    }
    if (!response.ok) {
      const body = await response.json().catch(() => undefined) as Problem | undefined
      const error = new APIError(response.status, body, response.headers, body?.message ?? `HTTP ${response.status}`)
      // A refused key or a forgotten event is not going to change by waiting.
      if (first || response.status < 500) throw error
      options.status(`The stream was refused (${response.status}); trying again.`)
      await pause(failures++)
      continue
    }
    if (first) options.status(`Ready. Forwarding the events of ${connection.address.url} to ${options.forwardTo}, signed with ${secret}${options.secret === undefined ? ' (a new secret each run; --forward-secret keeps one)' : ''}. Ctrl-C stops.`)
    else options.status('The stream is open again.')
    first = false
    failures = 0
    for await (const event of serverSentEvents(response)) {
      after = event.id
      if (options.types !== undefined && !options.types.has(event.type)) continue
      options.report(await forward(event, options.forwardTo, secret))
    }
    options.status('The stream ended; opening it again after the last event received.')
    await pause(failures++)
  }
}

async function openStream (connection: Connection, after: string | undefined): Promise<Response> {
  const path = await signedPath({
    apiKey: connection.credentials.apiKey,
    secret: connection.credentials.secret,
    method: 'GET',
    path: '/v2/webhook_events',
    query: { after },
    expires: Math.floor(Date.now() / 1000) + 300
  })
  return await connection.fetch(new URL(path, connection.address.url).href, { headers: { accept: 'text/event-stream' } })
}

/** The events of a server-sent-events answer; comments, `retry:` and unknown fields are skipped. */
async function * serverSentEvents (response: Response): AsyncIterable<StreamEvent> {
  if (response.body === null) return
  const decoder = new TextDecoder()
  let buffer = ''
  let fields: Record<string, string> = {}
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true })
    let newline: number
    while ((newline = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, newline).replace(/\r$/, '')
      buffer = buffer.slice(newline + 1)
      if (line === '') {
        if (fields.id !== undefined && fields.data !== undefined) yield { id: fields.id, type: fields.event ?? 'message', data: fields.data }
        fields = {}
        continue
      }
      if (line.startsWith(':')) continue
      const colon = line.indexOf(':')
      const name = colon === -1 ? line : line.slice(0, colon)
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '')
      fields[name] = name === 'data' && fields.data !== undefined ? `${fields.data}\n${value}` : value
    }
  }
}

/** One POST of an event to the local receiver, signed now; its answer or why none came. */
async function forward (event: StreamEvent, target: string, secret: string): Promise<ForwardOutcome> {
  const started = performance.now()
  const headers = signatureHeaders(event.id, Math.floor(Date.now() / 1000), event.data, [secret])
  const outcome = { event_id: event.id, type: event.type }
  try {
    const answer = await fetch(target, { method: 'POST', headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'Reelhouse-Webhooks-Listen/1' }, body: event.data, signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS) })
    await answer.arrayBuffer()
    return { ...outcome, status: answer.status, error: null, latency_ms: Math.round(performance.now() - started) }
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code
    const reason = (error as Error).name === 'TimeoutError' ? 'no answer within 10 seconds' : cause === 'ECONNREFUSED' ? 'the connection was refused' : (error as Error).message
    return { ...outcome, status: null, error: reason, latency_ms: Math.round(performance.now() - started) }
  }
}

async function pause (failures: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS[Math.min(failures, RECONNECT_MS.length - 1)]))
}

/** `--forward-to`: an http(s) URL, checked before anything is opened. */
export function forwardTarget (value: string): string {
  let url: URL
  try { url = new URL(value) } catch { throw new UsageError(`--forward-to must be a URL such as http://localhost:3000/hooks, not ${JSON.stringify(value)}`) }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--forward-to must be an http:// or https:// URL, not ${JSON.stringify(value)}`)
  return url.href
}
