import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod, RouteOptions } from 'fastify'
import fp from 'fastify-plugin'
import type { Database } from '../../db/index.ts'
import { withCommitHook, type CommitHook } from '../../db/commit-hook.ts'
import { ApiError } from '../../errors/api-error.ts'
import type { Clock } from '../../lib/clock.ts'
import type { SecretBox } from '../../secrets/index.ts'
import { requestFingerprint } from '../idempotency/fingerprint.ts'
import { createIdempotencyStore, type IdempotencyStore, type KeyOwner } from '../idempotency/idempotency-store.ts'
import type { Pipeline } from './steps.ts'

export interface IdempotencyDeps {
  pipeline: Pipeline
  database: Database
  clock: Clock
  /** Stored answers are encrypted at rest: a user's create or rotate answer holds its new secret. */
  secrets: SecretBox
}

/** A request that holds a claim on its key, from the claim until its answer is stored or the claim released. */
interface Claim {
  owner: KeyOwner
  token: string
  /** Set once the answer is stored: inside the writing transaction, or after it for a request that wrote nothing. */
  stored: boolean
  /** Stores the answer inside a `withAccountLock` transaction (src/db/commit-hook.ts). */
  commitHook: CommitHook
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The claimed `Idempotency-Key` of a POST or PATCH (src/http/idempotency). */
    idempotency: Claim | undefined
  }
}

const HEADER = 'idempotency-key'
const KEY = /^[\x21-\x7e]{1,255}$/
const KEYED_METHODS = new Set(['POST', 'PATCH'])
/**
 * What a request finds while another with its key runs: the first request usually ends within a
 * second, so the client polls, and after a crash the claim lapses with its lease.
 */
const RETRY_AFTER_SECONDS = 1
/** Expired keys are deleted at most this often per process. */
const PURGE_EVERY_MS = 60_000

/**
 * `Idempotency-Key` on signed POST and PATCH requests (docs/api.md, "Idempotency"): a repeated key with
 * the same request answers the first answer again; with a different request, 409; while the first
 * is still running, 409 with `Retry-After`. The key is claimed before the handler runs, and the answer
 * is stored in the same transaction as the write, so the guarantee holds across processes on SQLite
 * and PostgreSQL alike. Register before the routes: it wraps the handlers of the keyed methods.
 * Only POST and PATCH routes, and paths no route serves, get its hooks: no other request can carry a
 * body to replay.
 */
export const idempotencySteps = fp<IdempotencyDeps>(async (app, deps) => { registerIdempotency(app, deps) }, { name: 'reelhouse-idempotency' })

function registerIdempotency (app: FastifyInstance, { pipeline, database, clock, secrets }: IdempotencyDeps): void {
  const store = createIdempotencyStore(database.db)
  let nextPurge = 0

  app.decorateRequest('idempotency', undefined)

  // The handler runs with the claim's commit hook, so `withAccountLock` stores the answer with the write.
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!keyedRoute(route)) return
    const handler = route.handler as RouteHandlerMethod
    route.handler = function (this: FastifyInstance, request, reply) {
      const claim = request.idempotency
      if (claim === undefined) return handler.call(this, request, reply)
      return withCommitHook(claim.commitHook, () => handler.call(this, request, reply))
    }
  })

  // A path no route serves keeps the rules of any POST or PATCH: the key is checked and claimed, and
  // given back with the 404 (errors are not kept).
  const keyed = (methods: readonly string[]): boolean => methods.some((method) => KEYED_METHODS.has(method))

  // Callback-style hooks: a request without a key (nearly all of them) costs no promise here.
  pipeline.step('preHandler', 'idempotency', (_policy, methods) => keyed(methods)
    ? (request, reply, done) => {
        if (request.headers[HEADER] === undefined || !KEYED_METHODS.has(request.method)) {
          done()
          return
        }
        // A replayed answer is sent from here, and the handler is not called (Fastify: no done()).
        claimOrAnswer(request, reply).then((answered) => { if (!answered) done() }, done)
      }
    : undefined)

  // After the handler: a request that wrote nothing stores its answer now; a failed one gives the key back.
  pipeline.step('onSend', 'idempotency', (_policy, methods) => keyed(methods)
    ? (request, reply, payload, done) => {
        const claim = request.idempotency
        if (claim === undefined || claim.stored) {
          done(null, payload)
          return
        }
        settle(claim, reply.statusCode, payload).catch((error: unknown) => {
          // The answer still goes out; the claim then lapses with its lease.
          request.log.error({ err: error }, 'could not settle an Idempotency-Key')
        }).finally(() => { done(null, payload) })
      }
    : undefined)

  /** Claims the request's key, or answers it (a replay): resolves true when it answered. */
  async function claimOrAnswer (request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const key = request.headers[HEADER]
    if (typeof key !== 'string' || !KEY.test(key)) {
      throw new ApiError('idempotency_key_invalid', 'Header Idempotency-Key must be 1 to 255 visible ASCII characters.')
    }
    const { caller, policy, pairs, body } = request.signed
    if (caller === undefined || policy.config.streamBody === true || policy.config.idempotencyKey === false) {
      throw new ApiError('idempotency_not_supported', `${request.method} ${policy.url ?? 'this route'} does not take an Idempotency-Key.`)
    }
    const now = clock.now()
    if (now >= nextPurge) {
      nextPurge = now + PURGE_EVERY_MS
      await store.purgeExpired(now)
    }
    const owner: KeyOwner = { accountId: caller.accountId, userId: caller.userId, key }
    const fingerprint = requestFingerprint(request.method, request.url, pairs, body)
    const outcome = await store.claim(owner, fingerprint, now)
    switch (outcome.kind) {
      case 'claimed':
        request.idempotency = claimOf(store, secrets, owner, outcome.token, reply)
        return false
      case 'replay':
        reply.code(outcome.status)
          .header('content-type', 'application/json; charset=utf-8')
          .header('idempotent-replayed', 'true')
          .send(secrets.decrypt(outcome.body))
        return true
      case 'in_use':
        throw new ApiError('idempotency_key_in_use',
          `A request with this Idempotency-Key is still being processed. Try again after ${RETRY_AFTER_SECONDS} second.`,
          undefined, { 'Retry-After': String(RETRY_AFTER_SECONDS) })
      case 'mismatch':
        throw new ApiError('idempotency_key_reused',
          'This Idempotency-Key was already used for a different request (method, path, query or body); use a new key for a new request.')
    }
  }

  async function settle (claim: Claim, status: number, payload: unknown): Promise<void> {
    if (status < 400 && (typeof payload === 'string' || Buffer.isBuffer(payload))) {
      claim.stored = await store.complete(database.db, claim.owner, claim.token, status, secrets.encrypt(payload.toString()))
    } else {
      await store.release(claim.owner, claim.token)
    }
  }
}

function claimOf (store: IdempotencyStore, secrets: SecretBox, owner: KeyOwner, token: string, reply: FastifyReply): Claim {
  const claim: Claim = {
    owner,
    token,
    stored: false,
    commitHook: async (trx, result) => {
      // Serialized by the route's own response schema: the bytes a repeated request gets are the bytes this one gets.
      const serialized = reply.serialize(result)
      const body = typeof serialized === 'string' ? serialized : Buffer.from(serialized as ArrayBuffer).toString('utf8')
      if (!await store.complete(trx, owner, token, reply.statusCode, secrets.encrypt(body))) {
        throw new ApiError('idempotency_key_in_use',
          'This request ran longer than its claim on the Idempotency-Key and another request took it over; nothing was written.')
      }
      claim.stored = true
    }
  }
  return claim
}

/** Signed routes of the keyed methods whose body is parsed before the handler runs. */
function keyedRoute (route: RouteOptions): boolean {
  const methods = Array.isArray(route.method) ? route.method : [route.method]
  const config = route.config as { public?: boolean, streamBody?: boolean, idempotencyKey?: false } | undefined
  return methods.some((method) => KEYED_METHODS.has(method)) && config?.public !== true && config?.streamBody !== true && config?.idempotencyKey !== false
}
