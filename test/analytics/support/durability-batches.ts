/** A batch of `n` displays for asset-1 of account A, at times inside the manual clock's window. */
export function durabilityBatch (session: string, n: number): Record<string, unknown> {
  return {
    account_code: 'code-a',
    session_id: session,
    asset_id: 'asset-1',
    events: Array.from({ length: n }, (_, i) => ({ name: 'display', time: Date.parse('2026-11-22T09:00:00Z') + i * 1000 }))
  }
}
