/**
 * matchAny for the TS backend over a multi column's starts and nonempty bitsets, the mirror of
 * assembly/query-starts.ts (which explains the carries): documents map to their segments of
 * values by compressing bits through one bitset and depositing them through the other, a byte
 * at a time from tables. Streams go a byte at a time here, so every quantity stays in 32 bits.
 */
import type { BitsetMemory } from '../query-kernels.js'

const TWO_32 = 4294967296
let compress: Uint8Array | null = null, deposit: Uint8Array | null = null
const ones = new Uint8Array(256)

/** compress[m << 8 | b]: b's bits at m's set positions packed low; deposit: b's low bits spread to them. */
function prepareTables(): void {
  compress = new Uint8Array(65536)
  deposit = new Uint8Array(65536)
  for (let mask = 0; mask < 256; mask++) {
    let k = 0
    for (let i = 0; i < 8; i++) k += (mask >>> i) & 1
    ones[mask] = k
    for (let bits = 0; bits < 256; bits++) {
      let packed = 0, spread = 0
      for (let i = 0, j = 0; i < 8; i++) {
        if (((mask >>> i) & 1) === 0) continue
        packed |= ((bits >>> i) & 1) << j
        spread |= ((bits >>> j) & 1) << i
        j++
      }
      compress[mask << 8 | bits] = packed
      deposit[mask << 8 | bits] = spread
    }
  }
}

/**
 * QueryKernels.matchAny: with `test`, word w of out = the selected documents 32w.. holding a
 * value whose bit is set (every word of the docCount documents written); without, the selected
 * documents' values set in out (every word of [0, total) written).
 */
export function matchStarts(
  starts: BitsetMemory, nonempty: BitsetMemory, total: number, docCount: number, docs: BitsetMemory | null,
  test: BitsetMemory | null, out: BitsetMemory,
): void {
  if (compress === null) prepareTables()
  const selection = docs === null ? null : docs.words
  if (test !== null) hitsToDocuments(starts.words, nonempty.words, total, docCount, selection, test.words, out.words)
  else documentsToValues(starts.words, nonempty.words, total, docCount, selection, out.words)
}

function hitsToDocuments(
  starts: Int32Array, nonempty: Int32Array, total: number, docCount: number, selection: Int32Array | null,
  test: Int32Array, out: Int32Array,
): void {
  const pack = compress!, spread = deposit!
  const lastValueWord = total >>> 5
  // The value word at hand: its starts and hits, and the byte of it to compress next (4: none left).
  let valueWord = 0, s = 0, h = 0, byte = 4, carry = 0, shifted = 0, exhausted = false
  let acc = 0, fill = 0, first = true
  const docWords = (docCount + 31) >>> 5
  for (let w = 0; w < docWords; w++) {
    const present = nonempty[w]
    let hits = 0
    for (let b = 0; b < 32; b += 8) {
      const mask = (present >>> b) & 0xFF, k = ones[mask]
      while (fill < k) {
        if (byte === 4) {
          if (valueWord <= lastValueWord) {
            s = starts[valueWord]
            const m = test[valueWord] | 0, on = m & s
            const z = (~s >>> 0) + ((m & ~s) >>> 0) + ((on << 1) >>> 0) + shifted + carry
            shifted = on >>> 31
            carry = Math.floor(z / TWO_32)
            h = z & s
          } else exhausted = true
          valueWord++
          byte = 0
        }
        // Past the last value word: 8 zero bits a byte.
        const sm = (s >>> (byte << 3)) & 0xFF
        let packed = exhausted ? 0 : pack[sm << 8 | ((h >>> (byte << 3)) & 0xFF)]
        let got = exhausted ? 8 : ones[sm]
        byte++
        if (first && got !== 0) {
          packed >>>= 1
          got--
          first = false
        }
        acc |= packed << fill
        fill += got
      }
      hits |= spread[mask << 8 | (acc & ((1 << k) - 1))] << b
      acc >>>= k
      fill -= k
    }
    const left = docCount - (w << 5)
    const chosen = selection !== null ? selection[w] : -1
    out[w] = hits & chosen & (left < 32 ? (1 << left) - 1 : -1)
  }
}

function documentsToValues(
  starts: Int32Array, nonempty: Int32Array, total: number, docCount: number, selection: Int32Array | null, out: Int32Array,
): void {
  const pack = compress!, spread = deposit!
  const lastValueWord = total >>> 5, outWords = (total + 31) >>> 5, docWords = (docCount + 31) >>> 5
  let docWord = 0, present = 0, chosen = 0, byte = 4, acc = 0, fill = 0, exhausted = false
  let carry = 0, shifted = 0
  for (let v = 0; v <= lastValueWord; v++) {
    const s = starts[v]
    // The sentinel takes a zero bit (the stream has one per document), then stops the last segment's carry.
    let marks = 0
    for (let b = 0; b < 32; b += 8) {
      const mask = (s >>> b) & 0xFF, k = ones[mask]
      while (fill < k) {
        if (byte === 4) {
          if (docWord < docWords) {
            present = nonempty[docWord]
            chosen = (selection !== null ? selection[docWord] : -1) & present
          } else exhausted = true
          docWord++
          byte = 0
        }
        const pm = (present >>> (byte << 3)) & 0xFF
        acc |= (exhausted ? 0 : pack[pm << 8 | ((chosen >>> (byte << 3)) & 0xFF)]) << fill
        fill += exhausted ? 8 : ones[pm]
        byte++
      }
      marks |= spread[mask << 8 | (acc & ((1 << k) - 1))] << b
      acc >>>= k
      fill -= k
    }
    const inner = ~s >>> 0
    const q = inner + ((marks << 1) >>> 0) + shifted + carry
    shifted = marks >>> 31
    carry = q >= TWO_32 ? 1 : 0
    let values = marks | (inner & ~q)
    if (v === lastValueWord) values &= (1 << (total & 31)) - 1
    if (v < outWords) out[v] = values
  }
}
