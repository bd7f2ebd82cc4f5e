import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AnalyticsRouteDeps } from './route-deps.ts'
import { ApiError } from '../../errors/api-error.ts'
import { pendingAuthOf, type PendingAuth } from '../../http/request-types.ts'
import { requestStream, streamedBody, tooLarge } from '../../http/streamed-body.ts'
import type { ImportResult } from '../index.ts'
import type { AppAnalytics } from '../app-analytics.ts'
import * as S from './analytics-schemas.ts'

export const IMPORT_PATH = '/v2/analytics/events/import'

/**
 * A backfill is far larger than a JSON request (BODY_LIMIT_BYTES), but the whole request must arrive
 * within the server's 60 s request timeout, and imports run at about 40,000 events (5 MB) a second:
 * 64 MiB, about half a million events. Larger backfills are several imports, each with its import_id.
 */
export const MAX_IMPORT_BYTES = 64 * 1024 * 1024

/**
 * `POST /v2/analytics/events/import` (docs/analytics.md): NDJSON, signed, administrators only, streamed.
 * Its own content-type parser hands the handler the unread request stream (`config.streamBody`).
 */
export const importRoutes: FastifyPluginAsyncTypebox<{ ctx: AnalyticsRouteDeps }> = async (app, { ctx }) => {
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', (_request, payload, done) => { done(null, payload) })

  app.post(IMPORT_PATH, {
    config: { permission: ['analytics', 'import'], streamBody: true },
    schema: {
      operationId: 'importEvents',
      summary: 'Import events (NDJSON backfill)',
      description: 'Stores events from an NDJSON body, one event per line with its session and asset, at most 64 MiB; all or nothing. ' +
        'Administrators only. The body is signed like any other; `import_id` makes a retry store nothing twice.',
      tags: ['analytics'],
      querystring: S.ImportQuery,
      response: { 200: S.ImportResult, ...S.AnalyticsErrors }
    }
  }, async (req) => await importStreamed(ctx.analytics, pendingAuthOf(req), requestStream(req.body), {
    importId: req.query.import_id,
    contentLength: Number(req.headers['content-length'] ?? 0)
  }))
}

/**
 * Streams the body into the import, hashing it as it passes; the signature is checked in
 * `beforeCommit`, once the last byte is in, and a wrong one rolls everything back. Whatever else
 * fails, the rest of the body is read and the signature checked before answering: a per-line report
 * would otherwise tell a caller holding only an api_key which assets an account has. Only a body over
 * the limit is refused unread (413).
 */
export async function importStreamed (
  analytics: AppAnalytics, pending: PendingAuth, stream: AsyncIterable<Buffer> | undefined, options: { importId?: string, contentLength: number }
): Promise<ImportResult> {
  if (options.contentLength > MAX_IMPORT_BYTES) throw tooLarge(MAX_IMPORT_BYTES)
  const engine = await analytics.get()
  const body = streamedBody(stream, MAX_IMPORT_BYTES, pending.update)
  const verify = async (): Promise<void> => {
    await body.drain()
    await pending.verify()
  }
  try {
    return await engine.importEvents(pending.claimed.accountId, body.chunks, { importId: options.importId, beforeCommit: verify })
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'body_too_large')) await verify()
    throw error
  }
}
