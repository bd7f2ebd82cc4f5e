// Rules of this project's OpenAPI lint (redocly.yaml): what the API reference promises a reader beyond
// Redocly's built-in rules. Every field of every schema and every parameter has a description and an
// example; a field that refers to a shared schema, or holds objects whose own fields are described, needs
// only what its parts have.

function isObject (value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Objects, arrays of objects and references show their parts' examples; a leaf needs its own. */
function composedOfParts (schema) {
  if ('$ref' in schema) return true
  if (schema.type === 'object' || isObject(schema.properties)) return true
  if (schema.type === 'array' && isObject(schema.items)) return composedOfParts(schema.items)
  if (Array.isArray(schema.anyOf)) return schema.anyOf.some((member) => isObject(member) && member.type !== 'null' && composedOfParts(member))
  return false
}

function hasExample (schema) {
  return schema.example !== undefined || (Array.isArray(schema.examples) && schema.examples.length > 0)
}

function FieldDocumented () {
  return {
    Schema: {
      enter (schema, ctx) {
        if (!isObject(schema.properties)) return
        for (const [name, field] of Object.entries(schema.properties)) {
          if (!isObject(field) || '$ref' in field) continue
          const where = ctx.location.child(['properties', name])
          if (typeof field.description !== 'string' || field.description.trim() === '') {
            ctx.report({ message: `Field ${name} has no description.`, location: where })
          }
          if (!composedOfParts(field) && !hasExample(field)) {
            ctx.report({ message: `Field ${name} has no example.`, location: where })
          }
        }
      }
    }
  }
}

function ParameterDocumented () {
  return {
    Parameter: {
      enter (parameter, ctx) {
        if (typeof parameter.description !== 'string' || parameter.description.trim() === '') {
          ctx.report({ message: `Parameter ${parameter.name} has no description.`, location: ctx.location })
        }
        const schema = isObject(parameter.schema) ? parameter.schema : {}
        if (parameter.example === undefined && parameter.examples === undefined && !hasExample(schema)) {
          ctx.report({ message: `Parameter ${parameter.name} has no example.`, location: ctx.location })
        }
      }
    }
  }
}

export default function reelhouseRules () {
  return {
    id: 'reelhouse',
    rules: {
      oas3: {
        'field-documented': FieldDocumented,
        'parameter-documented': ParameterDocumented
      }
    }
  }
}
