/**
 * Errors of the processing engine. They are not API errors: the caller turns them into an asset state
 * (a `MediaRejectedError` ends the asset in `error` with its message). Each carries a stable `code`.
 *
 * `message` is written for the person who uploaded the file and never holds ffmpeg's output; `detail`
 * keeps the tail of ffmpeg's stderr for the operator's log only.
 */
export class MediaError extends Error {
  readonly code: string
  readonly detail: string | undefined

  constructor (code: string, message: string, detail?: string) {
    super(message)
    this.name = new.target.name
    this.code = code
    this.detail = detail
  }
}

/** The upload is not media we process (unreadable, no video or audio, too large, a playlist…). Retrying does not help. */
export class MediaRejectedError extends MediaError {
  constructor (message: string, detail?: string) { super('media_rejected', message, detail) }
}

/** A run passed its time limit and was killed with its process group. */
export class MediaTimeoutError extends MediaError {
  readonly timeoutMs: number
  constructor (what: string, timeoutMs: number) {
    super('media_timeout', `${what} took longer than its limit of ${formatSeconds(timeoutMs)} and was stopped.`)
    this.timeoutMs = timeoutMs
  }
}

/** The caller's AbortSignal stopped a run (a lost lease, a shutdown); its processes are gone. */
export class MediaAbortedError extends MediaError {
  constructor (what: string) { super('media_aborted', `${what} was stopped before it finished.`) }
}

/** ffmpeg failed for a reason that is not the file's fault (a crash, the memory cap, a full disk). */
export class MediaToolError extends MediaError {
  constructor (message: string, detail?: string) { super('media_tool_failed', message, detail) }
}

/** No usable ffmpeg: a wrong FFMPEG_PATH/FFPROBE_PATH, or neither a system nor the wasm build runs. */
export class MediaToolsUnavailableError extends MediaError {
  constructor (message: string, detail?: string) { super('media_tools_unavailable', message, detail) }
}

function formatSeconds (ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`
}
