/** Labels: their routes, service and search document; the label shape other resources show. */
export { labelsRoutes } from './labels-routes.ts'
export { createLabelsService } from './labels-service.ts'
export { type LabelRow } from './labels-repository.ts'
export { createLabelsRepository } from './labels-repository.ts'
export { toApiLabel } from './labels-format.ts'
export { Label, type ApiLabel } from './labels-schemas.ts'
export { labelDocumentTouches, loadLabelDocument } from './labels-document.ts'
