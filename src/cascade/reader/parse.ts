/**
 * Parses and validates a v2 sequence at open: its form byte, its header, its
 * child sequences (each a BLOCKS sequence, or for a decimal sequence any
 * integer form), checkpoints and exception positions. The values of children
 * that other reads depend on (run starts, dictionary entries of ordinals) are
 * checked by the caller, which has the backend to read them.
 */
import type { Cascade, ResidentFile, SequenceView } from '../../backend/backend.js'
import { BLOCK_VALUES } from '../../format/constants.js'
import { failCorrupt } from '../../format/errors.js'
import { readUint32 } from '../../format/int64.js'
import { parseSequence } from '../../read/sequence-parser.js'
import { CHECKPOINT_VALUES, DictionaryOrder, Form, FORM_NAMES, MAX_EXPONENT } from '../constants.js'

/** Which forms a sequence may take: doubles may be decimal. */
export type SequenceDomain = 'integer' | 'double'

/** A parsed v2 sequence and the offset after it. */
export interface ParsedCascade {
  view: SequenceView
  end: number
}

/** Shared by every CascadeView: an empty array cannot change. */
const NO_RECORDS = new Int32Array(0)

/** A v2 sequence of a form other than blocks: no records of its own; reads go through `cascade`. */
class CascadeView implements SequenceView {
  readonly records = NO_RECORDS
  readonly blockCount: number
  readonly dataLength = 0
  readonly dataStartInBuffer: number
  constructor(
    readonly file: ResidentFile, readonly bytes: Uint8Array, readonly fileName: string, readonly label: string,
    readonly count: number, readonly recordsStart: number, readonly bufferWords: Int32Array, readonly cascade: Cascade,
    /** File offset right after the sequence. */
    readonly nodeEnd: number,
  ) {
    this.blockCount = Math.ceil(count / BLOCK_VALUES)
    this.dataStartInBuffer = bytes.byteOffset + recordsStart
  }

  get dataStart(): number {
    return this.recordsStart
  }
}

/** File offsets [start, end) of a v2 sequence: its form byte to its last byte. */
export function sequenceExtent(view: SequenceView): [number, number] {
  if (view instanceof CascadeView) return [view.recordsStart, view.nodeEnd]
  return [view.recordsStart - 13, view.dataStart + view.dataLength]
}

/** A child of a dictionary or run sequence at `at`: a blocks sequence of `count` values. */
function parseChild(
  file: ResidentFile, bufferWords: Int32Array, fileName: string, label: string, limit: number, at: number, what: string, count: number,
): ParsedCascade {
  const bytes = file.bytes
  if (at + 1 > limit) failCorrupt(fileName, label, `${what}: sequence runs past the end of its section`)
  if (bytes[at] !== Form.blocks) failCorrupt(fileName, label, `${what}: form ${bytes[at]}, but it must be blocks (0)`)
  return parseCascade(file, bufferWords, fileName, `${label} (${what})`, at, limit, count, 'integer', false)
}

/**
 * Parses the v2 sequence at `offset` (ending by `limit`) of `expectedCount` values. `children`
 * is false for the children of dictionary and run sequences, which must be blocks.
 */
export function parseCascade(
  file: ResidentFile, bufferWords: Int32Array, fileName: string, label: string, offset: number, limit: number,
  expectedCount: number, domain: SequenceDomain, children = true,
): ParsedCascade {
  const bytes = file.bytes
  if (offset + 1 > limit) failCorrupt(fileName, label, 'sequence form byte runs past the end of its section')
  const form = bytes[offset]
  switch (form) {
    case Form.blocks: {
      const parsed = parseSequence(file, bufferWords, fileName, label, offset + 1, limit, expectedCount, 2)
      if (parsed.cascadeKinds) (parsed.view as { cascade: Cascade | null }).cascade = { form: 0, start: offset, count: expectedCount, blocks: parsed.view }
      return { view: parsed.view, end: parsed.end }
    }
    case Form.dictionary: {
      if (!children) failCorrupt(fileName, label, 'a dictionary sequence inside another is not allowed')
      if (offset + 6 > limit) failCorrupt(fileName, label, 'dictionary header runs past the end of its section')
      const order = bytes[offset + 1]
      const count = readUint32(bytes, offset + 2)
      if (order !== DictionaryOrder.ascending && order !== DictionaryOrder.frequency) failCorrupt(fileName, label, `dictionary order ${order} is not 0 or 1`)
      if (count !== expectedCount) failCorrupt(fileName, label, `sequence holds ${count} values, expected ${expectedCount}`)
      const entryCount = offset + 11 <= limit ? readUint32(bytes, offset + 7) : 0
      // A flush writes a dictionary for at most half as many distinct values as values (§5): a larger
      // count would only make the open decode (and the TypeScript backend keep) more entries.
      if (entryCount < 1 || 2 * entryCount > count) failCorrupt(fileName, label, `dictionary of ${entryCount} entries for ${count} values (1..${Math.floor(count / 2)})`)
      const entries = parseChild(file, bufferWords, fileName, label, limit, offset + 6, 'entries', entryCount)
      const codes = parseChild(file, bufferWords, fileName, label, limit, entries.end, 'codes', count)
      const cascade: Cascade = { form: 1, start: offset, count, order, entries: entries.view, codes: codes.view, entryWords: null }
      return { view: new CascadeView(file, bytes, fileName, label, count, offset, bufferWords, cascade, codes.end), end: codes.end }
    }
    case Form.runs: {
      if (!children) failCorrupt(fileName, label, 'a run sequence inside another is not allowed')
      if (offset + 9 > limit) failCorrupt(fileName, label, 'runs header runs past the end of its section')
      const count = readUint32(bytes, offset + 1)
      const runCount = readUint32(bytes, offset + 5)
      if (count !== expectedCount) failCorrupt(fileName, label, `sequence holds ${count} values, expected ${expectedCount}`)
      if (runCount < 1 || 2 * runCount > count) failCorrupt(fileName, label, `${runCount} runs for ${count} values (1..${Math.floor(count / 2)})`)
      const checkpoints = Math.ceil(count / CHECKPOINT_VALUES)
      const checkpointsStart = offset + 9
      if (checkpointsStart + 4 * checkpoints > limit) failCorrupt(fileName, label, `${checkpoints} checkpoints run past the end of the section`)
      let previous = 0
      for (let index = 0; index < checkpoints; index++) {
        const run = readUint32(bytes, checkpointsStart + 4 * index)
        if (index === 0 && run !== 0) failCorrupt(fileName, label, `checkpoint 0 is run ${run}, not 0`)
        if (run < previous || run >= runCount) failCorrupt(fileName, label, `checkpoint ${index} is run ${run}: checkpoints never decrease and stay below ${runCount}`)
        previous = run
      }
      const values = parseChild(file, bufferWords, fileName, label, limit, checkpointsStart + 4 * checkpoints, 'run values', runCount)
      const starts = parseChild(file, bufferWords, fileName, label, limit, values.end, 'run starts', runCount)
      const cascade: Cascade = { form: 2, start: offset, count, runCount, checkpointsStart, values: values.view, starts: starts.view, runNumbers: null }
      return { view: new CascadeView(file, bytes, fileName, label, count, offset, bufferWords, cascade, starts.end), end: starts.end }
    }
    case Form.decimal: {
      if (domain !== 'double') failCorrupt(fileName, label, 'a decimal sequence holds doubles; this one holds integers')
      if (offset + 10 > limit) failCorrupt(fileName, label, 'decimal header runs past the end of its section')
      const exponent = bytes[offset + 1]
      const count = readUint32(bytes, offset + 2)
      const exceptionCount = readUint32(bytes, offset + 6)
      if (exponent > MAX_EXPONENT) failCorrupt(fileName, label, `decimal exponent ${exponent} above ${MAX_EXPONENT}`)
      if (count !== expectedCount) failCorrupt(fileName, label, `sequence holds ${count} values, expected ${expectedCount}`)
      if (exceptionCount > count) failCorrupt(fileName, label, `${exceptionCount} exceptions for ${count} values`)
      const positionsStart = offset + 10
      const exceptionsStart = positionsStart + 4 * exceptionCount
      const integersStart = exceptionsStart + 8 * exceptionCount
      if (integersStart > limit) failCorrupt(fileName, label, `${exceptionCount} exceptions run past the end of the section`)
      for (let index = 0, previous = -1; index < exceptionCount; index++) {
        const position = readUint32(bytes, positionsStart + 4 * index)
        if (position <= previous || position >= count) failCorrupt(fileName, label, `exception ${index} at value ${position}: positions increase strictly and stay below ${count}`)
        previous = position
      }
      if (integersStart + 1 > limit) failCorrupt(fileName, label, 'integers: sequence runs past the end of its section')
      if (bytes[integersStart] === Form.decimal) failCorrupt(fileName, label, 'integers: a decimal sequence inside another is not allowed')
      const integers = parseCascade(file, bufferWords, fileName, `${label} (integers)`, integersStart, limit, count, 'integer', true)
      const cascade: Cascade = { form: 3, start: offset, count, exponent, exceptionCount, positionsStart, exceptionsStart, integers: integers.view }
      return { view: new CascadeView(file, bytes, fileName, label, count, offset, bufferWords, cascade, integers.end), end: integers.end }
    }
    default:
      return failCorrupt(fileName, label, `unknown sequence form ${form} (${FORM_NAMES.length} forms: ${FORM_NAMES.join(', ')})`)
  }
}
