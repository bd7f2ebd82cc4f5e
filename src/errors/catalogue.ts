/**
 * The one catalogue of error codes. A code is stable once released: clients and docs key on it.
 * `status` is the HTTP status; `title` is the RFC 9457 title (the same for every occurrence of the code).
 * @see https://www.rfc-editor.org/rfc/rfc9457
 */
export const ERRORS = {
  // 400 — bad input
  bad_request: { status: 400, title: 'Bad request' },
  validation_failed: { status: 400, title: 'Invalid parameters' },
  parameters_missing: { status: 400, title: 'Missing parameters' },
  parameter_duplicated: { status: 400, title: 'Duplicated parameter' },
  query_malformed: { status: 400, title: 'Malformed query string' },
  parameter_name_invalid: { status: 400, title: 'Invalid parameter name' },
  body_malformed: { status: 400, title: 'Malformed request body' },
  expires_invalid: { status: 400, title: 'Invalid expires parameter' },
  limit_invalid: { status: 400, title: 'Invalid limit' },
  page_token_invalid: { status: 400, title: 'Invalid page token' },
  where_invalid: { status: 400, title: 'Invalid where expression' },
  jsonp_not_allowed: { status: 400, title: 'JSONP not available here' },
  callback_invalid: { status: 400, title: 'Invalid callback name' },
  label_name_taken: { status: 400, title: 'Label name already used' },
  label_move_invalid: { status: 400, title: 'Invalid label move' },
  label_parent_not_found: { status: 400, title: 'Parent label not found' },
  label_path_invalid: { status: 400, title: 'Invalid label path' },
  label_paths_missing: { status: 400, title: 'Labels not found' },
  idempotency_key_invalid: { status: 400, title: 'Invalid Idempotency-Key' },
  idempotency_not_supported: { status: 400, title: 'Idempotency-Key not supported here' },
  upload_incomplete: { status: 400, title: 'Upload incomplete' },
  chunk_size_mismatch: { status: 400, title: 'Chunk size does not match its range' },
  tus_request_invalid: { status: 400, title: 'Invalid tus request' },
  webhook_target_refused: { status: 400, title: 'Webhook target not allowed' },
  preview_image_invalid: { status: 400, title: 'Not a usable preview image' },
  caption_invalid: { status: 400, title: 'Invalid caption track' },
  // 401 — authentication
  signature_invalid: { status: 401, title: 'Invalid signature' },
  request_expired: { status: 401, title: 'Request expired' },
  expires_too_far: { status: 401, title: 'Expiry too far ahead' },
  indexer_unauthorized: { status: 401, title: 'Authentication required' },
  access_key_required: { status: 401, title: 'Access key required' },
  // 403 — role or transport
  permission_denied: { status: 403, title: 'Operation not permitted for this role' },
  https_required: { status: 403, title: 'HTTPS required' },
  access_key_invalid: { status: 403, title: 'Invalid access key' },
  chunk_url_invalid: { status: 403, title: 'Invalid chunk URL' },
  chunk_url_expired: { status: 403, title: 'Chunk URL expired' },
  media_url_invalid: { status: 403, title: 'Invalid signed media URL' },
  media_url_expired: { status: 403, title: 'Signed media URL expired' },
  tus_origin_not_allowed: { status: 403, title: 'Origin not allowed for this direct upload' },
  direct_upload_creator_revoked: { status: 403, title: 'Creator of the direct upload may no longer create assets' },
  asset_paused: { status: 403, title: 'Asset paused' },
  asset_not_ready: { status: 403, title: 'Asset not ready to play' },
  asset_errored: { status: 403, title: 'Asset processing failed' },
  playback_time_refused: { status: 403, title: 'Not playable at this time' },
  playback_device_refused: { status: 403, title: 'Not playable on this device' },
  playback_domain_refused: { status: 403, title: 'Not playable on this site' },
  playback_country_refused: { status: 403, title: 'Not playable in this country' },
  playback_token_required: { status: 403, title: 'Playback token required' },
  playback_token_invalid: { status: 403, title: 'Playback token invalid' },
  playback_token_expired: { status: 403, title: 'Playback token expired' },
  playback_key_revoked: { status: 403, title: 'Playback key revoked' },
  // 404
  not_found: { status: 404, title: 'Not found' },
  route_not_found: { status: 404, title: 'No such route' },
  user_not_found: { status: 404, title: 'User not found' },
  account_not_found: { status: 404, title: 'Account not found' },
  asset_not_found: { status: 404, title: 'Asset not found' },
  syndication_not_found: { status: 404, title: 'Syndication not found' },
  label_not_found: { status: 404, title: 'Label not found' },
  player_not_found: { status: 404, title: 'Player not found' },
  publishing_rule_not_found: { status: 404, title: 'Publishing rule not found' },
  media_not_found: { status: 404, title: 'Media not found' },
  upload_not_found: { status: 404, title: 'Upload not found' },
  direct_upload_not_found: { status: 404, title: 'Direct upload not found' },
  tus_upload_not_found: { status: 404, title: 'tus upload not found' },
  webhook_not_found: { status: 404, title: 'Webhook not found' },
  playback_key_not_found: { status: 404, title: 'Playback key not found' },
  webhook_delivery_not_found: { status: 404, title: 'Webhook delivery not found' },
  webhook_event_not_found: { status: 404, title: 'Webhook event not found' },
  caption_not_found: { status: 404, title: 'Caption track not found' },
  // 405, 409, 413, 429
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  request_timeout: { status: 408, title: 'Request timeout' },
  conflict: { status: 409, title: 'Conflict' },
  last_administrator: { status: 409, title: 'Last administrator' },
  asset_status_conflict: { status: 409, title: 'Asset status does not allow this change' },
  asset_id_taken: { status: 409, title: 'Identifier already used by another asset' },
  upload_closed: { status: 409, title: 'Upload no longer takes chunks' },
  upload_not_supported: { status: 409, title: 'Asset type has no uploaded media' },
  lineup_not_supported: { status: 409, title: 'Asset type has no line-up' },
  preview_not_ready: { status: 409, title: 'No preview to choose yet' },
  caption_tracks_full: { status: 409, title: 'Asset has the most caption tracks it may' },
  captions_generation_off: { status: 409, title: 'Generated captions are off' },
  label_has_children: { status: 409, title: 'Label has children' },
  idempotency_key_reused: { status: 409, title: 'Idempotency-Key used for another request' },
  idempotency_key_in_use: { status: 409, title: 'Request with this Idempotency-Key in progress' },
  direct_upload_used: { status: 409, title: 'Direct upload URL already used' },
  direct_upload_closed: { status: 409, title: 'Direct upload no longer waiting' },
  tus_offset_mismatch: { status: 409, title: 'Upload-Offset does not match' },
  tus_upload_gone: { status: 410, title: 'tus upload expired or ended' },
  tus_version_required: { status: 412, title: 'Tus-Resumable required' },
  body_too_large: { status: 413, title: 'Request body too large' },
  tus_body_too_large: { status: 413, title: 'Body longer than Upload-Length' },
  tus_content_type_invalid: { status: 415, title: 'Content-Type must be application/offset+octet-stream' },
  tus_upload_locked: { status: 423, title: 'tus upload busy' },
  range_not_satisfiable: { status: 416, title: 'Range not satisfiable' },
  headers_too_large: { status: 431, title: 'Request headers too large' },
  credits_exhausted: { status: 429, title: 'Request limit exceeded' },
  // 5xx — never with internals
  internal_error: { status: 500, title: 'Internal server error' },
  dependency_unavailable: { status: 503, title: 'Service unavailable' },
  database_busy: { status: 503, title: 'Database busy' }
} as const satisfies Record<string, { status: number, title: string }>

export type ErrorCode = keyof typeof ERRORS

/** What an error code means and what to do about it: the entries of the error reference (`/docs/errors`). */
export interface ErrorHelp {
  /** When the service answers with this code, in a sentence or two. */
  meaning: string
  /** What the caller can do to succeed. */
  fix: string
}

/**
 * The help for every code of `ERRORS`, served as the page the problem documents' `type` links to
 * (`/docs/errors#<code>`). A code without help does not compile.
 */
export const ERROR_HELP = {
  bad_request: {
    meaning: 'The request could not be read: a malformed URL, a Content-Length that does not match the body, or a body of the wrong shape.',
    fix: 'Check the request line, the headers and the body your client sends; the message says which.'
  },
  validation_failed: {
    meaning: 'A parameter or body field breaks a rule: a wrong type, a value out of range, a missing required field, or fields the operation does not know.',
    fix: 'Read `errors`, which maps each field to its problems, and correct those fields. Unknown fields are all named; check their spelling against the API reference.'
  },
  parameters_missing: {
    meaning: 'A signed route was called without one or more of `api_key`, `expires` and `signature`.',
    fix: 'Add the parameters the message names and sign the request (see "Signing" in the API reference).'
  },
  parameter_duplicated: {
    meaning: 'A query parameter appears more than once; the signature could not say which value is meant.',
    fix: 'Send each parameter once; join several values the way the parameter documents (commas, usually).'
  },
  query_malformed: {
    meaning: 'The query string holds a broken percent-encoding (a `%` not followed by two hexadecimal digits, or bytes that are not UTF-8).',
    fix: 'Percent-encode every key and value as UTF-8 (`encodeURIComponent` does it).'
  },
  parameter_name_invalid: {
    meaning: 'A query parameter name holds a character other than letters, digits, `_`, `.`, `-`, `[` and `]`. The signed string joins parameters without separators, so such names could make one signature fit a request nobody signed.',
    fix: 'Use the parameter names the API reference documents; put free text in values, percent-encoded.'
  },
  expires_too_far: {
    meaning: 'The operator limits how far ahead a signed URL may expire (`MAX_EXPIRES_SECONDS`), and `expires` lies beyond it.',
    fix: 'Sign with an expiry closer to now; the message gives the limit in seconds.'
  },
  body_malformed: {
    meaning: 'The body is not UTF-8 encoded JSON, or holds something after the JSON value.',
    fix: 'Send one JSON value encoded as UTF-8, with `Content-Type: application/json`.'
  },
  expires_invalid: {
    meaning: 'The `expires` parameter is not an integer Unix timestamp.',
    fix: 'Send the expiry as whole seconds since 1970-01-01 UTC, e.g. the current time plus 900.'
  },
  limit_invalid: {
    meaning: 'The `limit` parameter is not an integer within the range the list allows.',
    fix: 'Send an integer from 1 to the maximum in the message (500 for lists, 1,000 for reports), or leave it out.'
  },
  idempotency_key_invalid: {
    meaning: 'The `Idempotency-Key` header is empty, longer than 255 characters or holds characters other than visible ASCII.',
    fix: 'Send a key of 1 to 255 visible ASCII characters, such as a UUID, and the same key when you retry the same request.'
  },
  idempotency_not_supported: {
    meaning: 'An `Idempotency-Key` was sent on a method or route that does not take one: only signed POST and PATCH do.',
    fix: 'Leave the header out: GET, PUT and DELETE are safe to retry as they are.'
  },
  idempotency_key_reused: {
    meaning: 'The key was first used for a different request (another method, path, query or body) by the same user.',
    fix: 'Use a new key for every distinct request; reuse a key only to retry exactly the same request.'
  },
  idempotency_key_in_use: {
    meaning: 'The first request with this key is still running.',
    fix: 'Wait the seconds `Retry-After` gives and send the same request again: it will be answered from the first one.'
  },
  page_token_invalid: {
    meaning: 'The `page_token` was not issued by this service, was altered, or belongs to another query (other filters, another path).',
    fix: 'Follow `next_page` as given, without changing its parameters; start again from the first page if the query changed.'
  },
  where_invalid: {
    meaning: 'The `where` expression cannot be parsed or names a field it cannot filter on; `position` says where it went wrong.',
    fix: 'Correct the expression at the position given; quote text values with single quotes (`status=\'live\'`).'
  },
  jsonp_not_allowed: {
    meaning: 'A `callback` parameter was sent to the main service; JSONP is served by the cached endpoint only.',
    fix: 'Leave out `callback`, or send the request to the cached endpoint.'
  },
  callback_invalid: {
    meaning: 'The JSONP `callback` is not a JavaScript identifier path of at most 128 characters.',
    fix: 'Use letters, digits, `_`, `$` and dots only, not starting with a digit or a reserved word (`cb`, `app.onData`).'
  },
  label_name_taken: {
    meaning: 'Another label with this name already has the same parent.',
    fix: 'Choose another name, or move the label under another parent; names are compared exactly, case included.'
  },
  label_move_invalid: {
    meaning: 'A label cannot be moved under itself or one of its descendants.',
    fix: 'Choose a `parent_id` outside the label\'s own subtree, or `null` for the top level.'
  },
  label_parent_not_found: {
    meaning: 'The `parent_id` given is not a label of this account.',
    fix: 'Send the id of an existing label of the account, or `null` for the top level.'
  },
  label_path_invalid: {
    meaning: 'A full label path is empty, lacks its leading `/`, has an empty or overlong name, or is not URL-encoded UTF-8; or there are more than 100 paths.',
    fix: 'Send full paths such as `/Sports/Hockey`, URL-encoded and comma-separated, at most 100 per request.'
  },
  label_paths_missing: {
    meaning: 'Some of the requested label paths do not exist; `missing_labels` lists them.',
    fix: 'Create them first (`POST /v2/labels/by_full_path/…` creates every missing label along the paths), or leave them out.'
  },
  signature_invalid: {
    meaning: 'The signature does not match the request, or the `api_key` names no user. `detail` and `string_to_sign` show what the server hashed, without the secret.',
    fix: 'Compare `string_to_sign` with what your signer hashed: the path as sent (still percent-encoded), the parameters decoded and sorted without `signature`, the exact body bytes. Check the key and secret belong together.'
  },
  request_expired: {
    meaning: 'The `expires` time has passed.',
    fix: 'Sign the request again with a later expiry; check the client\'s clock if this happens at once.'
  },
  indexer_unauthorized: {
    meaning: 'The internal indexing service was called without its basic-authentication credentials.',
    fix: 'Configure the indexer URL with the user and password the indexing service was started with.'
  },
  access_key_required: {
    meaning: 'This syndication feed requires an access key and the request has none.',
    fix: 'Add `access_key=<key>` to the feed URL; the account creates keys with `POST /v2/syndications/{id}/access_keys`.'
  },
  permission_denied: {
    meaning: 'The caller\'s role may not do this (for example a read-only user writing, or a manager managing users).',
    fix: 'Use the key of a user whose role allows it, or ask an administrator to change the role.'
  },
  https_required: {
    meaning: 'The request reached the service over plain HTTP (through a proxy, or the cdn listener): the API, encrypted media and its keys are answered over HTTPS only, by the api listener.',
    fix: 'Call the service with an `https://` URL; for media, the one `detail` names.'
  },
  asset_paused: {
    meaning: 'The asset is paused: its media plays for no one until it is live again.',
    fix: 'Set the asset\'s `status` to `live` (PATCH /v2/assets/:id).'
  },
  asset_not_ready: {
    meaning: 'The asset has no playable rendition yet: it is still uploading or processing.',
    fix: 'Wait for the asset to turn `live` (the `asset.playable` webhook says when), then ask again.'
  },
  asset_errored: {
    meaning: 'Processing the asset\'s media failed, so it has nothing to play.',
    fix: 'Read the asset\'s `processing_error`, then upload a replacement file.'
  },
  playback_time_refused: {
    meaning: 'The asset\'s publishing rule or its own `time_restrictions` do not allow playing at this moment.',
    fix: 'Play it inside its time window, or change the window (times are in the restriction\'s `time_zone`, UTC by default).'
  },
  playback_device_refused: {
    meaning: 'The publishing rule\'s `allowed_devices` does not include the device the request\'s `User-Agent` names.',
    fix: 'Play it on an allowed device, or add the device type to the rule\'s `allowed_devices`.'
  },
  playback_domain_refused: {
    meaning: 'The site the request came from (its `Origin`, else its `Referer`) is not allowed by the rule\'s `domain_restrictions`; a request naming no site is refused unless `allow_no_referrer` is true.',
    fix: 'Embed the player on an allowed site, add the site to the rule, or set `allow_no_referrer` for native apps.'
  },
  playback_country_refused: {
    meaning: 'The country of the viewer\'s address (from the GeoIP database) is not allowed by the rule\'s `geographic_restrictions`; with no GeoIP database configured, every request under a country rule is refused.',
    fix: 'Play it from an allowed country, change the rule, or configure GEOIP_DB (and TRUST_PROXY behind a proxy).'
  },
  playback_token_required: {
    meaning: 'The asset\'s `playback_policy` is `signed`: its media plays only with a playback token (`?token=` on the master URL; the playlists it leads to carry a token of their own in their path).',
    fix: 'Sign a token with one of your playback keys (`signPlaybackToken` in the client) or ask `POST /v2/assets/{asset_id}/playback_tokens` for one, and add it to the master URL as `?token=`.'
  },
  playback_token_invalid: {
    meaning: 'The playback token is not one this asset accepts: malformed, not RS256 or EdDSA, carrying its own key (`jwk`, `jku`, `x5u`, `x5c`), without a `kid` of one of the account\'s playback keys, with a bad signature, not valid yet (`nbf`), or for another asset (`sub`), audience (`aud`) or media version.',
    fix: 'Sign a new token with `sub` set to the embed code, `aud` to `v` (video), `t` (thumbnail) or `s` (storyboard), and `kid` to the id of a current playback key; the detail says what was wrong.'
  },
  playback_token_expired: {
    meaning: 'The playback token\'s `exp` has passed (30 seconds of clock tolerance allowed), or the token in a playlist\'s path outlived its time bucket.',
    fix: 'Sign a new token and load the master URL again.'
  },
  playback_key_revoked: {
    meaning: 'The playback key that signed the token was deleted: nothing it signed plays, URLs already handed out included.',
    fix: 'Sign tokens with a current key (`GET /v2/playback_keys`).'
  },
  playback_key_not_found: {
    meaning: 'No current playback key with that id exists in your account (a deleted key is gone).',
    fix: 'List `/v2/playback_keys` for the ids of your keys.'
  },
  access_key_invalid: {
    meaning: 'The feed\'s `access_key` is not one of this syndication\'s keys (or it was deleted).',
    fix: 'Use a current key of this syndication; list them with `GET /v2/syndications/{id}/access_keys`.'
  },
  not_found: {
    meaning: 'The resource named in the path does not exist in the caller\'s account.',
    fix: 'Check the id; ids of another account answer 404 too.'
  },
  route_not_found: {
    meaning: 'No operation has this method and path.',
    fix: 'Check the path and method against the API reference; paths start with `/v2/`.'
  },
  user_not_found: {
    meaning: 'No user with this id exists in the caller\'s account.',
    fix: 'List the account\'s users with `GET /v2/users` to find the id.'
  },
  account_not_found: {
    meaning: 'No account has this code (the `pcode` of a feed, or the part of an API key before the dot).',
    fix: 'Check the account code; it is the part of an API key before the dot.'
  },
  asset_not_found: {
    meaning: 'No asset of the caller\'s account has this embed code or external_id (for an upload-only user: none that it created).',
    fix: 'Check the embed code or external_id; percent-encode a `/` in an external_id (`site%2F58`).'
  },
  preview_image_invalid: {
    meaning: 'The body of `POST /v2/assets/{id}/preview_image_files` is not one whole JPEG or PNG image: another format, an image that does not decode, one too large (5 MiB, 8192 pixels a side), or bytes after the image\'s end marker (JPEG EOI, PNG IEND), which the signature scheme\'s length extension would append.',
    fix: 'Send the image file\'s bytes as they are, nothing before or after them, as the body.'
  },
  preview_not_ready: {
    meaning: 'The preview cannot be chosen yet: the asset has no processed media (no generated frames, nowhere to put the preview), or `{"type":"uploaded_file"}` was asked before any file was sent.',
    fix: 'Wait until the asset is `live` or `paused`, or send the image first with `POST /v2/assets/{id}/preview_image_files`.'
  },
  media_not_found: {
    meaning: 'No media file has this URL: the asset was deleted, its media was replaced (old rendition URLs go with the old media), it is not processed yet, or the URL was mistyped.',
    fix: 'Read the asset again (`GET /v2/assets/{id}`): `stream_urls` and `preview_image_url` hold the current URLs.'
  },
  range_not_satisfiable: {
    meaning: 'The `Range` header asks for bytes past the end of the file (the `Content-Range` header gives its size).',
    fix: 'Ask for a range within the size, or for the whole file without `Range`.'
  },
  syndication_not_found: {
    meaning: 'No syndication with this id exists in the account.',
    fix: 'List the account\'s syndications with `GET /v2/syndications` to find the id.'
  },
  label_not_found: {
    meaning: 'No label with this id (or these ids) exists in the caller\'s account.',
    fix: 'List the labels with `GET /v2/labels`, or look them up by path with `GET /v2/labels/by_full_path/…`.'
  },
  player_not_found: {
    meaning: 'No player with this id exists in the account, or the asset has no player and the account no default player.',
    fix: 'Check the id with `GET /v2/players`, or set the asset\'s player with `PUT /v2/assets/{id}/player/{player_id}`.'
  },
  publishing_rule_not_found: {
    meaning: 'No publishing rule with this id exists in the account, or the asset has none.',
    fix: 'Check the id with `GET /v2/publishing_rules`, or set one with `PUT /v2/assets/{id}/publishing_rule/{rule_id}`.'
  },
  request_timeout: {
    meaning: 'The request line, headers or body did not arrive within the server\'s time limit; the connection is closed.',
    fix: 'Send the whole request promptly; on a slow link, retry on a new connection.'
  },
  headers_too_large: {
    meaning: 'The request headers exceed the server\'s limit (16 KiB in total); the connection is closed.',
    fix: 'Send fewer or shorter headers (large cookies, usually).'
  },
  method_not_allowed: {
    meaning: 'The path exists but not with this method (the cached endpoint serves GET and HEAD only); `Allow` lists the methods it takes.',
    fix: 'Use one of the methods in the `Allow` header, or send writes to the main service.'
  },
  conflict: {
    meaning: 'The request conflicts with the resource\'s current state (for example a syndication that already holds 100 access keys).',
    fix: 'Read the message, change the state it names (delete an access key), then retry.'
  },
  last_administrator: {
    meaning: 'The change would leave the account without an administrator.',
    fix: 'Make another user an administrator first, then change or delete this one.'
  },
  asset_status_conflict: {
    meaning: 'The asset\'s status cannot change this way: clients may only switch between `live` and `paused`, or repeat the current status.',
    fix: 'Leave `status` out, or send `live` or `paused` for an asset that is live or paused; an uploading asset moves on by itself.'
  },
  asset_id_taken: {
    meaning: 'Another asset of the account already has this `external_id` or `youtube_id`.',
    fix: 'Use another value, or update the asset that has it.'
  },
  label_has_children: {
    meaning: 'The label has child labels and was not deleted recursively.',
    fix: 'Delete the children first, or delete with `recursive=true` to remove the whole subtree.'
  },
  upload_incomplete: {
    meaning: 'Some chunks of the upload are missing or arrived with the wrong size: `missing_chunks` and `bad_chunks` name them. Each name appears in exactly one of the upload\'s chunk URLs.',
    fix: 'PUT again the chunk URLs that contain the names listed (ask for `uploading_urls` again if yours expired), then repeat the `upload_status` request.'
  },
  chunk_size_mismatch: {
    meaning: 'The chunk\'s body is not exactly as long as its byte range (`range` in the chunk URL); the chunk is recorded as bad.',
    fix: 'Send exactly the bytes of the range: `File.slice(start, end + 1)`, or the file\'s bytes from `start` to `end` inclusive.'
  },
  upload_not_supported: {
    meaning: 'Only video, audio and ad assets have uploaded media; this asset is of another type.',
    fix: 'Use the upload operations on a video, audio or ad asset.'
  },
  lineup_not_supported: {
    meaning: 'Only channel assets have a line-up; this asset is of another type.',
    fix: 'Call the line-up operations on a channel asset (`asset_type: "channel"`).'
  },
  chunk_url_invalid: {
    meaning: 'The chunk URL was changed or was not made by this server: its signature does not match its asset, upload, chunk, range and expiry.',
    fix: 'Use the chunk URLs exactly as `uploading_urls` gave them.'
  },
  chunk_url_expired: {
    meaning: 'The chunk URL is past its expiry (chunk URLs last 24 hours).',
    fix: 'Ask for `uploading_urls` again: the new URLs continue the same upload, and chunks already received stay.'
  },
  media_url_invalid: {
    meaning: 'An original was asked for without its signed URL, or with a signature that does not match: the media token alone never opens an original.',
    fix: 'Use `stream_urls.source_file` or `source_file_info.source_file_url` exactly as the asset gives them (roles that may read the asset get them).'
  },
  media_url_expired: {
    meaning: 'The signed URL of the original is past its expiry (48 to 72 hours after it was given).',
    fix: 'Read the asset again (`GET /v2/assets/{id}`) for a fresh signed URL.'
  },
  webhook_not_found: {
    meaning: 'No webhook endpoint with that id exists in your account.',
    fix: 'List `/v2/webhooks` for the ids of your endpoints.'
  },
  webhook_delivery_not_found: {
    meaning: 'The endpoint has no delivery with that id.',
    fix: 'List the endpoint\'s `/deliveries` for the ids of its deliveries.'
  },
  caption_invalid: {
    meaning: 'A caption body could not be taken: not UTF-8 text, a control character other than TAB, CR and LF, broken XML, a cue that is not well formed, ends before it starts or overlaps the one before, or anything after the end of the track. The message names the line.',
    fix: 'Correct the line the message names and upload the track again; DFXP/TTML, WebVTT and SRT are read.'
  },
  caption_not_found: {
    meaning: 'The asset has no caption track in that language.',
    fix: 'List the asset\'s tracks (`GET /v2/assets/:asset_id/captions`) and use one of their languages.'
  },
  captions_generation_off: {
    meaning: 'The service has no speech-recognition engine: neither whisper.cpp (CAPTIONS_WHISPER_BIN and CAPTIONS_WHISPER_MODEL) nor pocketsphinx\'s English model is set up. The message says what is missing.',
    fix: 'Upload the track instead, or ask the operator to install Debian\'s pocketsphinx-en-us or to set the whisper executable and model.'
  },
  caption_tracks_full: {
    meaning: 'The asset has 30 caption tracks, the most it may; a new language would make one more.',
    fix: 'Delete a track the asset no longer needs, or replace one of its languages.'
  },
  webhook_event_not_found: {
    meaning: 'The event named by `after` is not one of your account\'s events.',
    fix: 'Pass the `id` of an event the stream sent you (its SSE `id:` line), or leave `after` out to start with the next event.'
  },
  webhook_target_refused: {
    meaning: 'The URL may not receive webhooks: it is not `https://` (unless the operator allows `http://`), or it names an address that is not globally routable (loopback, private, link-local and the like) and the operator does not allow private targets.',
    fix: 'Use an `https://` URL of a public host. For a receiver on your own machine, use `reelhouse webhooks listen --forward-to URL`.'
  },
  upload_not_found: {
    meaning: 'The upload the chunk URL names does not exist any more: its asset was deleted.',
    fix: 'Create the asset again and upload to the new URLs.'
  },
  upload_closed: {
    meaning: 'The upload the chunk URL belongs to is finished (`uploaded`) or abandoned (`failed`); it takes no more chunks.',
    fix: 'For a new upload, ask for `uploading_urls` again (after an abandoned upload) or start a `replacement`.'
  },
  body_too_large: {
    meaning: 'The body is larger than this operation accepts (1 MiB for JSON by default, 64 MiB for an events import).',
    fix: 'Send less at once: split a batch or an import into several requests.'
  },
  credits_exhausted: {
    meaning: 'The account (or, before a signature is verified, the client address) has used this minute\'s credits.',
    fix: 'Wait the number of seconds in `Retry-After`; check the balance with `GET /v2/remaining_credits_and_reset_time`.'
  },
  internal_error: {
    meaning: 'The service failed unexpectedly. The body holds nothing about the cause; the server log has it under the `request_id`.',
    fix: 'Retry later; if it persists, report the `request_id` to the operator.'
  },
  dependency_unavailable: {
    meaning: 'A service Reelhouse relies on (the credit store, the analytics store or ingestion) cannot answer right now.',
    fix: 'Retry after the `Retry-After` seconds, or shortly; `GET /ready` shows which dependency is down.'
  },
  database_busy: {
    meaning: 'The database stayed busy with other writers (another process on the same SQLite data directory, or locks on PostgreSQL) longer than a write waits for it. The write the request was making did not commit.',
    fix: 'Send the same request again after the `Retry-After` seconds. If it persists, the operator should spread the writers over fewer processes or move to PostgreSQL (docs/deployment.md).'
  },
  tus_request_invalid: {
    meaning: 'A tus request broke the protocol: a missing or malformed `Upload-Length` or `Upload-Offset`, an invalid header, or a deferred length (not supported).',
    fix: 'Use a tus 1.0 client (tus-js-client, Uppy) with the URL as given; the message names the header.'
  },
  tus_origin_not_allowed: {
    meaning: 'The browser request came from an origin other than the direct upload\'s `cors_origin`.',
    fix: 'Create the direct upload with the `cors_origin` of the page that uploads.'
  },
  direct_upload_creator_revoked: {
    meaning: 'The user who created the direct upload was deleted or no longer has a role that creates assets, so the completed upload made no asset; the direct upload is cancelled.',
    fix: 'Create a new direct upload with a user whose role may write assets.'
  },
  direct_upload_not_found: {
    meaning: 'No direct upload has this id (or this tus URL) in the account.',
    fix: 'List direct uploads with `GET /v2/direct_uploads`; use the `url` it answered as given.'
  },
  tus_upload_not_found: {
    meaning: 'The tus upload URL names no upload of this direct upload (it was terminated, or the URL was changed).',
    fix: 'Use the direct upload\'s `upload_url` as given, or create the upload again on its `url`.'
  },
  direct_upload_used: {
    meaning: 'The direct upload\'s `url` already created its one upload, which still lives.',
    fix: 'Continue that upload at the direct upload\'s `upload_url` (HEAD then PATCH), or terminate it first.'
  },
  direct_upload_closed: {
    meaning: 'The direct upload is no longer waiting: it created its asset, or was cancelled, or timed out.',
    fix: 'Create a new direct upload.'
  },
  tus_offset_mismatch: {
    meaning: 'The PATCH\'s `Upload-Offset` is not the number of bytes the server holds for the upload.',
    fix: 'Ask the offset with HEAD and continue from it (tus clients do this on resume).'
  },
  tus_upload_gone: {
    meaning: 'The direct upload expired (its `timeout` passed) or was cancelled: its URL takes no more bytes and what it held is dropped.',
    fix: 'Create a new direct upload.'
  },
  tus_version_required: {
    meaning: 'A request to a tus URL came without `Tus-Resumable: 1.0.0`: it is not a tus request.',
    fix: 'Upload with a tus 1.0 client (tus-js-client, Uppy, `reelhouse upload --tus`).'
  },
  tus_body_too_large: {
    meaning: 'The body would carry the upload past its declared `Upload-Length` (or the upload is larger than 5 TiB); nothing of it was kept.',
    fix: 'Send exactly `Upload-Length` bytes in all; create the upload with the file\'s real size.'
  },
  tus_content_type_invalid: {
    meaning: 'A PATCH came without `Content-Type: application/offset+octet-stream`.',
    fix: 'Send the bytes with that Content-Type, as tus clients do.'
  },
  tus_upload_locked: {
    meaning: 'Another request is writing to the same upload and did not let go in time.',
    fix: 'Retry after a moment; tus clients do this by themselves.'
  }
} as const satisfies Record<ErrorCode, ErrorHelp>
