// The main service's lean lane for repeated signed GETs of one resource (docs/benchmarks.md, "The signed GET's lean lane").
export { createLeanLane, type LeanLane } from './lean-lane.ts'
export { leanServerFactory, type FrontDoorState } from './front-door.ts'
