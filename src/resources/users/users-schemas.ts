import { Type, type Static } from 'typebox'
import { USER_ROLES } from '../../auth/roles.ts'
import { described, HexId, Name, SignedErrors, Timestamp } from '../../http/schemas.ts'

export const Role = Type.Enum(USER_ROLES, {
  description: 'What the user may do: administrator (everything), manager (everything but users), upload_only (create and change its own assets), analytics_only (reports), read_only (read everything but users)',
  examples: ['manager']
})

const UserName = described(Name, 'Who or what uses the key', 'Ana Silva')
const ApiKey = Type.String({ description: 'The key to sign requests with, `<account_code>.<random>`', examples: ['Kq3Zr8WmT2xYb6NcVp1LdG9HsFj4.Xy7kP2qL'] })

export const User = Type.Object({
  id: described(HexId, 'The user\'s id', '9c1e4b7a2d6f4e0b8a3c5d7e9f1a2b3c'),
  name: UserName,
  role: Role,
  api_key: ApiKey,
  created_at: described(Timestamp, 'When the user was created', '2026-11-22T10:00:00Z'),
  updated_at: described(Timestamp, 'When the user last changed', '2026-11-22T10:05:00Z')
}, { title: 'User', description: 'A user of the account: a name, a role and an API key' })

export const UserWithSecret = Type.Object({
  ...User.properties,
  secret: Type.String({ description: 'The secret to sign with. Shown only here, when the user is created and when the secret is rotated', examples: ['p0Q8sV3nW6yB1mC4xZ7kL2jH5gF9dS0aR3tE6uI8'] })
}, { title: 'UserWithSecret', description: 'A user with its secret: the only answers that show it' })

/** `GET /v2/users/me`: the caller itself, so a page or a tool shows only what its role allows. */
export const Me = Type.Object({
  id: described(HexId, 'The caller\'s user id', '9c1e4b7a2d6f4e0b8a3c5d7e9f1a2b3c'),
  name: UserName,
  role: Role,
  account: Type.Object({
    id: described(HexId, 'The account\'s id', '5b1f0c2d3e4a5b6c7d8e9f0a1b2c3d4e'),
    code: Type.String({ description: 'The account code: the part of every API key before the dot', examples: ['Kq3Zr8WmT2xYb6NcVp1LdG9HsFj4'] }),
    name: Type.String({ description: 'The account\'s name', examples: ['Example Media'] })
  }, { description: 'The caller\'s account' })
}, { title: 'Me', description: 'The caller: its user, role and account' })

export const CreateUserBody = Type.Object({ name: UserName, role: Role }, { additionalProperties: false })
export const UpdateUserBody = Type.Object({ name: Type.Optional(UserName), role: Type.Optional(Role) }, { additionalProperties: false })

export const UserErrors = { ...SignedErrors, 409: SignedErrors[400] }

export type ApiUser = Static<typeof User>
/** A user with its secret: the only time the secret is shown (creation and rotation). */
export type ApiUserWithSecret = Static<typeof UserWithSecret>
export type ApiMe = Static<typeof Me>
export type UserInput = Static<typeof UpdateUserBody>
export type NewUser = Static<typeof CreateUserBody>
