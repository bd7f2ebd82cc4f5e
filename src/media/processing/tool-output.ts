import type { ChildResult } from './child-supervisor.ts'
import { MediaRejectedError, MediaToolError } from './media-errors.ts'

/**
 * ffmpeg's stderr mapped to words for the person who uploaded the file. Only these fixed phrases reach
 * them; ffmpeg's own text stays in `detail`, for the operator's log.
 */
const REASONS: Array<[RegExp, string]> = [
  [/not on whitelist/i, 'it is a playlist, a list of other files, or a format we do not accept'],
  [/Invalid data found|moov atom not found|EBML header parsing failed|could not find codec parameters|Invalid (argument|frame)|no frames?|End of file/i,
    'its contents are damaged or not in an audio or video format we know'],
  [/Unsupported codec|Decoder \(codec .*\) not found|Unknown decoder/i, 'it uses a codec we cannot decode']
]

export function unreadable (result: ChildResult): MediaRejectedError {
  const reason = REASONS.find(([pattern]) => pattern.test(result.stderrTail))?.[1] ?? 'its contents could not be read'
  return new MediaRejectedError(`The file is not a video or audio file we can read (${reason}).`, detail(result))
}

/** A failed run that is not the file's fault: a crash, a limit, a full disk. */
export function toolFailure (what: string, result: ChildResult): MediaToolError {
  const how = result.exitSignal !== null ? `was ended by ${result.exitSignal}` : `failed (exit code ${result.exitCode ?? 'none'})`
  return new MediaToolError(`${what} ${how}.`, detail(result))
}

/**
 * A crash rather than a refusal: a native tool ended by a signal (SIGSEGV, or SIGKILL/SIGXCPU of a
 * limit), or the wasm build trapping ("RuntimeError: memory access out of bounds").
 */
export function crashed (result: ChildResult): boolean {
  return result.exitSignal !== null || /^RuntimeError: /m.test(result.stderrTail)
}

/**
 * Whether a failed ffmpeg run could not read its input (the upload's fault) rather than failed later:
 * ffmpeg prints the input's name with the error when opening it fails, or names the missing decoder.
 */
export function inputWasUnreadable (result: ChildResult): boolean {
  return !crashed(result) &&
    /^file:.*: (Invalid data found|Invalid argument|End of file)|not on whitelist|moov atom not found|Decoder \(codec .*\) not found|Unsupported codec/im.test(result.stderrTail)
}

function detail (result: ChildResult): string {
  return result.stderrTail.trim().slice(-4000)
}
