import fp from 'fastify-plugin'
import type { FastifyRequest } from 'fastify'
import type { QueryPairs } from '../../signing/index.ts'
import type { Authenticator } from '../authenticate.ts'
import type { SignedRequest } from '../request-types.ts'
import type { Pipeline } from './steps.ts'

export interface SignatureOptions {
  pipeline: Pipeline
  authenticator: Authenticator
}

/**
 * The query and the signature (docs/api.md, "Signing"), in two steps with the JSONP name check between them.
 *
 * `query`: the query string is read once, here, for every request: decoded pairs (duplicates refused),
 * which the signature covers, and the same pairs as `request.query`, which the route's schema then
 * validates (Fastify's own parser is switched off: see `skipQueryParsing`). A signed GET or HEAD whose
 * exact URL this process verified before takes its pairs and caller from that instead.
 *
 * `signature`: the credential by API key, the secret decrypted, the signature compared in constant
 * time; `signed.caller` is set. A streamed body (`config.streamBody`) is signed but not yet read: what
 * needs no body is checked now, and `signed.pending.verify()` checks the rest once the handler has read it.
 *
 * On a signed request a failure is not thrown here but kept as `signed.refusal`, for the credits step to
 * charge and answer (src/http/pipeline/credits.ts).
 */
export const signatureSteps = fp<SignatureOptions>(async (app, { pipeline, authenticator }) => {
  pipeline.step('preValidation', 'query', () => (request, _reply, done) => {
    const signed = request.signed
    if (signed.mustSign) {
      const verified = authenticator.known(request.method, request.url)
      if (verified !== undefined) {
        signed.pairs = verified.pairs
        signed.caller = verified.caller
        request.query = queryOf(verified.pairs)
        done()
        return
      }
    }
    try {
      signed.pairs = authenticator.readQuery(request.url)
    } catch (error) {
      if (!signed.mustSign) {
        done(error as Error)
        return
      }
      signed.refusal = error
    }
    request.query = queryOf(signed.pairs)
    done()
  })

  pipeline.step('preValidation', 'signature', () => (request, _reply, done) => {
    const signed = request.signed
    if (!signed.mustSign || signed.caller !== undefined || signed.refusal !== undefined) {
      done()
      return
    }
    const verifying = signed.policy.config.streamBody === true ? claim(request, signed) : verify(request, signed)
    verifying.then(() => { done() }, (error: unknown) => {
      signed.refusal = error
      done()
    })
  })

  async function verify (request: FastifyRequest, signed: SignedRequest): Promise<void> {
    signed.caller = await authenticator.authenticate(request, signed)
  }

  async function claim (request: FastifyRequest, signed: SignedRequest): Promise<void> {
    const claimed = await authenticator.authenticateStreamed(request, signed)
    let verified: Promise<typeof claimed.claimed> | undefined
    signed.pending = {
      claimed: claimed.claimed,
      update: claimed.hasher.update,
      // The credits step wraps this with the request's one charge.
      verify: async () => await (verified ??= (async () => {
        if (!claimed.matches()) throw claimed.mismatch()
        signed.caller = claimed.claimed
        return claimed.claimed
      })())
    }
  }
}, { name: 'reelhouse-signature' })

/**
 * The router's query parser: nothing is parsed there, since the `query` step reads every URL's query
 * once and sets `request.query` from it before validation.
 */
export function skipQueryParsing (): Record<string, string> {
  return NO_QUERY
}

const NO_QUERY: Record<string, string> = Object.freeze(Object.create(null) as Record<string, string>)

/** The pairs as the query object a schema validates: one value per key (a repeated key was refused), no prototype. */
function queryOf (pairs: QueryPairs): Record<string, string> {
  const query = Object.create(null) as Record<string, string>
  for (const [key, value] of pairs) query[key] = value
  return query
}
