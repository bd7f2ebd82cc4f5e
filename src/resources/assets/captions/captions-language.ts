/** English names of languages (`pt` → Portuguese). */
export const LANGUAGE_NAMES = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' })

/**
 * A BCP 47 tag in its canonical form, or undefined when it is malformed or its language is unknown
 * (Node's ICU knows the ISO 639 languages).
 */
export function canonicalLanguage (tag: string): string | undefined {
  if (tag.length === 0 || tag.length > 35) return undefined
  try {
    const canonical = Intl.getCanonicalLocales(tag)[0]
    if (canonical === undefined) return undefined
    const primary = new Intl.Locale(canonical).language
    return LANGUAGE_NAMES.of(primary) === undefined ? undefined : canonical
  } catch {
    return undefined
  }
}
