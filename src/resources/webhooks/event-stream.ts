import { PassThrough } from 'node:stream'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { callerOf } from '../../http/request-types.ts'
import { SignedErrors, SignedQuery } from '../../http/schemas.ts'
import type { EventCursor } from './webhooks-repository.ts'
import type { WebhooksService } from './webhooks-service.ts'

/** How often an open stream looks for new events (ms). */
const POLL_MS = 500
/** A comment line this often keeps proxies and idle timeouts from closing a quiet stream (ms). */
const HEARTBEAT_MS = 15_000
/**
 * A stream ends after this long (ms); the listener opens a new one, signed afresh, with `after`. A key
 * revoked meanwhile stops receiving at the latest then.
 */
const STREAM_MAX_MS = 15 * 60_000
const BATCH = 100

export const EventStreamQuery = Type.Object({
  ...SignedQuery,
  after: Type.Optional(Type.String({ pattern: '^evt_[0-9a-f]{32}$', description: 'Start after this event (the `id:` of the last event received), to resume without a gap; left out: only events from now on', examples: ['evt_5e0f3a9b8c7d4e2f9a1b6c3d8e7f0a1b'] }))
})

const EventStreamResponse = {
  description: 'A server-sent-events stream: per event an `id:` (the event id), an `event:` (its type) and one `data:` line, the event body exactly as a delivery sends it; `:` comment lines keep a quiet stream open',
  content: {
    'text/event-stream': { schema: Type.String({ description: 'Server-sent events', examples: ['id: evt_5e0f3a9b8c7d4e2f9a1b6c3d8e7f0a1b\nevent: asset.created\ndata: {"id":"evt_5e0f3a9b8c7d4e2f9a1b6c3d8e7f0a1b","type":"asset.created","created_at":"2026-11-22T10:00:00Z","account_id":"…","data":{}}\n\n'] }) }
  }
}

/**
 * `GET /v2/webhook_events`: the account's events as a signed server-sent-events stream, which
 * `reelhouse webhooks listen` reads and forwards to a developer's machine; the service itself never
 * connects there (docs/webhooks.md, "Listening locally").
 */
export const eventStreamRoute: FastifyPluginAsyncTypebox<{ webhooks: WebhooksService }> = async (app, { webhooks }) => {
  const open = new Set<() => void>()
  // A closing server ends its streams; each listener reconnects (to another instance) with `after`.
  app.addHook('preClose', async () => { for (const end of [...open]) end() })

  app.get('/v2/webhook_events', {
    config: { permission: ['webhooks', 'read'] as const, cdnCache: false, eventStream: true },
    schema: {
      tags: ['webhooks'],
      operationId: 'streamWebhookEvents',
      summary: 'Stream the account\'s events',
      description: 'The account\'s events, as they are recorded, over server-sent events (administrators only): what `reelhouse webhooks listen --forward-to URL` forwards to a local receiver. The signature is checked when the stream opens; the stream ends after 15 minutes and the listener reopens it with `after`. Every event of the account is sent, whatever its endpoints subscribe to.',
      querystring: EventStreamQuery,
      response: { 200: EventStreamResponse, ...SignedErrors }
    }
  }, async (req, reply) => {
    const caller = callerOf(req)
    let cursor: EventCursor | undefined = await webhooks.streamStart(caller, req.query.after)
    const stream = new PassThrough()
    let live = true
    let wake: (() => void) | undefined
    const end = (): void => {
      if (!live) return
      live = false
      open.delete(end)
      wake?.()
      stream.end()
    }
    open.add(end)
    reply.raw.on('close', end)
    const started = performance.now()
    let lastWrite = started
    const write = async (text: string): Promise<void> => {
      lastWrite = performance.now()
      if (!stream.write(text)) await new Promise<void>((resolve) => { stream.once('drain', resolve); stream.once('close', resolve) })
    }
    const pump = async (): Promise<void> => {
      await write(`retry: 2000\n: listening to the events of account ${caller.accountId}\n\n`)
      while (live) {
        const events = await webhooks.eventsAfter(caller, cursor, BATCH)
        for (const event of events) {
          if (!live) return
          await write(`id: ${event.cursor.id}\nevent: ${event.type}\ndata: ${event.body}\n\n`)
          cursor = event.cursor
        }
        if (performance.now() - started >= STREAM_MAX_MS) { end(); return }
        if (events.length === BATCH) continue
        if (performance.now() - lastWrite >= HEARTBEAT_MS) await write(': ping\n\n')
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, POLL_MS)
          wake = () => { clearTimeout(timer); resolve() }
        })
        wake = undefined
      }
    }
    pump().catch((error: unknown) => {
      req.log.warn({ err: error }, 'webhook event stream: reading the events failed; the stream ends')
      end()
    })
    // A stream, not the string the documented schema describes: Fastify sends it as it is written.
    return await reply.header('content-type', 'text/event-stream; charset=utf-8').header('cache-control', 'no-store').header('x-accel-buffering', 'no').send(stream as never)
  })
}
