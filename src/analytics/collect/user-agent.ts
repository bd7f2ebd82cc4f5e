import UAParser from 'ua-parser-js'
import { dictionary } from '../../lib/dictionary.ts'
import { UNKNOWN } from '../model.ts'

/** Device type, OS and browser in the API family's v3 values (desktop, mobile, settop, tablet…; docs/analytics.md). */
export interface DeviceInfo {
  deviceType: string
  os: string
  browser: string
}

const LINUXES = new Set(['linux', 'ubuntu', 'debian', 'fedora', 'arch', 'centos', 'gentoo', 'mint', 'redhat', 'suse',
  'slackware', 'gnu', 'mandriva', 'mageia', 'pclinuxos', 'zenwalk', 'vectorlinux', 'linpus', 'kubuntu', 'deepin'])
const OS_NAMES = dictionary({
  windows: 'windows', 'windows phone': 'windows', 'windows mobile': 'windows', 'mac os': 'mac', macos: 'mac',
  ios: 'ios', android: 'android', 'chromium os': 'chromeos', 'chrome os': 'chromeos', tizen: 'tizen', webos: 'webos'
})
const BROWSER_NAMES = dictionary({
  chrome: 'chrome', 'chrome headless': 'chrome', 'chrome webview': 'chrome', chromium: 'chrome', 'mobile chrome': 'chrome',
  firefox: 'firefox', 'mobile firefox': 'firefox', safari: 'safari', 'mobile safari': 'safari', ie: 'ie', iemobile: 'ie',
  edge: 'edge', opera: 'opera', 'opera mini': 'opera', 'opera mobi': 'opera', 'opera touch': 'opera', 'samsung browser': 'samsung'
})
const DESKTOP_OSES = new Set(['windows', 'mac', 'linux', 'chromeos'])

/** Lower case, runs of anything but letters and digits folded to `_`: stable enumeration values. */
function slug (name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '')
}

function osOf (result: UAParser.IResult): string {
  if (result.device.model === 'Chromecast') return 'chromecast'
  if (result.device.vendor === 'Roku') return 'roku'
  const name = result.os.name?.toLowerCase()
  if (name === undefined || name === '') return UNKNOWN.os
  if (LINUXES.has(name)) return 'linux'
  return OS_NAMES[name] ?? (slug(name) || UNKNOWN.os)
}

function browserOf (result: UAParser.IResult): string {
  const name = result.browser.name?.toLowerCase()
  if (name === undefined || name === '') return UNKNOWN.browser
  return BROWSER_NAMES[name] ?? (slug(name) || UNKNOWN.browser)
}

function deviceTypeOf (result: UAParser.IResult, os: string): string {
  switch (result.device.type) {
    case 'mobile': case 'wearable': return 'mobile'
    case 'tablet': return 'tablet'
    case 'smarttv': case 'console': case 'embedded': return 'settop'
  }
  // ua-parser leaves the type empty for desktops; only call it desktop when the OS says so.
  return DESKTOP_OSES.has(os) ? 'desktop' : UNKNOWN.deviceType
}

// Players send the same few user agents over and over; parsing costs tens of microseconds.
const cache = new Map<string, DeviceInfo>()
const CACHE_SIZE = 2000

/** Classifies a user agent; an absent or unrecognised one gives the `unknown.*` values. */
export function deviceInfo (userAgent: string | undefined): DeviceInfo {
  const ua = userAgent ?? ''
  const cached = cache.get(ua)
  if (cached !== undefined) return cached
  const result = new UAParser(ua).getResult()
  const os = osOf(result)
  const info: DeviceInfo = { deviceType: deviceTypeOf(result, os), os, browser: browserOf(result) }
  if (cache.size >= CACHE_SIZE) cache.clear()
  cache.set(ua, info)
  return info
}
