import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { tokenize, WhereSyntaxError } from '../../src/query/index.ts'

/** Tokens as `kind:text@position`, without the final `end`, so a table row fits on one line. */
function tokens (source: string): string[] {
  return tokenize(source).slice(0, -1).map((t) => `${t.kind}:${t.text}@${t.position}`)
}

describe('where tokenizer', () => {
  const valid: Array<[string, string[]]> = [
    ['duration>600', ['word:duration@0', 'op:>@8', 'number:600@9']],
    ['a<=1 b>=2 c!=3 d<4 e=5', ['word:a@0', 'op:<=@1', 'number:1@3', 'word:b@5', 'op:>=@6', 'number:2@8', 'word:c@10', 'op:!=@11', 'number:3@13', 'word:d@15', 'op:<@16', 'number:4@17', 'word:e@19', 'op:=@20', 'number:5@21']],
    ['x>-1.5', ['word:x@0', 'op:>@1', 'number:-1.5@2']],
    ['labels+INCLUDES+\'Music\'', ['word:labels@0', 'word:INCLUDES@7', 'string:Music@16']],
    ['name=\'Rock+Roll\'', ['word:name@0', 'op:=@4', 'string:Rock+Roll@5']],
    ['name=\'It\'\'s\'', ['word:name@0', 'op:=@4', 'string:It\'s@5']],
    ['name=\'It\\\'s\'', ['word:name@0', 'op:=@4', 'string:It\'s@5']],
    ['name=\'C:\\dir\\\\\'', ['word:name@0', 'op:=@4', 'string:C:\\dir\\@5']],
    ['name="say ""hi"""', ['word:name@0', 'op:=@4', 'string:say "hi"@5']],
    ['name=\'\'', ['word:name@0', 'op:=@4', 'string:@5']],
    ['id IN (\'a\',\'b\')', ['word:id@0', 'word:IN@3', '(:(@6', 'string:a@7', ',:,@10', 'string:b@11', '):)@14']],
    ['time_restrictions.start_date<=\'2011-06-01\'', ['word:time_restrictions.start_date@0', 'op:<=@28', 'string:2011-06-01@30']],
    ['metadata.my-key_2@#$%&^*?=\'v\'', ['word:metadata.my-key_2@#$%&^*?@0', 'op:=@25', 'string:v@26']],
    ['metadata.\'odd(key)!\'=\'v\'', ['word:metadata.odd(key)!@0', 'op:=@20', 'string:v@21']],
    ['\t a \r\n', ['word:a@2']]
  ]
  for (const [source, expected] of valid) {
    it(`tokenizes ${source}`, () => {
      assert.deepEqual(tokens(source), expected)
    })
  }

  it('ends every token list with an end token at the length of the input', () => {
    assert.deepEqual(tokenize('a=1').at(-1), { kind: 'end', text: '', position: 3 })
    assert.deepEqual(tokenize(''), [{ kind: 'end', text: '', position: 0 }])
  })

  const invalid: Array<[string, string, number]> = [
    ['name=\'abc', 'Unterminated string starting at position 5.', 5],
    ['name=\'abc\\\'', 'Unterminated string starting at position 5.', 5],
    ['metadata.\'abc=1', 'Unterminated string starting at position 9.', 9],
    ['duration>6x', 'Invalid number \'6x\' at position 9.', 9],
    ['duration>1.', 'Invalid number \'1.\' at position 9.', 9],
    ['name!\'a\'', 'Unexpected character \'!\' at position 4.', 4],
    ['name=\'a\'; drop table t', 'Unexpected character \';\' at position 8.', 8],
    ['name=\'a\'\u0000', 'Unexpected character U+0000 at position 8.', 8],
    ['name=\'a\' 😀', 'Unexpected character \'😀\' at position 9.', 9]
  ]
  for (const [source, message, position] of invalid) {
    it(`rejects ${JSON.stringify(source)} at position ${position}`, () => {
      assert.throws(() => tokenize(source), (error: unknown) => {
        assert.ok(error instanceof WhereSyntaxError)
        assert.equal(error.message, message)
        assert.equal(error.position, position)
        return true
      })
    })
  }
})
