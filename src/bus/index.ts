export { createFreshness, type Freshness } from './freshness.ts'
