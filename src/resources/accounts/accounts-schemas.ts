import { type Static, Type } from 'typebox'
import { described, HexId, SignedErrors, Timestamp } from '../../http/schemas.ts'

/** The most credits a minute an account may be given (CREDITS_PER_MINUTE has the same bound). */
export const MAX_CREDITS_PER_MINUTE = 1_000_000_000

export const Account = Type.Object({
  id: described(HexId, 'The account\'s id', '5b1f0c2d3e4a5b6c7d8e9f0a1b2c3d4e'),
  code: Type.String({ description: 'The account code: the part of every API key before the dot', examples: ['Kq3Zr8WmT2xYb6NcVp1LdG9HsFj4'] }),
  name: Type.String({ description: 'The account\'s name', examples: ['Example Media'] }),
  credits_per_minute: Type.Integer({ minimum: 1, maximum: MAX_CREDITS_PER_MINUTE, description: 'The credits the account may spend each minute: its own allowance, else the server\'s CREDITS_PER_MINUTE', examples: [5000] }),
  credits_per_minute_source: Type.Union([Type.Literal('account'), Type.Literal('server_default')], {
    description: '`account`: the account\'s own allowance, set by the operator (`reelhouse accounts update ID --credits-per-minute N`); `server_default`: none is set, so CREDITS_PER_MINUTE applies',
    examples: ['account']
  }),
  created_at: described(Timestamp, 'When the account was created', '2026-11-22T10:00:00Z')
}, {
  title: 'Account',
  description: 'The caller\'s account and its credit allowance',
  examples: [{ id: '5b1f0c2d3e4a5b6c7d8e9f0a1b2c3d4e', code: 'Kq3Zr8WmT2xYb6NcVp1LdG9HsFj4', name: 'Example Media', credits_per_minute: 5000, credits_per_minute_source: 'account', created_at: '2026-11-22T10:00:00Z' }]
})

export const AccountErrors = { ...SignedErrors }

export type ApiAccount = Static<typeof Account>
