import type { FastifyServerOptions } from 'fastify'

const SECRET_PARAMS = /([?&](?:api_key|signature|secret|access_key)=)[^&]*/g

/** Query values that identify or prove a caller never reach the logs. */
export function redactUrl (url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]')
}

/** pino options: JSON logs; URLs, authorization headers and secrets redacted. */
export function loggerOptions (level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: { paths: ['req.headers.authorization', 'secret', '*.secret', 'secret_enc', '*.secret_enc'], censor: '[redacted]' },
    serializers: {
      req: (req: { method: string, url: string, ip?: string, id?: string }) => ({ method: req.method, url: redactUrl(req.url), remoteAddress: req.ip, id: req.id })
    }
  }
}
