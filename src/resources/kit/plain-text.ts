import { validationError } from '../../errors/api-error.ts'

/** Control characters refused in free text: tabs and line breaks may stay; NUL cannot be stored by PostgreSQL. */
const CONTROL_IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/

/** A 400 naming `field` when `value` holds control characters other than tabs and line breaks. */
export function assertPlainText (field: string, value: string): void {
  if (CONTROL_IN_TEXT.test(value)) {
    throw validationError(`Field ${field} must not contain control characters other than tabs and line breaks.`, { [field]: ['must not contain control characters'] })
  }
}
