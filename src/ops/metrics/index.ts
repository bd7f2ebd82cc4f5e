// Per-process figures in the Prometheus text format (docs/configuration.md, "Metrics").
export { counter, gauge, renderMetrics, metricValue, type Family } from './exposition.ts'
export { MetricsRegistry } from './registry.ts'
export { buildMetricsApp } from './metrics-app.ts'
