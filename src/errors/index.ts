export { ERRORS, type ErrorCode } from './catalogue.ts'
export { ApiError, validationError, notFound, type ProblemExtras } from './api-error.ts'
export { problemBody, toApiError, sendProblem } from './problem.ts'
