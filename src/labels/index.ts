export { labelsRoutes } from './labels-routes.ts'
export { createLabelsRepository, type LabelsRepository, type LabelRow, type LabelsTable } from './labels-repository.ts'
export { toApiLabel, type ApiLabel } from './labels-format.ts'
export { Label } from './labels-schemas.ts'
