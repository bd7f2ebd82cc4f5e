/** Waits between reconnection attempts: 0.2 s doubling to 5 s. */
export function reconnectDelay (attempt: number): number {
  return Math.min(5000, 200 * 2 ** Math.min(attempt, 5))
}

/** Resolves with `promise`, or rejects once `ms` have passed without an answer. */
export async function within<T> (promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  try {
    return await Promise.race([promise, new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => { reject(new Error(`${what}: no answer within ${ms} ms`)) }, ms)
    })])
  } finally {
    clearTimeout(timer)
  }
}
