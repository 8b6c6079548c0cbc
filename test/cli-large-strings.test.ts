/**
 * `oixk dump` writes large strings and large documents a piece at a time, and `oixk inspect` shows
 * names and terms escaped and cut: a document of millions of
 * values was built as one string (4 GB, then past the engine's string limit: exit 3), and a term or
 * field name of hundreds of millions of control characters went through one JSON.stringify.
 */
import { describe, expect, it } from 'vitest'
import { dumpReader } from '../src/cli/dump.js'
import { describeReader } from '../src/cli/inspect.js'
import { flushColumns, openColumns } from '../src/index.js'

/** The dump as the pieces written, and parsed. */
async function dumpOf(bytes: Uint8Array): Promise<{ pieces: string[]; json: { maxDoc: number; columns: { name: string; terms?: string[]; raw: unknown[] }[] } }> {
  const pieces: string[] = []
  await dumpReader(openColumns(bytes, { backend: 'ts' }), { write: (chunk: string) => { pieces.push(chunk) } })
  return { pieces, json: JSON.parse(pieces.join('')) }
}

describe('dump of large strings and documents', () => {
  it('a term and a field name longer than a piece, a pair at the pieces\' edge, control characters', async () => {
    // The emoji's two halves straddle the first piece's end (2^18 units): split, each would be a lone surrogate.
    // 600,000 control characters take 3.6 M characters escaped.
    const term = 'a'.repeat((1 << 18) - 1) + '\u{1F600}' + '\u0001'.repeat(600_000) + '\u2028"\\'
    const name = 'n'.repeat(3 << 19) + '\u0085'
    const bytes = flushColumns({ fields: [{ name, type: 'keyword', facet: true }] }, [{ [name]: term }, { [name]: 'b' }])!
    const { pieces, json } = await dumpOf(bytes)
    expect(json.columns[0].name).toBe(name)
    expect(json.columns[0].terms).toEqual([term, 'b'])
    expect(pieces.join('')).toContain(JSON.stringify(term))
    expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThan(3 << 20)
  })

  it('a document of more values than a piece holds', async () => {
    const values = Array.from({ length: 300_000 }, (_, i) => i * 7)
    const bytes = flushColumns({ fields: [{ name: 'm', type: 'integral', column: true, multi: true }] }, [{ m: [1] }, { m: values }, {}])!
    const { pieces, json } = await dumpOf(bytes)
    expect(json.columns[0].raw).toEqual([['1'], values.map(String), []])
    // About 2.7 M characters of values, none written as one piece.
    expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThan(2 << 20)
  })
})

describe('inspect of names and terms', () => {
  it('escapes control characters (C1 and DEL too) and cuts long ones, with their length', () => {
    // JSON.stringify escapes C0 only: U+009B (CSI) and DEL reached the terminal; a term of 260 MiB was printed twice.
    const name = 'esc\u001b[2J\u009b31m\u007fname'
    const long = 'x'.repeat(5000)
    const bytes = flushColumns({ fields: [{ name, type: 'keyword', facet: true }] }, [{ [name]: '\u0085a' }, { [name]: long }])!
    const report = describeReader(openColumns(bytes, { backend: 'ts', fileName: 'dir/x\u001b[2Jy\nz.oixk' }))
    expect(report.split('\n')[0]).toBe('file                    dir/x\\u001b[2Jy\\u000az.oixk')
    expect(report).toContain('column "esc\\u001b[2J\\u009b31m\\u007fname"\n')
    // Terms in UTF-8 order: "x…" before U+0085.
    expect(report).toContain(`  min term              "${'x'.repeat(1000)}"… (5000 characters)\n`)
    expect(report).toContain(`  max term              "\\u0085a"\n`)
    expect(report).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/)
    // Cut where a pair would be split: before it.
    const pair = 'b'.repeat(999) + '\u{1F600}' + 'c'.repeat(10)
    const paired = describeReader(openColumns(flushColumns({ fields: [{ name: 'p', type: 'keyword', facet: true }] }, [{ p: pair }])!, { backend: 'ts' }))
    expect(paired).toContain(`  min term              "${'b'.repeat(999)}"… (1011 characters)\n`)
  })
})
