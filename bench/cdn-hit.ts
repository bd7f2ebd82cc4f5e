// Scenario 2 (and 6): a cache hit on the cached plain-HTTP variant against a bare Fastify plain-HTTP
// handler answering the same JSON.
import { playerGetAgainstBare, type AgainstBareFigures } from './lib/against-bare.ts'
import { report } from './lib/report.ts'

export type CdnFigures = AgainstBareFigures

export async function measureCdnHit (options: { seconds?: number, rate?: number, env?: Record<string, string> } = {}): Promise<CdnFigures> {
  return await playerGetAgainstBare({ via: 'cdn', ...options })
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureCdnHit()
  const value = figures.reelhouse.requestsPerSecond / figures.bare.requestsPerSecond
  report({ scenario: '2 cached-variant hit vs bare Fastify (HTTP)', ratio: { value, of: 'req/s Reelhouse / req/s bare', goal: '≥ 0.85', met: value >= 0.85 }, figures })
}
