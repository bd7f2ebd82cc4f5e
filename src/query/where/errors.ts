import { ApiError } from '../../errors/api-error.ts'

/**
 * A `where` expression the service cannot answer: a 400 (`where_invalid`) whose message ends with the
 * 0-based character offset it points at, so the message can point at the offending position.
 * `position` and `errors.where` are also problem-document members, so clients need not parse the text.
 */
export class WhereError extends ApiError {
  readonly position: number

  constructor (message: string, position: number) {
    const text = `${message} at position ${position}.`
    super('where_invalid', text, { position, errors: { where: [text] } })
    this.name = 'WhereError'
    this.position = position
  }
}

/** The expression is not well-formed (tokenizer or grammar). */
export class WhereSyntaxError extends WhereError {
  constructor (message: string, position: number) {
    super(message, position)
    this.name = 'WhereSyntaxError'
  }
}
