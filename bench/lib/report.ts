import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'

export interface ScenarioResult {
  scenario: string
  /** The ratio line: what is compared with what, the ratio and the goal. */
  ratio: { value: number, of: string, goal: string, met: boolean }
  figures: Record<string, unknown>
}

const results: ScenarioResult[] = []

/** Prints one ratio line per scenario plus the absolute figures, and keeps the result for the JSON file. */
export function report (result: ScenarioResult): void {
  results.push(result)
  const mark = result.ratio.met ? 'met' : 'NOT met'
  console.log(`RATIO ${result.scenario}: ${result.ratio.value.toFixed(3)}× (${result.ratio.of}; goal ${result.ratio.goal}: ${mark})`)
  console.log(`      ${JSON.stringify(result.figures)}`)
}

/** Writes every result of this run to bench/results/<name>.json with the machine it ran on. */
export function writeResults (name: string): string {
  mkdirSync('bench/results', { recursive: true })
  const file = `bench/results/${name}.json`
  const machine = { cpus: cpus().length, model: cpus()[0]?.model, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version }
  writeFileSync(file, JSON.stringify({ date: new Date().toISOString(), machine, results }, null, 2) + '\n')
  return file
}
