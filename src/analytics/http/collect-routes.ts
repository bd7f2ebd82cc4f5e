import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { AnalyticsRouteDeps } from './route-deps.ts'
import { CREDITS_HEADER, RESET_HEADER, type CreditStore } from '../../credits/index.ts'
import { ApiError } from '../../errors/api-error.ts'
import { MAX_BATCH_BYTES, type CollectContext } from '../index.ts'
import type { AppAnalytics } from '../app-analytics.ts'
import * as S from './analytics-schemas.ts'

export const EVENTS_PATH = '/v2/analytics/events'

// Browser players post from any page; they send no credentials, so any origin may read the answer.
const CORS = { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'Retry-After, X-Request-Id' }
const PREFLIGHT = {
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'Content-Type',
  'access-control-max-age': '86400'
}

/**
 * `POST /v2/analytics/events` (docs/analytics.md): the one unsigned endpoint, on both listeners. 204 once
 * the batch is durable. Limited per client address; CORS only on this path.
 */
export const collectRoutes: FastifyPluginAsyncTypebox<{ ctx: AnalyticsRouteDeps }> = async (app, { ctx }) => {
  const config = { public: true, cdnAnyMethod: true }
  const tags = ['analytics']
  // Errors too: a player that cannot read its 400 cannot report why its events were refused.
  app.addHook('onSend', async (_request, reply) => { reply.headers(CORS) })

  // The browser's own request before a cross-origin POST: not an operation a client calls.
  app.options(EVENTS_PATH, {
    config,
    schema: { hide: true, response: { 204: Type.Null() } }
  }, async (_req, reply) => await reply.code(204).headers(PREFLIGHT).send(null))

  app.post(EVENTS_PATH, {
    config,
    // Exactly 1 MiB, whatever BODY_LIMIT_BYTES says for the rest of the API.
    bodyLimit: MAX_BATCH_BYTES,
    onRequest: perAddressLimit(ctx.credits, ctx.config.analyticsCollectPerMinute),
    schema: {
      operationId: 'collectEvents',
      summary: 'Collect player events (public)',
      description: 'Takes one player session\'s events and answers 204 once they are durable. Unsigned, since players hold no secret: ' +
        '`account_code` names the account. Any origin may post (CORS). Limited per client address (429 with Retry-After).',
      tags,
      body: S.EventBatch,
      response: { 204: Type.Null({ description: 'Accepted and durable' }), ...S.CollectErrors }
    }
  }, async (req, reply) => {
    await collectBatch(ctx.analytics, req.body, collectContext(req))
    return await reply.code(204).send(null)
  })
}

/** Validates the batch and makes it durable; resolves when the caller may answer 204. */
export async function collectBatch (analytics: AppAnalytics, body: unknown, context: CollectContext): Promise<void> {
  await (await analytics.get()).collect(body, context)
}

function collectContext (request: FastifyRequest): CollectContext {
  const { headers } = request
  return { userAgent: headers['user-agent'], ip: request.ip, referer: headers.referer ?? headers.origin, bodyBytes: request.signed.body?.length }
}

/** Counter key of a client address' collection budget: its own prefix, apart from credits and failed authentication. */
export function collectionCreditKey (address: string): string {
  return `collect:${address}`
}

/**
 * ANALYTICS_COLLECT_PER_MINUTE batches per client address in the credits' one-minute windows (shared
 * through Redis when configured). Checked before the body is read. The credit headers show this
 * budget on this route.
 */
function perAddressLimit (store: CreditStore, perMinute: number) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (perMinute === 0) return
    const charge = await store.charge(collectionCreditKey(request.ip), 1, perMinute)
    reply.header(CREDITS_HEADER, String(charge.remaining)).header(RESET_HEADER, String(charge.resetSeconds))
    if (!charge.allowed) {
      throw new ApiError('credits_exhausted',
        `Request limit exceeded for client address ${request.ip} (${perMinute} event batches a minute). Try again after ${charge.resetSeconds} seconds.`,
        undefined, { 'Retry-After': String(charge.resetSeconds) })
    }
  }
}
