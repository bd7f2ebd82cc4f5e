export { ApiError } from './api-error.ts'
export { toApiError, sendProblem } from './problem.ts'
