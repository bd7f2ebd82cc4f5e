// Processing jobs: recorded with the asset's move to `processing`, taken by workers (docs/uploads.md).
export { enqueueMediaJob, reprocessMedia } from './enqueue.ts'
