import { Type } from 'typebox'
import { BooleanInput, Empty, HexId, Name, pageOf, PageQuery, SignedErrors, SignedQuery } from '../http/schemas.ts'

export const Label = Type.Object({
  id: HexId,
  name: Type.String(),
  parent_id: Type.Union([HexId, Type.Null()], { description: 'Null for a top-level label' }),
  full_name: Type.String({ description: '"/" plus the ancestor names and the name, joined by "/"' })
})

const ParentId = Type.Union([HexId, Type.Null()], { description: 'The parent label; null (or absent on create) for the top level' })
const LabelName = Type.String({ ...Name, description: '1–255 characters, no control characters, no "/"; unique among siblings' })

export const LabelParams = Type.Object({ label_id: Type.String() })
export const FullPathParams = Type.Object({ '*': Type.String({ description: 'Comma-separated, URL-encoded full paths, e.g. %2FSports%2FHockey,%2FNews' }) })
export const LabelsQuery = Type.Object({ ...PageQuery.properties, is_root: Type.Optional(BooleanInput) })
export const ChildrenQuery = PageQuery
export const LabelQuery = Type.Object(SignedQuery)
export const DeleteLabelQuery = Type.Object({ ...SignedQuery, recursive: Type.Optional(BooleanInput) })

export const CreateLabelBody = Type.Object({ name: LabelName, parent_id: Type.Optional(ParentId) }, { additionalProperties: false })
export const UpdateLabelBody = Type.Object({ name: Type.Optional(LabelName), parent_id: Type.Optional(ParentId) }, { additionalProperties: false })
export const ReplaceLabelBody = CreateLabelBody

export const LabelsPage = pageOf(Label)
export const LabelItems = Type.Object({ items: Type.Array(Label) })
export const LabelArray = Type.Array(Label, { description: 'One label per requested path, in request order' })

export const LabelErrors = { ...SignedErrors, 409: SignedErrors[400] }
export { Empty }
