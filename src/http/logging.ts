import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify'
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino'
import pretty from 'pino-pretty'
import type { Config } from '../config/index.ts'

/** The level and the format (default `auto`). */
export type LogSettings = Pick<Config, 'logLevel'> & Partial<Pick<Config, 'logFormat'>>

const SECRET_PARAMS = /([?&](?:api_key|signature|secret|access_key|token)=)[^&]*/g

/** Query values that identify or prove a caller never reach the logs. */
export function redactUrl (url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]')
}

/** `auto` is pretty when a person watches the output (a terminal), JSON when a program reads it. */
export function resolveLogFormat (format: LogSettings['logFormat'] = 'auto', isTerminal = process.stdout.isTTY === true): 'pretty' | 'json' {
  return format === 'auto' ? (isTerminal ? 'pretty' : 'json') : format
}

/** Redaction happens in pino, before either format is written: both show `[redacted]`. */
function pinoOptions (level: string): LoggerOptions {
  return {
    level,
    redact: { paths: ['req.headers.authorization', 'secret', '*.secret', 'secret_enc', '*.secret_enc'], censor: '[redacted]' },
    serializers: {
      req: (req: { method: string, url: string, ip?: string, id?: string }) => ({ method: req.method, url: redactUrl(req.url), remoteAddress: req.ip, id: req.id })
    }
  }
}

interface RequestLine { req?: { method?: string, url?: string }, res?: { statusCode?: number }, responseTime?: number, reqId?: string }

/** The pretty line: `GET /v2/labels?api_key=[redacted]… 200 3.1 ms <request id>` for a request, else the message. */
function prettyMessage (log: Record<string, unknown>, messageKey: string): string {
  const { req, res, responseTime, reqId } = log as RequestLine
  const message = String(log[messageKey] ?? '')
  if (req?.method !== undefined && res?.statusCode !== undefined && typeof responseTime === 'number') {
    return `${req.method} ${req.url ?? ''} ${res.statusCode} ${responseTime.toFixed(1)} ms ${reqId ?? ''}`.trimEnd()
  }
  return reqId === undefined ? message : `${message} (request ${reqId})`
}

/** Where lines go: standard output unless `output` is given (tests), written synchronously so none is lost at exit. */
function destination (settings: LogSettings, output?: NodeJS.WritableStream): DestinationStream {
  if (resolveLogFormat(settings.logFormat) === 'json') return output ?? pino.destination({ dest: 1, sync: true })
  return pretty({
    destination: output ?? 1,
    sync: true,
    colorize: output === undefined && process.stdout.isTTY === true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,reqId,req,res,responseTime',
    singleLine: true,
    messageFormat: prettyMessage
  })
}

/** A logger for the process's own work (stores, the index worker), in the configured format. */
export function createLogger (settings: LogSettings, options: { name?: string, output?: NodeJS.WritableStream } = {}): Logger {
  return pino({ ...pinoOptions(settings.logLevel), ...(options.name !== undefined ? { name: options.name } : {}) }, destination(settings, options.output))
}

/**
 * One line per answered request, written when the answer is sent (method, redacted URL, status, time,
 * request id), instead of Fastify's two ("incoming request" and "request completed").
 */
class OneLinePerRequest extends LogController {
  override incomingRequest (): void {}

  override requestCompleted (error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = { req: request, res: reply, responseTime: reply.elapsedTime }
    if (error !== null && error !== undefined) reply.log.error({ ...line, err: error }, 'request errored')
    else reply.log.info(line, 'request completed')
  }
}

/**
 * Fastify's logging options: the configured format, secrets redacted, one line per request; `false`
 * or level `silent`: no logger at all, so a request builds no child logger and no log line.
 */
export function httpLogging (settings: LogSettings | false, output?: NodeJS.WritableStream): Pick<FastifyServerOptions, 'logger' | 'logController'> {
  if (settings === false || settings.logLevel === 'silent') return { logger: false }
  return {
    logger: { ...pinoOptions(settings.logLevel), stream: destination(settings, output) },
    logController: new OneLinePerRequest()
  }
}
