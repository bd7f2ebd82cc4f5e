// Processing jobs: recorded with the asset's move to `processing`, taken by workers (docs/uploads.md).
export { enqueueMediaJob } from './enqueue.ts'
