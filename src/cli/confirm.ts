import { createInterface } from 'node:readline/promises'
import { UsageError } from './cli-error.ts'

/**
 * Asks before something that cannot be undone (or is likely a mistake). `--yes` (or `flag`) answers for the caller; without it a person at
 * a terminal is asked (anything but y/yes is no), and a script is refused (exit 2) rather than guessed for.
 */
export async function confirm (question: string, yes: boolean | undefined, flag = '--yes'): Promise<boolean> {
  if (yes === true) return true
  if (process.stdin.isTTY !== true || process.stderr.isTTY !== true) {
    throw new UsageError(`${question.replace(/\?$/, '')}: not asked, as this is not a terminal; pass ${flag} to go ahead`)
  }
  const prompt = createInterface({ input: process.stdin, output: process.stderr })
  try {
    const answer = await prompt.question(`${question} [y/N] `)
    return /^y(es)?$/i.test(answer.trim())
  } finally {
    prompt.close()
  }
}
