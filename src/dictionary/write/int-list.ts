/**
 * Writes an integer list of a keyword dictionary (term lengths, code lengths,
 * shared-prefix lengths): fields of one width (small lists: no sequence header)
 * or a v2 integer sequence (the cascade pool), whichever is smaller, ties to
 * the fields.
 */
import { bitsOf, bytesFor, FieldWriter } from '../../cascade/bits.js'
import { writeSequenceV2 } from '../../cascade/sequence-writer.js'
import { ByteSink } from '../../write/byte-sink.js'
import { ListTag } from '../constants.js'

const fields = new FieldWriter()

/** Appends the list of `values` (non-negative integers below 2^32) to sink. */
export function writeIntList(values: ArrayLike<number>, sink: ByteSink): void {
  const count = values.length
  let max = 0
  for (let index = 0; index < count; index++) if (values[index] > max) max = values[index]
  const width = bitsOf(max)
  const packedBytes = 2 + bytesFor(count * width)
  const words = new Int32Array(2 * count)
  for (let index = 0; index < count; index++) words[2 * index] = values[index]
  const sequence = new ByteSink(64)
  sequence.writeUint8(ListTag.sequence)
  writeSequenceV2(words, count, sequence, 'integer')
  // Fields are at most 31 bits wide (a reader unpacks them as int32).
  if (sequence.length < packedBytes || width > 31) {
    sink.writeBytes(sequence.view())
    return
  }
  sink.writeUint8(ListTag.packed)
  sink.writeUint8(width)
  fields.begin(packedBytes)
  for (let index = 0; index < count; index++) fields.write(values[index], width)
  sink.writeBytes(fields.view())
}
