import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { daysFromCivil, parseIsoDateMillis } from '../src/format/iso-date.js'

const DAY = 86_400_000

describe('accepted forms', () => {
  it.each([
    ['1970-01-01', 0],
    ['1970-01-01T00:00Z', 0],
    ['1970-01-01T00:00:00Z', 0],
    ['1970-01-01T00:00:00.000Z', 0],
    ['1970-01-01t00:00:00z', 0],
    ['1970-01-01 00:00:00', 0],
    ['1970-01-01T00:00:00+00:00', 0],
    ['1970-01-01T00:00:00-00:00', 0],
    ['1970-01-02', DAY],
    ['1969-12-31', -DAY],
    ['1969-12-31T23:59:59.999Z', -1],
    ['2000-01-01T00:00:00Z', 946_684_800_000],
    ['2024-05-01T12:34:56.789Z', 1_714_566_896_789],
    ['2024-05-01T12:34', 1_714_566_840_000],
    ['2024-05-01T12:34:56', 1_714_566_896_000],
    ['2024-05-01T12:34:56.7', 1_714_566_896_700],
    ['2024-05-01T12:34:56.78', 1_714_566_896_780],
    ['2024-05-01T12:34:56.789000', 1_714_566_896_789],
    ['2024-05-01T12:34:56.789000000', 1_714_566_896_789],
    ['2024-05-01T12:34:56.000000000Z', 1_714_566_896_000],
    ['2038-01-19T03:14:07Z', 2_147_483_647_000],
    ['0000-01-01', -62_167_219_200_000],
    ['+000000-01-01', -62_167_219_200_000],
    ['0001-01-01', -62_135_596_800_000],
    ['9999-12-31T23:59:59.999Z', 253_402_300_799_999],
    ['+010000-01-01', 253_402_300_800_000],
    ['-000001-01-01', -62_198_755_200_000],
    ['-271821-04-20T00:00:00Z', -8.64e15],
    ['+275760-09-13T00:00:00Z', 8.64e15],
    // Beyond what Date supports, still exact safe integers.
    ['-271821-04-19T00:00:00Z', -8.64e15 - DAY],
    ['+275760-09-13T00:00:00.001Z', 8.64e15 + 1],
    ['+287396-10-12T08:59:00.991Z', Number.MAX_SAFE_INTEGER],
    ['-283457-03-21T15:00:59.009Z', -Number.MAX_SAFE_INTEGER],
  ])('%s', (text, expected) => {
    expect(parseIsoDateMillis(text)).toBe(expected)
  })

  it('agrees with Date.parse on explicit-zone strings', () => {
    for (const text of ['2024-05-01T12:34:56.789Z', '1900-02-28T23:00:00+05:30', '1066-10-14T09:00:00-01:00', '-000500-03-01T00:00:00Z']) {
      expect(parseIsoDateMillis(text)).toBe(Date.parse(text))
    }
  })
})

describe('leap days (proleptic Gregorian)', () => {
  it.each([
    ['2024-02-29', 1_709_164_800_000],
    ['2000-02-29', 951_782_400_000],
    ['1600-02-29', Date.UTC(1600, 1, 29)],
    ['0000-02-29', -62_162_121_600_000],
    ['-000004-02-29', Date.parse('-000004-02-29T00:00:00Z')],
    ['-000400-02-29', Date.parse('-000400-02-29T00:00:00Z')],
  ])('%s is valid', (text, expected) => {
    expect(parseIsoDateMillis(text)).toBe(expected)
  })

  it.each([
    ['2023-02-29', 'day 29 does not exist in February (2023 is not a leap year)'],
    ['1900-02-29', 'day 29 does not exist in February (1900 is not a leap year)'],
    ['2100-02-29', 'day 29 does not exist in February (2100 is not a leap year)'],
    ['-000001-02-29', 'day 29 does not exist in February (-1 is not a leap year)'],
    ['-000100-02-29', 'day 29 does not exist in February (-100 is not a leap year)'],
    ['2024-02-30', 'day 30 does not exist in February'],
  ])('%s is rejected', (text, message) => {
    expect(parseIsoDateMillis(text)).toBe(message)
  })
})

describe('offsets', () => {
  it.each([
    ['2024-01-01T00:30:00+01:00', Date.UTC(2023, 11, 31, 23, 30)],
    ['2023-12-31T23:30:00-01:00', Date.UTC(2024, 0, 1, 0, 30)],
    ['2024-03-01T01:00:00+02:00', Date.UTC(2024, 1, 29, 23, 0)],
    ['2023-03-01T01:00:00+02:00', Date.UTC(2023, 1, 28, 23, 0)],
    ['2024-01-01T00:00:00+23:59', Date.UTC(2023, 11, 31, 0, 1)],
    ['2024-01-01T23:59:59.999-23:59', Date.UTC(2024, 0, 2, 23, 58, 59, 999)],
    ['2024-01-01T12:00:00+0530', Date.UTC(2024, 0, 1, 6, 30)],
    ['2024-01-01T12:00:00-0930', Date.UTC(2024, 0, 1, 21, 30)],
    ['2024-01-01T12:00:00+05', Date.UTC(2024, 0, 1, 7, 0)],
    ['2024-01-01T12:00-05', Date.UTC(2024, 0, 1, 17, 0)],
    ['2024-01-01T12:00:00.5+01:00', Date.UTC(2024, 0, 1, 11, 0, 0, 500)],
  ])('%s', (text, expected) => {
    expect(parseIsoDateMillis(text)).toBe(expected)
  })
})

describe('rejections explain why', () => {
  it.each([
    ['', "expected a 4-digit year at position 0, found end of input"],
    ['24-01-01', "expected a 4-digit year at position 0, found '2'"],
    [' 2024-01-01', "expected a 4-digit year at position 0, found ' '"],
    ['12024-01-01', 'years beyond 9999 need the expanded form with a sign and 6 digits (e.g. +012024)'],
    ['+2024-01-01', 'an expanded year needs a sign and exactly 6 digits (e.g. +012024)'],
    ['+0020240-01-01', 'an expanded year needs a sign and exactly 6 digits (e.g. +012024)'],
    ['-000000-01-01', 'year -000000 is invalid (write year zero as 0000 or +000000)'],
    ['20240101T120000Z', 'the basic format without "-" separators is not supported (use YYYY-MM-DD)'],
    ['20240101', 'the basic format without "-" separators is not supported (use YYYY-MM-DD)'],
    ['2024/01/01', "expected '-' after the year at position 4, found '/'"],
    ['2024-W01-1', 'week dates (YYYY-Www-D) are not supported'],
    ['2024-123', 'ordinal dates (YYYY-DDD) are not supported'],
    ['2024-01', 'a day of the month is required (YYYY-MM-DD)'],
    ['2024', "expected '-' after the year at position 4, found end of input"],
    ['2024-1-01', "expected a 2-digit month at position 5, found '1'"],
    ['2024-01-1', "expected a 2-digit day at position 8, found '1'"],
    ['2024-00-10', 'month 0 is out of range (01-12)'],
    ['2024-13-01', 'month 13 is out of range (01-12)'],
    ['2024-01-00', 'day 0 does not exist in January'],
    ['2024-04-31', 'day 31 does not exist in April'],
    ['2024-12-32', 'day 32 does not exist in December'],
    ['2024-01-01Z', "expected 'T' or a space between date and time at position 10, found 'Z'"],
    ['2024-01-01x', "expected 'T' or a space between date and time at position 10, found 'x'"],
    ['2024-01-01  12:00', "expected a 2-digit hour at position 11, found ' '"],
    ['2024-01-01T', 'expected a 2-digit hour at position 11, found end of input'],
    ['2024-01-01T12', "expected ':' and minutes after the hour at position 13, found end of input"],
    ['2024-01-01T1200', 'the basic time format without ":" is not supported (use HH:MM)'],
    ['2024-01-01T12:0', "expected a 2-digit minute at position 14, found '0'"],
    ['2024-01-01T12:00:', 'expected a 2-digit second at position 17, found end of input'],
    ['2024-01-01T24:00:00', 'hour 24 is out of range (00-23; 24:00 is not accepted)'],
    ['2024-01-01T12:60', 'minute 60 is out of range (00-59)'],
    ['2016-12-31T23:59:60Z', 'second 60 is out of range (00-59; leap seconds are not supported)'],
    ['2024-01-01T12:00:00.', "expected fraction digits after '.' at position 20, found end of input"],
    ['2024-01-01T12:00:00.Z', "expected fraction digits after '.' at position 20, found 'Z'"],
    ['2024-01-01T12:00:00.1234567890', 'at most 9 fraction digits are allowed, found 10'],
    ['2024-01-01T12:00:00.0001', 'fraction has non-zero digits beyond milliseconds: sub-millisecond precision would be lost'],
    ['2024-01-01T12:00:00.123456789Z', 'fraction has non-zero digits beyond milliseconds: sub-millisecond precision would be lost'],
    ['2024-01-01T12:00:00,5', "a decimal comma is not supported (use '.')"],
    ['2024-01-01T12:00.5', 'a fraction is only allowed after the seconds (HH:MM:SS.f)'],
    ['2024-01-01T12:00:00+24:00', 'the zone offset is out of range (at most ±23:59)'],
    ['2024-01-01T12:00:00-00:60', 'the zone offset is out of range (at most ±23:59)'],
    ['2024-01-01T12:00:00+1', "expected a 2-digit offset hour at position 20, found '1'"],
    ['2024-01-01T12:00:00+01:', 'expected a 2-digit offset minute at position 23, found end of input'],
    ['2024-01-01T12:00:00+013', "expected a 2-digit offset minute at position 22, found '3'"],
    ['2024-01-01T12:00:00+01:000', "expected end of input or a zone (Z, ±HH:MM, ±HHMM, ±HH) at position 25, found '0'"],
    ['2024-01-01T12:00:00ZZ', "expected end of input or a zone (Z, ±HH:MM, ±HHMM, ±HH) at position 20, found 'Z'"],
    ['2024-01-01T12:00:00 UTC', "expected end of input or a zone (Z, ±HH:MM, ±HHMM, ±HH) at position 19, found ' '"],
    ['2024-01-01T12:00:00Z ', "expected end of input or a zone (Z, ±HH:MM, ±HHMM, ±HH) at position 20, found ' '"],
    ['2024-01-01T12:00:00.000\u2212 01:00', "expected end of input or a zone (Z, ±HH:MM, ±HHMM, ±HH) at position 23, found '\u2212'"],
    ['+287396-10-12T08:59:00.992Z', 'the instant is too far from 1970 to be represented exactly in milliseconds'],
    ['-283457-03-21T15:00:59.008Z', 'the instant is too far from 1970 to be represented exactly in milliseconds'],
    ['+999999-12-31T23:59:59.999-23:59', 'the instant is too far from 1970 to be represented exactly in milliseconds'],
    ['-999999-01-01T00:00:00+23:59', 'the instant is too far from 1970 to be represented exactly in milliseconds'],
  ])('%j', (text, message) => {
    expect(parseIsoDateMillis(text)).toBe(message)
  })
})

describe('month lengths (2023: not a leap year)', () => {
  const NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']
  const LAST = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
  it.each(NAMES.map((name, month) => [name, month] as const))('%s: its last day parses, the day after is refused', (name, month) => {
    const mm = String(month + 1).padStart(2, '0')
    expect(parseIsoDateMillis(`2023-${mm}-${LAST[month]}`)).toBe(Date.UTC(2023, month, LAST[month]))
    const after = LAST[month] + 1
    const reason = month === 1 ? `day ${after} does not exist in February (2023 is not a leap year)` : `day ${after} does not exist in ${name}`
    expect(parseIsoDateMillis(`2023-${mm}-${after}`)).toBe(reason)
  })
})

describe('exact arithmetic', () => {
  const pad = (n: number, width: number) => String(n).padStart(width, '0')
  const isoYear = (y: number) => (y >= 0 && y <= 9999 ? pad(y, 4) : (y < 0 ? '-' : '+') + pad(Math.abs(y), 6))

  it('matches Date for random instants in years -271820..275759', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -271_820, max: 275_759 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 31 }),
        fc.integer({ min: 0, max: 86_399_999 }),
        fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }),
        (y, m, d, ms, offMin) => {
          const ref = new Date(0)
          ref.setUTCFullYear(y, m - 1, d)
          if (ref.getUTCDate() !== d) return // day does not exist in that month
          const time = `${pad(Math.floor(ms / 3_600_000), 2)}:${pad(Math.floor(ms / 60_000) % 60, 2)}:${pad(Math.floor(ms / 1000) % 60, 2)}.${pad(ms % 1000, 3)}`
          const off = `${offMin < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(offMin) / 60), 2)}:${pad(Math.abs(offMin) % 60, 2)}`
          const text = `${isoYear(y)}-${pad(m, 2)}-${pad(d, 2)}T${time}${off}`
          expect(parseIsoDateMillis(text)).toBe(ref.getTime() + ms - offMin * 60_000)
        },
      ),
      { numRuns: 5000 },
    )
  })

  it('repeats every 400 years (146097 days), even beyond the Date range', () => {
    for (const [y, md] of [[275_000, '-03-01'], [287_200, '-02-29'], [-283_000, '-12-31'], [2000, '-02-29']] as const) {
      const a = parseIsoDateMillis(`${isoYear(y)}${md}T13:14:15.161Z`)
      const b = parseIsoDateMillis(`${isoYear(y - 400)}${md}T13:14:15.161Z`)
      expect(typeof a).toBe('number')
      expect((a as number) - (b as number)).toBe(146_097 * DAY)
    }
  })

  it('daysFromCivil is the inverse of the Date calendar around the epoch', () => {
    expect(daysFromCivil(1970, 1, 1)).toBe(0)
    expect(daysFromCivil(1969, 12, 31)).toBe(-1)
    expect(daysFromCivil(2000, 3, 1)).toBe(11_017)
    expect(daysFromCivil(-271_821, 4, 20)).toBe(-100_000_000)
    expect(daysFromCivil(275_760, 9, 13)).toBe(100_000_000)
  })

  it('never depends on the host time zone', () => {
    // A zone-less date-time is UTC; Date.parse would use local time here.
    expect(parseIsoDateMillis('2024-07-01T12:00:00')).toBe(Date.UTC(2024, 6, 1, 12))
    expect(parseIsoDateMillis('2024-07-01 12:00')).toBe(Date.UTC(2024, 6, 1, 12))
  })
})
