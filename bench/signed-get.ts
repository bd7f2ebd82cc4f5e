// Scenario 1 (and 5, 6): the signed GET /v2/players/:id over HTTPS against a bare Fastify HTTPS handler
// answering the same JSON, same TLS certificate, same machine, same run.
import { playerGetAgainstBare, type AgainstBareFigures } from './lib/against-bare.ts'
import { report } from './lib/report.ts'

export type SignedGetFigures = AgainstBareFigures

export async function measureSignedGet (options: { env?: Record<string, string>, seconds?: number, rate?: number } = {}): Promise<SignedGetFigures> {
  return await playerGetAgainstBare({ via: 'api', ...options })
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureSignedGet()
  const value = figures.reelhouse.requestsPerSecond / figures.bare.requestsPerSecond
  report({ scenario: '1 signed player GET vs bare Fastify (HTTPS)', ratio: { value, of: 'req/s Reelhouse / req/s bare', goal: '≥ 0.70', met: value >= 0.7 }, figures })
}
