/**
 * v2 keyword dictionaries, from docs/format-v2.md §10: integer lists (§10.1),
 * forms 0–5 (v1, plain, FSST, front, front-FSST, digits) and the choice of
 * form (§10.5). Sequences come from ./sequences.ts, the same model the
 * integer columns use.
 */
import { ByteWriter, bits, pack } from './bytes.js'
import { commit, held, note } from './choices.js'
import { encodePiece, tableBytes, trainTable } from './fsst.js'
import { encodeIntegers } from './sequences.js'

const RESTART = 64

/**
 * An integer list (§10.1): tag 0 (W-bit fields) unless tag 1 (a v2 sequence)
 * is strictly smaller, or W > 31; ties go to tag 0.
 */
export function encodeList(values: readonly number[]): number[] {
  const W = bits(BigInt(values.reduce((a, b) => Math.max(a, b), 0)))
  const fields = [0, W, ...pack(values.map(BigInt), W)]
  const sequence = held(() => encodeIntegers(values))
  const tagged = 1 + sequence.value.length
  if (tagged < fields.length || W > 31) {
    note('list tag 1')
    commit(sequence.notes)
    return [1, ...sequence.value]
  }
  note(tagged === fields.length ? 'tie list tag 0' : 'list tag 0')
  return fields
}

/** The 9-byte header of forms 1–5 (§10). */
function header(form: number, terms: readonly Uint8Array[]): ByteWriter {
  const w = new ByteWriter()
  w.u8(form)
  w.u32(terms.length)
  w.u32(terms.reduce((sum, t) => sum + t.length, 0))
  return w
}

/** Form 0: v1's dictionary (docs/format.md §5.3) after the form byte. */
function v1Form(terms: readonly Uint8Array[]): number[] {
  const w = header(0, terms)
  let offset = 0
  w.u32(0)
  for (const t of terms) w.u32((offset += t.length))
  for (const t of terms) w.bytes(t)
  return w.out
}

/** Form 1, plain: term lengths, then the term bytes. */
function plainForm(terms: readonly Uint8Array[]): number[] {
  const w = header(1, terms)
  w.bytes(encodeList(terms.map((t) => t.length)))
  for (const t of terms) w.bytes(t)
  return w.out
}

/** A table trained on the pieces, the code lengths list and the codes (§10.2). */
function fsstParts(w: ByteWriter, pieces: Uint8Array[]): void {
  const table = trainTable(pieces)
  const codes = pieces.map((p) => encodePiece(table, p))
  w.bytes(tableBytes(table))
  w.bytes(encodeList(codes.map((c) => c.length)))
  for (const c of codes) w.bytes(c)
}

/** Form 2, FSST over whole terms. */
function fsstForm(terms: readonly Uint8Array[]): number[] {
  const w = header(2, terms)
  fsstParts(w, [...terms])
  return w.out
}

/** Shared prefix lengths for front coding (§10.3), with a restart every 64 terms. */
export function sharedLengths(terms: readonly Uint8Array[]): number[] {
  return terms.map((t, i) => {
    if (i % RESTART === 0) return 0
    const previous = terms[i - 1]
    let k = 0
    while (k < previous.length && k < t.length && previous[k] === t[k]) k++
    return k
  })
}

/** Form 3 (front) or 4 (front-FSST, each suffix one piece), §10.3. */
function frontForm(terms: readonly Uint8Array[], withFsst: boolean): number[] {
  const shared = sharedLengths(terms)
  const suffixes = terms.map((t, i) => t.subarray(shared[i]))
  const w = header(withFsst ? 4 : 3, terms)
  w.bytes(encodeList(shared))
  if (withFsst) fsstParts(w, suffixes)
  else {
    w.bytes(encodeList(suffixes.map((s) => s.length)))
    for (const s of suffixes) w.bytes(s)
  }
  return w.out
}

/** Form 5 (§10.4), or null when the terms are not all d ASCII digits (1 ≤ d ≤ 15). */
function digitsForm(terms: readonly Uint8Array[]): number[] | null {
  const d = terms[0].length
  const isDigits = (t: Uint8Array): boolean => t.length === d && t.every((c) => c >= 0x30 && c <= 0x39)
  if (d < 1 || d > 15 || !terms.every(isDigits)) return null
  const w = header(5, terms)
  w.u8(d)
  w.bytes(encodeIntegers(terms.map((t) => BigInt(String.fromCharCode(...t)))))
  return w.out
}

/**
 * A keyword dictionary, form byte included (§10.5): every applicable form is
 * encoded and the fewest bytes win, ties to the lower form byte. `terms` are
 * the distinct UTF-8 terms in unsigned byte order.
 */
export function encodeDictionary(terms: readonly Uint8Array[]): number[] {
  const builders: (() => number[] | null)[] = [
    () => v1Form(terms),
    () => plainForm(terms),
    () => fsstForm(terms),
    () => frontForm(terms, false),
    () => frontForm(terms, true),
    () => digitsForm(terms),
  ]
  let chosen: { form: number; value: number[]; notes: string[] } | null = null
  const sizes: number[] = []
  for (let form = 0; form < builders.length; form++) {
    const { value, notes } = held(builders[form])
    if (value === null) continue
    sizes.push(value.length)
    if (!chosen || value.length < chosen.value.length) chosen = { form, value, notes }
  }
  if (!chosen) throw new Error('no dictionary form') // form 0 always applies
  note(`dictionary form ${chosen.form}`)
  if (sizes.filter((s) => s === chosen.value.length).length > 1) note('tie dictionary lower form')
  commit(chosen.notes)
  return chosen.value
}
