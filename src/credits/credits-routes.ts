import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { SignedErrors, SignedQuery } from '../http/schemas.ts'

export const RemainingCredits = Type.Object({
  remaining_credits: Type.Integer({ minimum: 0, description: 'Credits left in the current one-minute window', examples: [987] }),
  remaining_reset_time: Type.Integer({ minimum: 1, maximum: 60, description: 'Seconds until the window resets', examples: [42] })
}, { title: 'RemainingCredits', description: 'The account\'s credit balance' })

/**
 * `GET /v2/remaining_credits_and_reset_time` (docs/credits-and-cache.md): costs 0, so it reads the balance
 * even when it is empty; every role may call it. The pipeline's charge already read the balance.
 * The cached variant never stores it: a balance is out of date as soon as it is sent.
 */
export const creditsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/v2/remaining_credits_and_reset_time', {
    config: { permission: ['credits', 'read'], cdnCache: false },
    schema: {
      operationId: 'getRemainingCredits',
      summary: 'Read the credit balance',
      description: 'Answers the credits left in the current one-minute window and the seconds until it resets. Costs nothing, so it answers even when the balance is empty; every role may call it.',
      tags: ['credits'],
      querystring: Type.Object(SignedQuery),
      response: { 200: RemainingCredits, ...SignedErrors }
    }
  }, async (req) => remainingCredits(req))
}

function remainingCredits (request: FastifyRequest): { remaining_credits: number, remaining_reset_time: number } {
  const balance = request.signed.credits
  if (balance === undefined) throw new Error('the credits gate did not run for this route')
  return { remaining_credits: balance.remaining, remaining_reset_time: balance.resetSeconds }
}
