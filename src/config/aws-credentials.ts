import type { Env } from './parse.ts'

/** The AWS variables an S3 media store falls back to when MEDIA_STORE_URL carries no credentials (docs/media-store.md). */
export interface AwsCredentialsEnv {
  AWS_ACCESS_KEY_ID?: string | undefined
  AWS_SECRET_ACCESS_KEY?: string | undefined
  AWS_SESSION_TOKEN?: string | undefined
}

export function awsCredentialsEnv (env: Env): AwsCredentialsEnv {
  return { AWS_ACCESS_KEY_ID: env.AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY: env.AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN: env.AWS_SESSION_TOKEN }
}
