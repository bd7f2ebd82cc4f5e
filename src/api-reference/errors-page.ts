import { createHash } from 'node:crypto'
import { ERROR_HELP, ERRORS, type ErrorCode } from '../errors/catalogue.ts'

const STYLE = 'body{font:16px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:48rem;padding:0 1rem;color:#222}' +
  'h1{font-size:1.6rem}h2{font-size:1.15rem;margin:2rem 0 .3rem}code{background:#f3f3f3;padding:0 .2em}' +
  'section:target{background:#fff8d6;outline:.5rem solid #fff8d6}.status{color:#555}dt{font-weight:600}dd{margin:0 0 .5rem}' +
  'nav ul{columns:2;padding-left:1.2rem}'

function escapeHtml (text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

/** The catalogue's texts mark code and names with backticks, as the rest of the reference does. */
function inline (text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>')
}

function entry (code: ErrorCode): string {
  const { status, title } = ERRORS[code]
  const { meaning, fix } = ERROR_HELP[code]
  return `<section id="${code}">
<h2><code>${code}</code></h2>
<p class="status">${status} ${escapeHtml(title)}</p>
<dl><dt>Meaning</dt><dd>${inline(meaning)}</dd><dt>Fix</dt><dd>${inline(fix)}</dd></dl>
</section>`
}

/**
 * `/docs/errors`: one entry per code of the catalogue, anchored by the code, which is where the `type`
 * of every problem document points (`/docs/errors#signature_invalid`). Built from the catalogue at start,
 * so a new code appears here as soon as it exists. No script; one inline style, allowed by its hash.
 */
export function errorsPage (): { html: string, contentSecurityPolicy: string } {
  const codes = (Object.keys(ERRORS) as ErrorCode[]).sort((a, b) => ERRORS[a].status - ERRORS[b].status || (a < b ? -1 : 1))
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Reelhouse API errors</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>Reelhouse API errors</h1>
<p>Every error answer is a problem document whose <code>code</code> is one of these and whose <code>type</code>
links here. <code>message</code> and <code>detail</code> describe the case at hand; <code>request_id</code> finds it in
the server's log. Back to the <a href="/docs">API reference</a>.</p>
<nav><ul>
${codes.map((code) => `<li><a href="#${code}">${code}</a> (${ERRORS[code].status})</li>`).join('\n')}
</ul></nav>
${codes.map(entry).join('\n')}
</main>
</body>
</html>
`
  const styleHash = createHash('sha256').update(STYLE).digest('base64')
  return { html, contentSecurityPolicy: `default-src 'none'; style-src 'sha256-${styleHash}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'` }
}
