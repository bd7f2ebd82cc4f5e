import { Readable } from 'node:stream'
import { ApiError } from '../errors/api-error.ts'

/** A request body read once, as it arrives, by a consumer that may stop early. */
export interface StreamedBody {
  /** The chunks; breaking out of a loop over them leaves the rest unread (for `drain`), never destroyed. */
  chunks: AsyncIterable<Buffer>
  /** Reads whatever the consumer left, so that every byte has passed `onChunk` (the signature) before an answer. */
  drain: () => Promise<void>
}

/** The body of a `streamBody` route: the request stream its content-type parser handed on, or undefined (no body). */
export function requestStream (body: unknown): Readable | undefined {
  return body instanceof Readable ? body : undefined
}

/**
 * Wraps a request stream (undefined: no body) so that each chunk passes `onChunk` on its way to the
 * consumer and more than `limit` bytes fail with 413. The signature of a streamed request is checked
 * from what passed here (`config.streamBody`, src/http/request-types.ts).
 */
export function streamedBody (stream: AsyncIterable<Buffer> | undefined, limit: number, onChunk: (chunk: Buffer) => void): StreamedBody {
  const source = stream?.[Symbol.asyncIterator]()
  let ended = source === undefined
  let size = 0
  const next = async (): Promise<IteratorResult<Buffer, undefined>> => {
    if (ended || source === undefined) return { done: true, value: undefined }
    let result: IteratorResult<Buffer>
    try {
      result = await source.next()
    } catch (error) {
      ended = true // an aborted upload: nothing more will come
      throw error
    }
    if (result.done === true) {
      ended = true
      return { done: true, value: undefined }
    }
    size += result.value.length
    if (size > limit) {
      ended = true
      throw tooLarge(limit)
    }
    onChunk(result.value)
    return result
  }
  return {
    chunks: { [Symbol.asyncIterator]: () => ({ next, return: async () => ({ done: true, value: undefined }) }) },
    drain: async () => { while ((await next()).done !== true); }
  }
}

/** The 413 of a streamed body; the connection is closed rather than the rest of the body read. */
export function tooLarge (limit: number): ApiError {
  return new ApiError('body_too_large', `Request body is larger than ${limit} bytes.`, undefined, { Connection: 'close' })
}
