/** A dependency's state for `/ready`: 'ok', a warning that still serves (e.g. 'reindex required: …'), or a throw (down). */
export type ReadinessCheck = () => Promise<string>

export interface Readiness {
  code: 200 | 503
  body: { status: 'ready' | 'degraded' | 'not ready', checks: Record<string, string> }
}

/**
 * Runs every check. A dependency that is down takes the process out of rotation (503); one that needs
 * attention but still serves (an outdated search mapping) only marks it degraded (200).
 */
export async function readiness (checks: Record<string, ReadinessCheck>): Promise<Readiness> {
  const results: Record<string, string> = {}
  for (const [name, check] of Object.entries(checks)) {
    results[name] = await check().catch((error: unknown) => `down: ${(error as Error).message}`)
  }
  const states = Object.values(results)
  const down = states.some((state) => state.startsWith('down'))
  const degraded = states.some((state) => state !== 'ok')
  return { code: down ? 503 : 200, body: { status: down ? 'not ready' : degraded ? 'degraded' : 'ready', checks: results } }
}
