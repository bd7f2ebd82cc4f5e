// Scenario 2 (and 6): a cache hit on the cached plain-HTTP variant against a bare Fastify plain-HTTP
// handler answering the same JSON.
import { ladderLine, playerGetAgainstBare, type AgainstBareFigures } from './lib/against-bare.ts'
import { report } from './lib/report.ts'

export type CdnFigures = AgainstBareFigures

export async function measureCdnHit (options: { seconds?: number, rate?: number, rounds?: number, env?: Record<string, string> } = {}): Promise<CdnFigures> {
  return await playerGetAgainstBare({ via: 'cdn', ...options })
}

/** The scenario's ratio line against its goal, and where the time goes. */
export function reportCdnHit (figures: CdnFigures): void {
  const value = figures.ratio
  report({ scenario: '2 cached-variant hit vs bare Fastify (HTTP)', ratio: { value, of: 'req/s Reelhouse / req/s bare', goal: '≥ 0.85', met: value >= 0.85 }, figures })
  console.log(ladderLine(figures))
}

if (import.meta.url === `file://${process.argv[1]}`) reportCdnHit(await measureCdnHit())
