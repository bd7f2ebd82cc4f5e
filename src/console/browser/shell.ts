import type { Me, Reelhouse } from 'reelhouse/client'
import { messageOf } from './format.ts'
import type { Abilities } from './roles.ts'
import type { Credentials } from './session.ts'

/** What every view is handed: the signed-in client, who the user is and what the role sees. */
export interface Session {
  client: Reelhouse
  credentials: Credentials
  me: Me
  can: Abilities
}

const errorBox = (): HTMLElement => document.getElementById('error') as HTMLElement

/** Shows a failure in the page's alert line: an API error's `message` as the server wrote it. */
export function showError (error: unknown): void {
  const box = errorBox()
  box.textContent = messageOf(error)
  box.hidden = false
}

export function clearError (): void {
  const box = errorBox()
  box.textContent = ''
  box.hidden = true
}

/** Runs an action, showing its failure instead of swallowing it; resolves whether it succeeded. */
export async function attempt (action: () => Promise<unknown>): Promise<boolean> {
  try {
    await action()
    return true
  } catch (error) {
    showError(error)
    return false
  }
}

/** The view's container, emptied, with focus moved to it so keyboard and screen-reader users follow. */
export function mainView (title: string): HTMLElement {
  const main = document.getElementById('main') as HTMLElement
  main.replaceChildren()
  document.title = `${title} · Reelhouse console`
  return main
}
