import { errorCodes, type FastifyReply, type FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Caller } from '../../auth/caller.ts'
import type { Pipeline } from './steps.ts'

/** What the credits step needs of the credits gate (src/credits/credits-gate.ts). */
export interface Charging {
  chargeAccount: (request: FastifyRequest, reply: FastifyReply, accountId: string) => Promise<void> | undefined
  chargeFailedAuthentication: (request: FastifyRequest, reply: FastifyReply, error: unknown) => Promise<unknown>
  fillHeaders: (request: FastifyRequest, reply: FastifyReply) => Promise<void> | undefined
}

/**
 * One charge per signed request (docs/credits-and-cache.md): to the account once its signature is
 * verified, else to the client address. A refusal found by an earlier step is charged here and then
 * answered: to the account when only the role was refused (the signature was good), else to the
 * address. A streamed body's request is charged when its signature is checked, after the body.
 * Every response, whatever answered it, carries the credit headers (`fillHeaders`, onSend).
 */
export const creditsStep = fp<{ pipeline: Pipeline, credits: Charging }>(async (app, { pipeline, credits }) => {
  pipeline.step('preValidation', 'credits', () => (request, reply, done) => {
    const signed = request.signed
    if (!signed.mustSign) {
      done()
      return
    }
    let charging: Promise<void> | undefined
    try {
      if (signed.refusal !== undefined) charging = refuse(request, reply, signed.refusal)
      else if (signed.pending !== undefined) chargeOnVerify(request, reply)
      else charging = credits.chargeAccount(request, reply, (signed.caller as Caller).accountId)
    } catch (error) {
      done(error as Error)
      return
    }
    if (charging === undefined) done()
    else charging.then(() => { done() }, (error: unknown) => { done(asError(error)) })
  })

  app.addHook('onSend', (request, reply, payload, done) => {
    // Media files cost nothing and answer players, not API clients: no balance to show (docs/media.md).
    if (request.signed?.policy.media === true) {
      done(null, payload)
      return
    }
    const filling = credits.fillHeaders(request, reply)
    if (filling === undefined) done(null, payload)
    else filling.then(() => { done(null, payload) }, (error: unknown) => { done(error as Error) })
  })

  /** Charges a refused request once and throws what to answer. */
  async function refuse (request: FastifyRequest, reply: FastifyReply, error: unknown): Promise<never> {
    const caller = request.signed.caller
    if (caller === undefined) throw await credits.chargeFailedAuthentication(request, reply, error)
    // The signature was good and only the role was refused: the account pays, as for any answered request.
    await credits.chargeAccount(request, reply, caller.accountId)
    throw error
  }

  /** A streamed request pays when its signature is checked: a 401 to the client address, else the account's charge. */
  function chargeOnVerify (request: FastifyRequest, reply: FastifyReply): void {
    const pending = request.signed.pending
    if (pending === undefined) return
    const check = pending.verify
    let charged: Promise<Caller> | undefined
    pending.verify = async () => await (charged ??= (async () => {
      let caller: Caller
      try {
        caller = await check()
      } catch (error) {
        throw await credits.chargeFailedAuthentication(request, reply, error)
      }
      await credits.chargeAccount(request, reply, caller.accountId)
      return caller
    })())
  }
}, { name: 'reelhouse-credits' })

/** What a hook passes on for a failure: never nothing, which would let the request through (as Fastify does for a promise). */
function asError (error: unknown): Error {
  return (error ?? new errorCodes.FST_ERR_SEND_UNDEFINED_ERR()) as Error
}
