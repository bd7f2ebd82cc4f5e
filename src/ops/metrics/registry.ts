import { memoryUsage, uptime } from 'node:process'
import { gauge, renderMetrics, type Family } from './exposition.ts'

/** What a module reports: its families, read at each scrape (so the figures are current). */
export type MetricsProvider = () => Family[] | Promise<Family[]>

/**
 * The figures of one process, whatever its roles: each module that counts something registers a
 * provider, and `GET /metrics` (on METRICS_PORT, and on the indexer's port) renders them all with the
 * process's own memory and uptime. One registry per process context, never a global: tests run many
 * servers in one process.
 */
export class MetricsRegistry {
  readonly #providers = new Map<string, MetricsProvider>()

  /** Adds a module's figures under a name; registering the same name again replaces them. */
  register (name: string, provider: MetricsProvider): void {
    this.#providers.set(name, provider)
  }

  async families (): Promise<Family[]> {
    const memory = memoryUsage()
    const own = [
      gauge('process_resident_memory_bytes', 'Resident set size of this process', memory.rss),
      gauge('nodejs_heap_used_bytes', 'V8 heap in use', memory.heapUsed),
      gauge('nodejs_heap_total_bytes', 'V8 heap reserved', memory.heapTotal),
      gauge('nodejs_external_memory_bytes', 'Memory held outside the V8 heap (buffers, native addons)', memory.external),
      gauge('process_uptime_seconds', 'Seconds since this process started', Math.round(uptime()))
    ]
    const reported = await Promise.all([...this.#providers.values()].map(async (provider) => await provider()))
    return [...own, ...reported.flat()]
  }

  async text (): Promise<string> {
    return renderMetrics(await this.families())
  }
}
