/**
 * Prints the worked examples of docs/format-v2.md §9 from the writer: for each
 * block kind, a small block's values, its record and its data bytes; for each
 * sequence form, a sequence's bytes by part. `node --import tsx scripts/format-v2-examples.ts`.
 * With the argument `dictionaries`, those of §10 instead: small keyword
 * dictionaries, each form's size and the bytes of some forms by part.
 */
import { encodeBlock } from '../src/cascade/block-pool.js'
import { BlockRecord } from '../src/cascade/blocks/record.js'
import { KIND_NAMES } from '../src/cascade/constants.js'
import { writeSequenceV2 } from '../src/cascade/sequence-writer.js'
import { ByteSink } from '../src/write/byte-sink.js'
import { parseCascade, sequenceExtent } from '../src/cascade/reader/parse.js'
import { signature, summarize } from '../src/cascade/describe.js'
import { DICTIONARY_FORM_NAMES } from '../src/dictionary/constants.js'
import { encodeAllForms, encodeDictionary } from '../src/dictionary/write/choose.js'

const hex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join(' ')
const wordsOf = (values: bigint[]) => new Int32Array(BigInt64Array.from(values).buffer)
const i64 = (low: number, high: number) => (BigInt(high) << 32n) | BigInt(low >>> 0)

/** §9: block kinds and sequence forms. */
function cascadeExamples(): void {
  const blocks: [string, bigint[]][] = [
    ['constant', [7n, 7n, 7n, 7n]],
    ['frame', [10n, 13n, 11n, 15n]],
    ['dictionary', [1, 5, 9, 5, 1, 1, 9, 5, 5, 1, 9, 9].map((m) => BigInt(m) * 1_000_000n + BigInt(m * m))],
    ['runs', [...Array(20).fill(5n), ...Array(20).fill(9n)]],
    ['frequent', [0n, 0n, 0n, 7n, 0n, 0n, 0n, 0n, 0n, 0n, 1_000_003n, 0n, 0n, 0n, 0n, 0n]],
    ['patched', [1n, 4n, 2n, 6n, 3n, 5n, 1n, 1_000_000n, 2n, 4n, 3n, 6n, 5n, 2n, 1n, 3n]],
    ['linear', [100n, 203n, 301n, 405n, 500n, 602n, 699n, 801n]],
  ]

  console.log('Block kinds (one block each; record fields, then the data bytes in hex):\n')
  for (const [name, values] of blocks) {
    const record = new BlockRecord()
    const data = encodeBlock(wordsOf(values), 0, values.length, record)
    const kind = KIND_NAMES[record.kind]
    if (kind !== name) throw new Error(`${name} came out ${kind}`)
    console.log(`- **${name}** (${values.length} values: ${values.join(', ')})`)
    console.log(`  record: kind ${record.kind}, width ${record.width}, param ${record.param}, base ${i64(record.words[0], record.words[1])}, aux ${i64(record.words[2], record.words[3])}`)
    console.log(`  data (${data.length} bytes): ${data.length === 0 ? '(none)' : hex(data)}\n`)
  }

  const wide = (i: number) => BigInt((i * 2654435761) % 1_000_000_007) * 1000n + BigInt(i)
  const sequences: [string, bigint[] | number[], 'integer' | 'double'][] = [
    ['runs', Array.from({ length: 10_240 }, (_, i) => wide(Math.floor(i / 2560))), 'integer'],
    ['dictionary', Array.from({ length: 4096 }, (_, i) => wide(i % 7 === 0 ? i % 200 : i % 5)), 'integer'],
    ['decimal', [12.5, 0.25, -0, 3.75, NaN, 100], 'double'],
  ]
  console.log('Sequences (summary, then the bytes in hex by part):\n')
  for (const [name, values, domain] of sequences) {
    const words = domain === 'integer' ? wordsOf(values as bigint[]) : (() => {
      const raw = new BigInt64Array(values.length), view = new DataView(new ArrayBuffer(8))
      ;(values as number[]).forEach((x, i) => { view.setFloat64(0, x); const b = view.getBigInt64(0); raw[i] = b ^ ((b >> 63n) & 0x7fffffffffffffffn) })
      return new Int32Array(raw.buffer)
    })()
    const sink = new ByteSink()
    writeSequenceV2(words, values.length, sink, domain)
    const bytes = sink.view()
    const padded = new Uint8Array((bytes.length + 19) & ~3)
    padded.set(bytes)
    const { view } = parseCascade({ bytes: padded, stable: true, address: 0, release() {} }, new Int32Array(padded.buffer), 'example', name, 0, bytes.length, values.length, domain)
    console.log(`- **${name}** (${values.length} values): ${bytes.length} bytes, ${signature(summarize(view, 2))}`)
    const parts: [string, number, number][] = []
    const walk = (node: typeof view, role: string) => {
      const [start, end] = sequenceExtent(node)
      const cascade = node.cascade
      if (cascade === null || cascade.form === 0) {
        parts.push([`${role}: form byte, header, ${node.blockCount} record${node.blockCount === 1 ? '' : 's'}`, start, node.dataStart])
        parts.push([`${role}: data (${node.dataLength} bytes, the last 8 padding)`, node.dataStart, end])
        return
      }
      const children = cascade.form === 1 ? [['entries', cascade.entries], ['codes', cascade.codes]] as const
        : cascade.form === 2 ? [['run values', cascade.values], ['run starts', cascade.starts]] as const : [['integers', cascade.integers]] as const
      parts.push([`${role}: form ${cascade.form} header`, start, sequenceExtent(children[0][1])[0]])
      for (const [childRole, child] of children) walk(child, `${role} / ${childRole}`)
    }
    walk(view, name)
    for (const [what, start, end] of parts) {
      const slice = bytes.subarray(start, end)
      console.log(`  - ${what}: ${slice.length > 64 ? `${hex(slice.subarray(0, 64))} … (${slice.length} bytes)` : hex(slice)}`)
    }
    console.log('')
  }
}

/** The example's pieces of a dictionary form, each a name and a byte range. */
type Part = [string, number, number]

/** §10: small dictionaries, every form's size, and the bytes of the listed forms part by part. */
function dictionaryExamples(): void {
  const examples: [string[], number[]][] = [
    [['apple', 'apply', 'banana'], [0, 1, 3]],
    [['red', 'redder', 'reddest', 'redwood'], [3, 4]],
    [['a-Regional', 'b-Regional', 'c-Regional', 'd-Regional'], [2]],
    [['00501', '02134', '10001'], [1, 5]],
  ]
  const quote = (bytes: Uint8Array) => JSON.stringify(String.fromCharCode(...bytes))
  console.log('Dictionaries (each form\'s size; then the bytes in hex by part of the forms shown):')
  for (const [list, shown] of examples) {
    console.log('')
    const encoded = list.map((term) => new TextEncoder().encode(term))
    const offsets = new Uint32Array(encoded.length + 1)
    encoded.forEach((term, index) => (offsets[index + 1] = offsets[index] + term.length))
    const termBytes = new Uint8Array(offsets[encoded.length])
    encoded.forEach((term, index) => termBytes.set(term, offsets[index]))
    const terms = { bytes: termBytes, offsets }
    const count = list.length
    const forms = encodeAllForms(terms)
    const written = encodeDictionary(terms)
    const sizes = forms.map((form) => `${DICTIONARY_FORM_NAMES[form[0]]} ${form.length}`).join(', ')
    console.log(`- **${list.join(', ')}** (${count} terms, ${offsets[count]} term bytes): ${sizes}; written: ${DICTIONARY_FORM_NAMES[written[0]]}`)
    for (const bytes of forms.filter((form) => shown.includes(form[0]))) {
      const form = bytes[0], parts: Part[] = []
      let at = 0
      const take = (name: string, length: number) => { parts.push([name, at, at + length]); at += length }
      const intList = (name: string): number[] => {
        if (bytes[at] === 0) {
          const width = bytes[at + 1], values: number[] = []
          for (let index = 0; index < count; index++) {
            let value = 0
            for (let bit = 0; bit < width; bit++) {
              const position = 16 + index * width + bit
              value |= ((bytes[at + (position >> 3)] >> (position & 7)) & 1) << bit
            }
            values.push(value)
          }
          take(`${name} (tag 0, width ${width}: ${values.join(', ')})`, 2 + Math.ceil((count * width) / 8))
          return values
        }
        const [shape, end] = sequence(at + 1, name)
        take(`${name} (tag 1, a sequence: ${shape})`, end - at)
        return []
      }
      /** The summary and end of the v2 sequence at `from`. */
      function sequence(from: number, name: string): [string, number] {
        const padded = new Uint8Array((bytes.length + 19) & ~3)
        padded.set(bytes)
        const { view, end } = parseCascade({ bytes: padded, stable: true, address: 0, release() {} }, new Int32Array(padded.buffer), 'example', name, from, bytes.length, count, 'integer')
        return [signature(summarize(view, 2)), end]
      }
      if (form === 0) {
        take('form byte, termCount, totalBytes', 9)
        take(`offsets (${count + 1} × u32)`, 4 * (count + 1))
        take('term bytes', bytes.length - at)
      } else {
        take('header (form, termCount, totalBytes)', 9)
        if (form === 5) {
          take('digit count', 1)
          const [shape, end] = sequence(at, 'integers')
          take(`integers (a sequence: ${shape})`, end - at)
        } else {
          if (form === 3 || form === 4) intList('shared lengths')
          if (form === 2 || form === 4) {
            let symbols = 0, length = 8
            for (let size = 1; size <= 8; size++) symbols += bytes[at + size - 1], length += size * bytes[at + size - 1]
            const names: string[] = []
            for (let size = 1, from = at + 8; size <= 8; size++) {
              for (let left = bytes[at + size - 1]; left > 0; left--, from += size) names.push(`${names.length} ${quote(bytes.subarray(from, from + size))}`)
            }
            take(`symbol table (${symbols} symbol${symbols === 1 ? '' : 's'}: ${names.join(', ')})`, length)
            const lengths = intList('code lengths')
            const start = at
            const groups = lengths.map((codes) => hex(bytes.subarray(at, at += codes)))
            parts.push([`codes, ${form === 2 ? 'term' : 'suffix'} by ${form === 2 ? 'term' : 'suffix'}: ${groups.join(' | ')}`, start, at])
          } else {
            intList(form === 1 ? 'term lengths' : 'suffix lengths')
            take(form === 1 ? 'term bytes' : 'suffix bytes', bytes.length - at)
          }
        }
      }
      if (at !== bytes.length) throw new Error(`form ${form}: parts end at ${at}, not ${bytes.length}`)
      for (const [what, start, end] of parts) {
        // Codes are shown piece by piece in their name.
        console.log(`  - ${DICTIONARY_FORM_NAMES[form]}: ${what}${what.startsWith('codes') ? '' : `: ${hex(bytes.subarray(start, end))}`}`)
      }
    }
  }
}

if (process.argv[2] === 'dictionaries') dictionaryExamples()
else cascadeExamples()
