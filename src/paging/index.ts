export { invalidPageToken, PageTokens, type KeyValue } from './page-tokens.ts'
export { pageParams, toPage, type PageParams, type Page } from './page-params.ts'
export { afterPosition, type KeyColumn } from './keyset.ts'
