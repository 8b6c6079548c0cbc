/**
 * The typed-decode duel shared by typed-fast-paths and typed-tables: blocks of
 * values built with BigInt, read with both backends into plain arrays and a
 * ValueBuffer, and checked against the BigInt model.
 */
import { expect } from 'vitest'
import { createValueBuffer } from '../../src/read/buffers.js'
import { openColumns } from '../../src/read/open.js'
import { denseFile } from './dense-file.js'
import { attempt, sameOutcome } from './duel.js'
import { seededRandom } from './random.js'

/** The values' randomness (seeded: every run reads the same files). */
export const random = seededRandom(91)
export const INT32_MIN = -(2n ** 31n), INT32_MAX = 2n ** 31n - 1n
export const SAFE = 2n ** 53n - 1n

/** 1,024 values base + g u with random units below 2^W, the first at u = 0 and the second at 2^W - 1 (pinning base and width). */
export function block(base: bigint, g: bigint, W: number, override: (index: number) => bigint | null = () => null): bigint[] {
  return Array.from({ length: 1024 }, (_, index) => {
    const forced = override(index)
    if (forced !== null) return forced
    const u = index === 0 ? 0n : index === 1 ? (1n << BigInt(W)) - 1n : BigInt(Math.floor(random() * 2 ** Math.min(W, 32))) * (W > 32 ? BigInt(Math.floor(random() * 2 ** (W - 32))) + 1n : 1n) % (1n << BigInt(W))
    return base + g * u
  })
}

/** Reads [first, first + count) three ways and checks them against the BigInt model. */
export function duel(values: bigint[], kind: 'int32' | 'float64', fits: (value: bigint) => boolean, first = 0, count = values.length - first): void {
  const bytes = denseFile(values.length, (index) => values[index])
  const wasm = openColumns(bytes, { backend: 'wasm' }).getColumn('v')!, ts = openColumns(bytes, { backend: 'ts' }).getColumn('v')!
  const Kind = kind === 'int32' ? Int32Array : Float64Array
  const buffer = createValueBuffer(kind, count, { backend: 'wasm' })
  const outputs = [new Kind(count).fill(-7), new Kind(count).fill(-7), buffer.array.fill(-7)]
  const outcomes = [attempt(() => ts.readValues(first, outputs[0])), attempt(() => wasm.readValues(first, outputs[1])), attempt(() => wasm.readValues(first, outputs[2]))]
  expect(sameOutcome(outcomes[0], outcomes[1])).toBe(true)
  expect(sameOutcome(outcomes[0], outcomes[2])).toBe(true)
  const run = values.slice(first, first + count)
  const bad = run.findIndex((value) => !fits(value))
  expect(outcomes[0].ok).toBe(bad < 0)
  const expected = run.map((value, index) => (bad >= 0 && index >= bad ? -7 : Number(value)))
  for (const output of outputs) expect(Array.from(output)).toEqual(expected)
  buffer.release()
}

/** Whether a value fits an Int32Array, or an exact double. */
export const fitsInt32 = (value: bigint) => value >= INT32_MIN && value <= INT32_MAX
export const fitsDouble = (value: bigint) => value >= -SAFE && value <= SAFE
