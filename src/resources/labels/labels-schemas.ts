import { Type, type Static } from 'typebox'
import { BooleanInput, described, HexId, Name, PageQuery, SignedErrors, SignedQuery } from '../../http/schemas.ts'

export const Label = Type.Object({
  id: described(HexId, 'The label\'s id', '3f2a9c0e5b7d4e1fa6c8b0d2e4f60718'),
  name: Type.String({ description: 'The label\'s own name, unique among its siblings', examples: ['Hockey'] }),
  parent_id: Type.Union([HexId, Type.Null()], { description: 'The parent label\'s id; null for a top-level label', examples: ['7d0b2c4e6f8a4b1c9d3e5f7a9b1c3d5e'] }),
  full_name: Type.String({ description: '"/" plus the ancestor names and the name, joined by "/"', examples: ['/Sports/Hockey'] })
}, { title: 'Label', description: 'A label: a node of the account\'s label tree' })

const ParentId = Type.Union([HexId, Type.Null()], { description: 'The parent label; null (or absent on create) for the top level', examples: ['7d0b2c4e6f8a4b1c9d3e5f7a9b1c3d5e'] })
const LabelName = Type.String({ ...Name, description: '1–255 characters, no control characters, no "/"; unique among siblings', examples: ['Hockey'] })

export const FullPathParams = Type.Object({
  '*': Type.String({ description: 'Comma-separated, URL-encoded full paths (at most 100)', examples: ['%2FSports%2FHockey,%2FNews'] })
})
export const LabelsQuery = Type.Object({
  ...PageQuery.properties,
  is_root: Type.Optional(described(BooleanInput, 'true: only top-level labels; false: only labels with a parent', true))
})
export const DeleteLabelQuery = Type.Object({
  ...SignedQuery,
  recursive: Type.Optional(described(BooleanInput, 'true: delete the label with its whole subtree; otherwise a label with children is not deleted (409)', true))
})

export const CreateLabelBody = Type.Object({ name: LabelName, parent_id: Type.Optional(ParentId) }, { additionalProperties: false })
export const UpdateLabelBody = Type.Object({ name: Type.Optional(LabelName), parent_id: Type.Optional(ParentId) }, { additionalProperties: false })
export const LabelItems = Type.Object({ items: Type.Array(Label, { description: 'One label per requested path, in request order' }) }, {
  title: 'LabelItems',
  description: 'Labels, all in one answer (not paged)'
})
export const LabelArray = Type.Array(Label, { description: 'One label per requested path, in request order' })

export const LabelErrors = { ...SignedErrors, 409: SignedErrors[400] }

export type ApiLabel = Static<typeof Label>
export type LabelInput = Static<typeof UpdateLabelBody>
export type LabelsQuery = Static<typeof LabelsQuery>
export type DeleteLabelQuery = Static<typeof DeleteLabelQuery>
