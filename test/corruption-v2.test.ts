/**
 * Format v2's own rules, one test each: a file that breaks exactly one rule
 * (its checksum fixed) is refused with a message naming the file, the sequence
 * and the rule, at open, when read, or by the full check, on both backends.
 */
import { describe, expect, it } from 'vitest'
import type { SequenceView } from '../src/backend/backend.js'
import { sequenceExtent } from '../src/cascade/reader/parse.js'
import { CorruptIndexException } from '../src/format/errors.js'
import { DocSet } from '../src/kernels/doc-set.js'
import { openColumns } from '../src/read/open.js'
import type { ColumnsReader } from '../src/read/reader.js'
import { flushColumns } from '../src/write/columns-writer.js'
import { fixChecksum } from './helpers/file-surgery.js'
import { seededRandom } from './helpers/random.js'

const BACKENDS = ['ts', 'wasm'] as const
const FILE = 'v2.oixk'

/** A v2 file of one column `v` with these values (keyword: strings). */
function fileOf(type: string, values: unknown[]): Uint8Array {
  return flushColumns({ fields: [{ name: 'v', type, [type === 'keyword' ? 'facet' : 'column']: true }] }, values.map((v) => ({ v })), { format: 2 })!
}

function valuesOf(bytes: Uint8Array): SequenceView {
  return openColumns(bytes, { backend: 'ts', fileName: FILE }).getColumn('v')!.values
}

/** A copy with `edit` applied and the checksum made valid again. */
function patched(bytes: Uint8Array, edit: (copy: Uint8Array, view: DataView) => void): Uint8Array {
  const copy = bytes.slice()
  edit(copy, new DataView(copy.buffer))
  return fixChecksum(copy)
}

function expectRefused(action: () => unknown, message: string | RegExp): void {
  let thrown: unknown = null
  try { action() } catch (error) { thrown = error }
  expect(thrown, String(message)).toBeInstanceOf(CorruptIndexException)
  if (typeof message === 'string') expect((thrown as Error).message).toBe(`${FILE}: ${message}`)
  else expect((thrown as Error).message).toMatch(message)
}

const open = (bytes: Uint8Array, backend: 'ts' | 'wasm'): ColumnsReader => openColumns(bytes, { backend, fileName: FILE })

// Data for each structure: few wide values (dictionary form), long runs (runs form), decimals (decimal form), block kinds.
const wide = (i: number) => ((i * 2654435761) % 1_000_000_007) * 1000 + i
const dictionaryValues = Array.from({ length: 4096 }, (_, i) => wide(i % 7 === 0 ? i % 200 : i % 5))
const runValues = Array.from({ length: 10_240 }, (_, i) => Math.floor(i / 2000) * 1_000_000_007)
const decimalValues = Array.from({ length: 3000 }, (_, i) => (i === 10 ? NaN : i === 20 ? -0 : (i * 37 % 1000) / 100))
const frequentValues = Array.from({ length: 2048 }, (_, i) => (i % 100 === 7 ? 123_456_789 + i : 42))

describe.each(BACKENDS)('format 2 corruption at open (%s)', (backend) => {
  it('an unknown sequence form', () => {
    const bytes = fileOf('integral', frequentValues)
    const [start] = sequenceExtent(valuesOf(bytes))
    expectRefused(() => open(patched(bytes, (b) => { b[start] = 7 }), backend), 'values of field "v": unknown sequence form 7 (4 forms: blocks, dictionary, runs, decimal)')
  })

  it('a block kind v2 does not have (v1\'s table, 2) and one beyond 7', () => {
    const bytes = fileOf('integral', frequentValues)
    const [start] = sequenceExtent(valuesOf(bytes))
    expectRefused(() => open(patched(bytes, (b) => { b[start + 13] = 2 }), backend), 'values of field "v": block 0: unknown block kind 2')
    expectRefused(() => open(patched(bytes, (b) => { b[start + 13] = 8 }), backend), 'values of field "v": block 0: unknown block kind 8')
  })

  it('a frequent block whose positions flag disagrees with the size rule', () => {
    const bytes = fileOf('integral', frequentValues)
    const view = valuesOf(bytes)
    expect(view.records[0] & 0xff).toBe(5)
    const [start] = sequenceExtent(view)
    expectRefused(() => open(patched(bytes, (b) => { b[start + 13 + 3] ^= 0x04 }), backend),
      'values of field "v": block 0: positions as a bitmap, but the list is smaller')
  })

  it('a dictionary sequence with order 2, and with no entries', () => {
    const bytes = fileOf('integral', dictionaryValues)
    const view = valuesOf(bytes)
    expect(view.cascade?.form).toBe(1)
    const [start] = sequenceExtent(view)
    expectRefused(() => open(patched(bytes, (b) => { b[start + 1] = 2 }), backend), 'values of field "v": dictionary order 2 is not 0 or 1')
    expectRefused(() => open(patched(bytes, (_b, d) => { d.setUint32(start + 7, 0, true) }), backend), 'values of field "v": dictionary of 0 entries for 4096 values (1..2048)')
    // More entries than half the values: no flush writes that, and an open decoded (the TypeScript
    // backend kept) every entry a count in the file asked for, 8 bytes each (a 6 MB file took 1 GiB).
    expectRefused(() => open(patched(bytes, (_b, d) => { d.setUint32(start + 7, 2049, true) }), backend), 'values of field "v": dictionary of 2049 entries for 4096 values (1..2048)')
    expect(view.cascade?.form === 1 && view.cascade.entries.count).toBe(200)
  })

  it('an unknown keyword dictionary form, and a dictionary entry that is no ordinal', () => {
    const terms = ['a', 'b', 'c']
    const bytes = fileOf('keyword', dictionaryValues.map((v) => terms[v % 3]))
    const column = openColumns(bytes, { backend: 'ts' }).getColumn('v')!
    expectRefused(() => open(patched(bytes, (b) => { b[column.sectionOffset] = 6 }), backend),
      'dictionary of field "v": unknown dictionary form 6 (6 forms: v1, plain, fsst, front, front-fsst, digits)')
    const view = column.values
    if (view.cascade?.form === 1) {
      // The entries' one block is a frame block: raise its base past the three terms.
      const [entriesStart] = sequenceExtent(view.cascade.entries)
      expectRefused(() => open(patched(bytes, (b) => { b[entriesStart + 13 + 8] += 3 }), backend), /dictionary entry \d is \d, not an ordinal in \[0, 3\)/)
    }
  })

  it('runs: a checkpoint that names the wrong run, and starts that do not increase', () => {
    const bytes = fileOf('integral', runValues)
    const view = valuesOf(bytes)
    expect(view.cascade?.form).toBe(2)
    const [start] = sequenceExtent(view)
    // Checkpoint 3 (value 3072) is run 1; naming run 2 breaks the rule, not the order.
    expectRefused(() => open(patched(bytes, (_b, d) => { d.setUint32(start + 9 + 12, 2, true) }), backend),
      'values of field "v": checkpoint 3 names run 2, which does not hold value 3072')
    const starts = view.cascade!.form === 2 ? view.cascade!.starts : view
    const [startsStart] = sequenceExtent(starts)
    expectRefused(() => open(patched(bytes, (b) => { b[startsStart + 13 + 8] += 5 }), backend),
      'values of field "v": run 0 starts at 5: starts are 0, then strictly increasing below 10240')
  })

  it('runs: checkpoint 0 is run 0, and every checkpoint stays below the run count', () => {
    const bytes = fileOf('integral', runValues)
    const view = valuesOf(bytes)
    expect(view.cascade?.form === 2 && view.cascade.runCount).toBe(6)
    const [start] = sequenceExtent(view)
    const checkpoint = (index: number, run: number) => patched(bytes, (_b, d) => { d.setUint32(start + 9 + 4 * index, run, true) })
    expectRefused(() => open(checkpoint(0, 1), backend), 'values of field "v": checkpoint 0 is run 1, not 0')
    // More runs than half the values: no flush writes that (runs form needs 2r ≤ count).
    expectRefused(() => open(patched(bytes, (_b, d) => { d.setUint32(start + 5, 5121, true) }), backend), 'values of field "v": 5121 runs for 10240 values (1..5120)')
    // Checkpoint 9 (value 9216) is run 4: run 5 is in range but does not hold it; run 6 is past the runs.
    // Checkpoint 5 (value 5120) is run 2, as checkpoint 4: run 1 goes back.
    expectRefused(() => open(checkpoint(9, 5), backend), 'values of field "v": checkpoint 9 names run 5, which does not hold value 9216')
    expectRefused(() => open(checkpoint(9, 6), backend), 'values of field "v": checkpoint 9 is run 6: checkpoints never decrease and stay below 6')
    expectRefused(() => open(checkpoint(5, 1), backend), 'values of field "v": checkpoint 5 is run 1: checkpoints never decrease and stay below 6')
  })

  it('decimal: an exponent above 18, and exception positions out of order', () => {
    const bytes = fileOf('fractional', decimalValues)
    const view = valuesOf(bytes)
    expect(view.cascade?.form).toBe(3)
    const [start] = sequenceExtent(view)
    expectRefused(() => open(patched(bytes, (b) => { b[start + 1] = 19 }), backend), 'values of field "v": decimal exponent 19 above 18')
    expectRefused(() => open(patched(bytes, (_b, d) => { d.setUint32(start + 14, 10, true) }), backend),
      'values of field "v": exception 1 at value 10: positions increase strictly and stay below 3000')
  })

  it('decimal: exponent 18 and an exception at the last value open; an exception at the count does not', () => {
    const bytes = fileOf('fractional', decimalValues)
    const view = valuesOf(bytes)
    const [start] = sequenceExtent(view)
    expect(bytes[start + 1]).toBe(2)
    // Value 1 is 0.37: n = 37 at exponent 2, 37 / 10^18 at exponent 18.
    expect(open(patched(bytes, (b) => { b[start + 1] = 18 }), backend).getColumn('v')!.getFloat64(1)).toBe(37 / 1e18)
    // Exception 1 (the -0 at value 20) moved to the last value.
    expect(Object.is(open(patched(bytes, (_b, d) => { d.setUint32(start + 14, 2999, true) }), backend).getColumn('v')!.getFloat64(2999), -0)).toBe(true)
    expectRefused(() => open(patched(bytes, (_b, d) => { d.setUint32(start + 14, 3000, true) }), backend),
      'values of field "v": exception 1 at value 3000: positions increase strictly and stay below 3000')
  })
})

describe.each(BACKENDS)('format 2 corruption when read, and by the full check (%s)', (backend) => {
  it('a sequence dictionary code beyond its entries is refused when read', () => {
    const bytes = fileOf('integral', dictionaryValues)
    const view = valuesOf(bytes)
    const codes = view.cascade!.form === 1 ? view.cascade!.codes : view
    const [codesStart] = sequenceExtent(codes)
    // Block 0 of the codes: raise its base by 200, past the 200 entries, for every value of the block.
    const reader = open(patched(bytes, (b) => { b[codesStart + 13 + 8] += 200 }), backend)
    expectRefused(() => reader.getColumn('v')!.getInt64(0), /value 0 has dictionary code 2\d\d, beyond its 200 entries/)
    // A filter over the codes (one value: a span of one code) refuses them too, rather than matching none.
    expectRefused(() => reader.getColumn('v')!.rangeFilter(dictionaryValues[1], dictionaryValues[1]), /has dictionary code 2\d\d, beyond its 200 entries/)
    // A range whose entries lie apart in code order (codes looked up in a table of members, in TypeScript) too.
    const sorted = Array.from({ length: 200 }, (_, i) => wide(i)).sort((a, b) => a - b)
    expectRefused(() => reader.getColumn('v')!.rangeFilter(sorted[0], sorted[100]), /has dictionary code 2\d\d, beyond its 200 entries/)
    // An aggregate (codes counted, entries added count times) refuses them with the same words.
    expectRefused(() => reader.getColumn('v')!.aggregate(), /value 0 has dictionary code 2\d\d, beyond its 200 entries/)
    // Codes of 2^31 and more (an int32 below zero) are refused by bulk reads too, not taken as entries.
    const huge = open(patched(bytes, (b) => { b[codesStart + 13 + 8 + 3] |= 0x80 }), backend)
    expectRefused(() => huge.getColumn('v')!.readValues(0, new BigInt64Array(4096)), /value 0 has dictionary code 21474\d+, beyond its 200 entries/)
    // A base of -1 (every byte 0xff): negative codes, refused by bulk reads and named whole, as unsigned.
    const negative = open(patched(bytes, (b) => { b.fill(0xff, codesStart + 13 + 8, codesStart + 13 + 16) }), backend)
    expectRefused(() => negative.getColumn('v')!.readValues(0, new BigInt64Array(4096)), /value 0 has dictionary code 18446744073709551615, beyond its 200 entries/)
  })

  it('a frequent codes block whose top code is exactly the entry count is refused, not read one entry past', () => {
    // Block 0 mostly entry 0 (code 0, the top value of a frequent block), later blocks every entry.
    const values = Array.from({ length: 4096 }, (_, i) => wide(i < 1024 ? (i % 97 === 5 ? 1 + (i % 13) : 0) : i % 200))
    const bytes = fileOf('integral', values)
    const codes = (valuesOf(bytes).cascade as { codes: SequenceView }).codes
    const blocks = (codes.cascade as unknown as { blocks: SequenceView }).blocks
    expect(blocks.records[0] & 0xff).toBe(5)
    const [codesStart] = sequenceExtent(codes)
    const at = codesStart + 13 + 8
    expect(new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(at, true)).toBe(0n)
    const reader = open(patched(bytes, (_b, d) => { d.setBigUint64(at, 200n, true) }), backend)
    const message = /value 0 has dictionary code 200, beyond its 200 entries/
    expectRefused(() => reader.getColumn('v')!.readValues(0, new BigInt64Array(4096)), message)
    expectRefused(() => reader.getColumn('v')!.readValues(0, new Float64Array(1024)), message)
    expectRefused(() => reader.getColumn('v')!.getInt64(0), message)
  })

  it('codes of a whole patched block pushed past the entries are refused by facets, not counted', () => {
    // Codes by frequency, a third of them patched (a bitmap): the shape flights' keyword columns take.
    const terms = Array.from({ length: 300 }, (_, t) => `t${String(t).padStart(3, '0')}`)
    const random = seededRandom(0x5eed)
    const values = Array.from({ length: 8192 }, () => terms[(Math.floor(random() ** 3 * 300) * 137) % 300])
    const bytes = fileOf('keyword', values)
    const codes = (valuesOf(bytes).cascade as { codes: SequenceView }).codes
    const blocks = (codes.cascade as unknown as { blocks: SequenceView }).blocks
    const word = blocks.records[0]
    expect([word & 0xff, (word >>> 16) & 1024, (word >>> 16 & 1023) > 64]).toEqual([6, 0, true])
    const [codesStart] = sequenceExtent(codes)
    // Block 0's base raised by 2^20, far past the entries (and past any slack of a counting area), for every value of the block.
    const reader = open(patched(bytes, (_b, d) => { d.setUint32(codesStart + 13 + 8, d.getUint32(codesStart + 13 + 8, true) + 2 ** 20, true) }), backend)
    const column = reader.getColumn('v')!
    expectRefused(() => column.facetCounts(), /value 0 has dictionary code \d+, beyond its 300 entries/)
    // Only block 1 selected: nothing out of range is counted, and the answer is block 1's.
    const later = reader.createDocSet()
    for (let d = 1024; d < 2048; d++) later.add(d)
    const expected = new Uint32Array(column.dictionary!.termCount)
    for (let d = 1024; d < 2048; d++) expected[column.lookupOrdinal(values[d])]++
    expect([...column.facetCounts(later)]).toEqual([...expected])
  })

  it('a keyword ordinal beyond the dictionary in a frequent block is refused by a facet that counts it, not by one that skips it', () => {
    const values = Array.from({ length: 4096 }, (_, i) => (i % 50 === 7 ? 'c' : i % 97 === 3 ? 'b' : 'a'))
    const bytes = fileOf('keyword', values)
    const view = valuesOf(bytes)
    expect(view.cascade?.form).toBe(0)
    const [start] = sequenceExtent(view)
    // Block 2's record: kind 5 (frequent); its aux (the least exception, ordinal 1) raised by 2, to 3 and 4 (the first just past the three terms).
    const record = start + 13 + 2 * 24
    expect(bytes[record]).toBe(5)
    const reader = open(patched(bytes, (b) => { b[record + 16] += 2 }), backend)
    const column = reader.getColumn('v')!
    expectRefused(() => column.facetCounts(), /value 2\d\d\d is [34], not in \[0, 3\)/)
    // A DocSet of block 2's documents holding 'a' alone: nothing out of range is counted.
    const quiet = reader.createDocSet()
    for (let d = 2048; d < 3072; d++) if (values[d] === 'a') quiet.add(d)
    expect([...column.facetCounts(quiet)]).toEqual([quiet.count(), 0, 0])
  })

  it('a keyword ordinal beyond the dictionary in a run sequence\'s run values is refused by a facet that counts its run, not by one that skips it', () => {
    const values = Array.from({ length: 4500 }, (_, i) => ['a', 'b', 'c'][Math.floor(i / 1500)])
    const bytes = fileOf('keyword', values)
    const runs = valuesOf(bytes).cascade as unknown as { form: number; values: SequenceView }
    expect(runs.form).toBe(2)
    // The run values' one block (linear: 0, 1, 2): its base (at byte 8 of the record) raised by 1, so that the runs hold ordinals 1, 2 and 3.
    const [start] = sequenceExtent(runs.values)
    const record = start + 13
    expect(bytes[record]).toBe(7)
    const reader = open(patched(bytes, (b) => { b[record + 8] += 1 }), backend)
    const column = reader.getColumn('v')!
    expectRefused(() => column.facetCounts(), 'values of field "v": value 3000 is 3, not in [0, 3)')
    const before = DocSet.fromDocuments(reader, Array.from({ length: 3000 }, (_, d) => d).filter((d) => d % 3 !== 1))
    expect([...column.facetCounts(before)]).toEqual([0, 1000, 1000])
  })

  it('a patch whose high part is 0 (so its value is its low field) is matched by term filters as reads give it', () => {
    // Eight frequent terms apart (a dictionary by frequency: codes 0-7, 3 low bits) and rare ones patched above them, in a list.
    const terms = Array.from({ length: 40 }, (_, t) => `t${String(t).padStart(2, '0')}`)
    const values = Array.from({ length: 2048 }, (_, i) => terms[i % 53 === 50 ? 8 + (i % 32) : [3, 17, 25, 30, 31, 36, 38, 39][(i * 5) % 8]])
    const bytes = fileOf('keyword', values)
    const blocks = (valuesOf(bytes).cascade as { codes: SequenceView }).codes.cascade as unknown as { blocks: SequenceView }
    const view = blocks.blocks, word = view.records[0], n = 1024
    expect(word & 0xff).toBe(6)
    const lw = (word >>> 8) & 0xff, e = (word >>> 16) & 1023, list = ((word >>> 16) & 1024) !== 0
    expect([lw, list]).toEqual([3, true])
    const data = view.dataStart + view.records[1], positionWidth = 10
    const highsAt = data + 1 + Math.ceil((n * lw) / 8) + Math.ceil((e * positionWidth) / 8)
    const highWidth = bytes[data]
    const reader = open(patched(bytes, (b) => { b[highsAt] &= ~((1 << highWidth) - 1) }), backend)
    const column = reader.getColumn('v')!
    const ordinals = Array.from({ length: values.length }, (_, d) => column.getOrdinal(d))
    // The first patch now reads as a frequent term: one document fewer holds a rare one.
    const frequent = new Set([3, 17, 25, 30, 31, 36, 38, 39].map((t) => column.lookupOrdinal(terms[t])))
    expect(ordinals.filter((ordinal) => !frequent.has(ordinal)).length).toBe(values.filter((v) => !frequent.has(column.lookupOrdinal(v))).length - 1)
    for (const term of new Set(values)) {
      const ordinal = column.lookupOrdinal(term)
      using docs = column.termFilter(term)
      expect([...docs.toArray()], term).toEqual(ordinals.flatMap((o, d) => (o === ordinal ? [d] : [])))
    }
  })

  it('patch positions open does not check (a list out of order, a bitmap of more or fewer than e bits) are matched by term filters as reads give them; a code past k is refused', () => {
    // Frequent terms apart (codes 0-7 by frequency, 3 low bits) and rare ones patched above them:
    // one patch in 53 (a list) or in 3 (a bitmap).
    const terms = Array.from({ length: 40 }, (_, t) => `t${String(t).padStart(2, '0')}`)
    const frequent = [3, 17, 25, 30, 31, 36, 38, 39]
    // Positions of a list: 10-bit fields, least significant bit first.
    const positionOf = (b: Uint8Array, at: number, rank: number) => {
      let value = 0
      for (let bit = 0; bit < 10; bit++) if (b[at + ((rank * 10 + bit) >>> 3)] & (1 << ((rank * 10 + bit) & 7))) value |= 1 << bit
      return value
    }
    const setPosition = (b: Uint8Array, at: number, rank: number, value: number) => {
      for (let bit = 0; bit < 10; bit++) {
        const byte = at + ((rank * 10 + bit) >>> 3), mask = 1 << ((rank * 10 + bit) & 7)
        b[byte] = (value >>> bit) & 1 ? b[byte] | mask : b[byte] & ~mask
      }
    }
    const rare = terms.filter((_, t) => !frequent.includes(t))
    // Every term used: k = 40, so the largest code a patch can give (4 × 8 + 7) is below k.
    const valuesEvery = (period: number) => Array.from({ length: 2048 }, (_, i) => (i % period === 1 ? rare[i % 32] : terms[frequent[(i * 5) % 8]]))
    const cases: [string, number, boolean, (b: Uint8Array, positions: number, e: number) => void][] = [
      // The second position repeats the first; the fourth goes back to 1.
      ['list out of order', 53, true, (b, positions) => {
        setPosition(b, positions, 1, positionOf(b, positions, 0))
        setPosition(b, positions, 3, 1)
      }],
      // Bits set past the e-th, after the last patch (1,021): they name no patch. Then that patch's bit cleared (e - 1 bits).
      // The high parts' unused last bits set too: a kernel that took bit 1,022 for a patch would read them.
      ['bitmap with more bits', 3, false, (b, positions, e) => {
        b[positions + 127] |= 0xc0
        b[positions + 128 + ((3 * e) >>> 3)] |= (0xff << ((3 * e) & 7)) & 0xff
      }],
      ['bitmap with fewer bits', 3, false, (b, positions) => { b[positions + 127] &= ~0x20 }],
    ]
    for (const [name, period, list, edit] of cases) {
      const values = valuesEvery(period)
      const bytes = fileOf('keyword', values)
      const view = ((valuesOf(bytes).cascade as { codes: SequenceView }).codes.cascade as unknown as { blocks: SequenceView }).blocks
      const word = view.records[0]
      expect([word & 0xff, (word >>> 8) & 0xff, ((word >>> 16) & 1024) !== 0], name).toEqual([6, 3, list])
      const positions = view.dataStart + view.records[1] + 1 + Math.ceil((1024 * 3) / 8)
      expect(list || (3 * ((word >>> 16) & 1023)) % 8 !== 0, `${name}: the high parts end inside a byte`).toBe(true)
      const corrupt = patched(bytes, (b) => edit(b, positions, (word >>> 16) & 1023))
      expect(corrupt, name).not.toEqual(bytes)
      const reader = open(corrupt, backend)
      const column = reader.getColumn('v')!
      expect(column.dictionary!.termCount).toBe(40)
      const ordinals = Array.from({ length: values.length }, (_, d) => column.getOrdinal(d))
      for (const term of new Set(values)) {
        const ordinal = column.lookupOrdinal(term)
        using docs = column.termFilter(term)
        expect([...docs.toArray()], `${name}: ${term}`).toEqual(ordinals.flatMap((o, d) => (o === ordinal ? [d] : [])))
      }
      // A facet over few documents a block (each value read from its fields), the block's last four among them.
      const few = Array.from({ length: values.length }, (_, d) => d).filter((d) => d % 9 === 0 || (d >= 1020 && d < 1024))
      const expected = new Array<number>(40).fill(0)
      for (const d of few) expected[ordinals[d]]++
      using selected = DocSet.fromDocuments(reader, few)
      expect([...column.facetCounts(selected)], `${name}: facet`).toEqual(expected)
      reader.close()
    }
    // A high part that makes a code of k or more: a term filter, even for a frequent term below
    // every patch, refuses the file as a read of that value does.
    const values = valuesEvery(3)
    const bytes = fileOf('keyword', values)
    const view = ((valuesOf(bytes).cascade as { codes: SequenceView }).codes.cascade as unknown as { blocks: SequenceView }).blocks
    const highsAt = view.dataStart + view.records[1] + 1 + Math.ceil((1024 * 3) / 8) + 128
    const reader = open(patched(bytes, (b) => { b[highsAt] |= 7 }), backend)
    const column = reader.getColumn('v')!
    const message = /value 1 has dictionary code (5[6-9]|6[0-3]), beyond its 40 entries/
    expectRefused(() => column.getOrdinal(1), message)
    expectRefused(() => column.termFilter(terms[frequent[0]]), message)
    // A facet over few documents refuses it when value 1 is selected, and counts the others.
    expectRefused(() => column.facetCounts(DocSet.fromDocuments(reader, [1, 5, 9])), message)
    const others = [4, 7, 700]
    const counts = new Array<number>(40).fill(0)
    for (const d of others) counts[column.getOrdinal(d)]++
    expect([...column.facetCounts(DocSet.fromDocuments(reader, others))]).toEqual(counts)
    reader.close()
  })

  it('a valid but not canonical choice (the dictionary order byte, where both orders give the same codes) fails the full check only', () => {
    // Equal counts: the frequency order is the ascending one, and a flush writes order 0 (the tie's winner).
    const values = Array.from({ length: 4096 }, (_, i) => [1_000_000_007, 5, 77_777_777_777, 9][i % 4])
    const bytes = fileOf('integral', values)
    const view = valuesOf(bytes)
    expect(view.cascade?.form === 1 && view.cascade.order).toBe(0)
    const [start] = sequenceExtent(view)
    const reader = open(patched(bytes, (b) => { b[start + 1] = 1 }), backend)
    expect(reader.getColumn('v')!.getInt64(4095)).toBe(9)
    expectRefused(() => reader.verify(), 'values of field "v": not the encoding a flush writes: its ' + (sequenceExtent(view)[1] - start)
      + ' bytes differ from a flush\'s ' + (sequenceExtent(view)[1] - start) + ' at byte 1 (stored form dictionary; a flush writes form dictionary)')
  })
})
