import { execFileSync } from 'node:child_process'
import { availableParallelism } from 'node:os'

/**
 * CPU pinning for benchmarks (BENCH_PIN=0 turns it off). Left to the scheduler, a server and the load
 * generator sometimes share a core and sometimes not, and a process keeps its luck for its lifetime:
 * on the 2-core machine the same bare server measured 43k and 60k req/s in two runs. Pinned, the load
 * generator (this process) has the first core and every server the last one.
 */
const enabled = process.env.BENCH_PIN !== '0' && availableParallelism() >= 2 && hasTaskset()

function hasTaskset (): boolean {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

const serverCpu = String(availableParallelism() - 1)

/** The command and arguments that start `command args` on the servers' core (unchanged when pinning is off). */
export function onServerCore (command: string, args: string[]): [string, string[]] {
  return enabled ? ['taskset', ['-c', serverCpu, command, ...args]] : [command, args]
}

/** The command and arguments that start a load generator (wrk) on the first core. */
export function onLoadCore (command: string, args: string[]): [string, string[]] {
  return enabled ? ['taskset', ['-c', '0', command, ...args]] : [command, args]
}

let loadGeneratorPinned = false

/** Moves every thread of this process (the load generator) to the first core, once. */
export function pinLoadGenerator (): void {
  if (!enabled || loadGeneratorPinned) return
  execFileSync('taskset', ['-a', '-cp', '0', String(process.pid)], { stdio: 'ignore' })
  loadGeneratorPinned = true
}
