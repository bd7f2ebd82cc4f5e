/**
 * How the API reference names and explains the standard routes of a resource, in one place: every
 * resource's list, create, get, update, replace and delete (and metadata routes) read alike, and a
 * resource adds what is its own through `CrudDocs.notes`. Other routes declare their own
 * `operationId`, `summary` and `description`.
 */
export interface OperationDoc {
  operationId: string
  summary: string
  description: string
}

export type CrudOperation = 'list' | 'create' | 'get' | 'update' | 'replace' | 'delete'
type MetadataOperation = 'getMetadata' | 'replaceMetadata' | 'updateMetadata' | 'deleteMetadata'

/** The words for one item and several, as the reference writes them: `label`/`labels`, `publishing rule`/`publishing rules`. */
export interface Noun {
  one: string
  many: string
}

export interface CrudDocs {
  /** The order of the list, e.g. `newest first unless orderby says otherwise`; default oldest first. */
  order?: string
  /** A resource's own rules, added to the standard description of an operation. */
  notes?: Partial<Record<CrudOperation, string>>
}

/** `publishing rule` → `PublishingRule`, for operation ids. */
function pascal (words: string): string {
  return words.split(/[\s_]+/).map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('')
}

/** "a label", "an asset": the nouns of this API need nothing subtler. */
function withArticle (word: string): string {
  return `${/^[aeio]/.test(word) ? 'an' : 'a'} ${word}`
}

function joined (...parts: Array<string | undefined>): string {
  return parts.filter((part) => part !== undefined && part !== '').join(' ')
}

export function crudOperationDocs (noun: Noun, docs: CrudDocs = {}): Record<CrudOperation, OperationDoc> {
  const { one, many } = noun
  const notes = docs.notes ?? {}
  return {
    list: {
      operationId: `list${pascal(many)}`,
      summary: `List ${many}`,
      description: joined(`One page of the account's ${many}, ${docs.order ?? 'oldest first'}: at most \`limit\` (1–500, default 100),`,
        'and `next_page`, the relative URL of the next page, absent on the last one. Paging is by keyset, so an item created or',
        'deleted during a walk is never returned twice.', notes.list)
    },
    create: {
      operationId: `create${pascal(one)}`,
      summary: `Create ${withArticle(one)}`,
      description: joined(`Creates ${withArticle(one)} from the body and answers it (200). Fields not given take their defaults;`,
        'unknown fields are refused with 400, each one named.', notes.create)
    },
    get: {
      operationId: `get${pascal(one)}`,
      summary: `Get ${withArticle(one)}`,
      description: joined(`Answers the ${one}. An id that is not one of the account's ${many} answers 404.`, notes.get)
    },
    update: {
      operationId: `update${pascal(one)}`,
      summary: `Update ${withArticle(one)}`,
      description: joined('Changes only the fields the body gives: nested objects merge field by field, lists replace.',
        `Answers the ${one} as stored.`, notes.update)
    },
    replace: {
      operationId: `replace${pascal(one)}`,
      summary: `Replace ${withArticle(one)}`,
      description: joined(`Replaces the ${one}: every field the body does not give returns to its default; the id and \`created_at\` stay.`,
        `Answers the ${one} as stored.`, notes.replace)
    },
    delete: {
      operationId: `delete${pascal(one)}`,
      summary: `Delete ${withArticle(one)}`,
      description: joined(`Deletes the ${one} and answers \`{}\`.`, notes.delete)
    }
  }
}

export function metadataOperationDocs (noun: Noun): Record<MetadataOperation, OperationDoc> {
  const name = pascal(noun.one)
  const rules = 'At most 100 pairs; names are 1–128 of the characters A–Z a–z 0–9 - _ ! @ # $ % & ^ * ( ) . ? and values strings of at most 2,048 characters.'
  return {
    getMetadata: {
      operationId: `get${name}Metadata`,
      summary: `Get ${withArticle(noun.one)}'s metadata`,
      description: `Answers the ${noun.one}'s custom metadata: an object of name/value strings.`
    },
    replaceMetadata: {
      operationId: `replace${name}Metadata`,
      summary: `Replace ${withArticle(noun.one)}'s metadata`,
      description: `Replaces every pair with the body's and answers the result. ${rules}`
    },
    updateMetadata: {
      operationId: `update${name}Metadata`,
      summary: `Update ${withArticle(noun.one)}'s metadata`,
      description: `Merges the body into the pairs, a null value removing that name, and answers the result. ${rules}`
    },
    deleteMetadata: {
      operationId: `delete${name}Metadata`,
      summary: `Delete ${withArticle(noun.one)}'s metadata`,
      description: 'Removes every pair and answers `{}`.'
    }
  }
}
