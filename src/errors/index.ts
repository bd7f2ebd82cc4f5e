export { ApiError } from './api-error.ts'
export { errorReferenceOf, toApiError, sendProblem } from './problem.ts'
