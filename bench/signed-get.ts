// Scenario 1 (and 6): the signed GET /v2/players/:id over HTTPS against a bare Fastify HTTPS handler
// answering the same JSON, same TLS certificate, same machine, same run.
import { ladderLine, playerGetAgainstBare, type AgainstBareFigures } from './lib/against-bare.ts'
import { report } from './lib/report.ts'

export type SignedGetFigures = AgainstBareFigures

export async function measureSignedGet (options: { env?: Record<string, string>, seconds?: number, rate?: number, rounds?: number, ladder?: boolean } = {}): Promise<SignedGetFigures> {
  return await playerGetAgainstBare({ via: 'api', ...options })
}

/** The scenario's ratio line against its goal, and where the time goes. */
export function reportSignedGet (figures: SignedGetFigures): void {
  const value = figures.ratio
  report({ scenario: '1 signed player GET vs bare Fastify (HTTPS)', ratio: { value, of: 'req/s Reelhouse / req/s bare', goal: '≥ 0.75', met: value >= 0.75 }, figures })
  console.log(ladderLine(figures))
}

if (import.meta.url === `file://${process.argv[1]}`) reportSignedGet(await measureSignedGet({ ladder: true }))
