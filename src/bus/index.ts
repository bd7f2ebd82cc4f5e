export { createFreshness, type Freshness, type FreshnessDeps } from './freshness.ts'
export { decodeChange, encodeChange, type BusState, type InvalidationBus } from './invalidation-bus.ts'
export { CHANNEL as POSTGRES_CHANNEL } from './postgres-bus.ts'
