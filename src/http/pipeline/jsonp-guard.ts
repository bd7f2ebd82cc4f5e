import fp from 'fastify-plugin'
import { ApiError } from '../../errors/api-error.ts'
import type { Pipeline } from './steps.ts'

export interface JsonpGuardOptions {
  pipeline: Pipeline
  /** `cdn`: the cached variant, where JSONP is served; `api`: the main service, where a signed request may not ask for it. */
  variant: 'api' | 'cdn'
  /** The `callback` parameter among the query pairs, if any. */
  callbackParameter: (pairs: ReadonlyArray<readonly [string, string]>) => string | undefined
  /** The cached variant's check of a callback name (400 when it is not a JavaScript identifier path). */
  assertValidCallback: (name: string) => void
}

/**
 * JSONP exists only on the cached variant (docs/credits-and-cache.md); its name is checked before the
 * signature, so a bad name costs no verification. A URL verified before passed this check then.
 */
export const jsonpGuard = fp<JsonpGuardOptions>(async (_app, { pipeline, variant, callbackParameter, assertValidCallback }) => {
  pipeline.step('preValidation', 'jsonp', () => (request, _reply, done) => {
    const signed = request.signed
    if (signed.caller !== undefined || signed.refusal !== undefined) {
      done()
      return
    }
    const callback = callbackParameter(signed.pairs)
    if (callback === undefined) {
      done()
      return
    }
    try {
      if (variant === 'cdn') assertValidCallback(callback)
      else if (signed.mustSign) throw new ApiError('jsonp_not_allowed', 'JSONP is served only by the cached endpoint.')
    } catch (error) {
      if (!signed.mustSign) {
        done(error as Error)
        return
      }
      signed.refusal = error
    }
    done()
  })
}, { name: 'reelhouse-jsonp-guard' })
