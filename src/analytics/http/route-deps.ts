import type { Config } from '../../config/index.ts'
import type { CreditStore } from '../../credits/index.ts'
import type { AppAnalytics } from '../app-analytics.ts'

/** What the analytics routes use: the engine, and the per-address limit of event collection. */
export interface AnalyticsRouteDeps {
  analytics: AppAnalytics
  credits: CreditStore
  config: Pick<Config, 'analyticsCollectPerMinute'>
}
