import fp from 'fastify-plugin'
import { assertAllowed } from '../../auth/roles.ts'
import type { Pipeline } from './steps.ts'

/**
 * The route's `config.permission` against the role matrix (docs/api.md, "Roles"), for the caller the
 * signature named, or, on a streamed route, the one it claims (checked before the body is read, so a
 * refused caller does not upload it first). A refusal is kept for the credits step, like the signature's.
 */
export const roleStep = fp<{ pipeline: Pipeline }>(async (_app, { pipeline }) => {
  pipeline.step('preValidation', 'role', (policy) => (request, _reply, done) => {
    const signed = request.signed
    const permission = policy.config.permission
    const who = signed.caller ?? signed.pending?.claimed
    if (permission !== undefined && who !== undefined && signed.refusal === undefined) {
      try {
        assertAllowed(who.role, permission)
      } catch (error) {
        signed.refusal = error
      }
    }
    done()
  })
}, { name: 'reelhouse-role' })
