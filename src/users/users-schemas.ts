import { Type } from 'typebox'
import { USER_ROLES } from '../auth/roles.ts'
import { HexId, Name, pageOf, PageQuery, SignedErrors, SignedQuery, Timestamp, Empty } from '../http/schemas.ts'

export const Role = Type.Enum(USER_ROLES)

export const User = Type.Object({
  id: HexId,
  name: Type.String(),
  role: Role,
  api_key: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp
})

export const UserWithSecret = Type.Object({ ...User.properties, secret: Type.String({ description: 'Shown once' }) })

export const UserParams = Type.Object({ user_id: Type.String() })
export const UsersQuery = PageQuery
export const UserQuery = Type.Object(SignedQuery)
export const UsersPage = pageOf(User)

export const CreateUserBody = Type.Object({ name: Name, role: Role }, { additionalProperties: false })
export const UpdateUserBody = Type.Object({ name: Type.Optional(Name), role: Type.Optional(Role) }, { additionalProperties: false })

export const UserErrors = { ...SignedErrors, 409: SignedErrors[400] }
export { Empty }
