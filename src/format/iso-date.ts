// Strict ISO-8601 / RFC 3339 timestamp parsing to exact epoch milliseconds.
//
// Date.parse accepts many non-standard forms, reads zone-less date-times in
// the host's local zone and is limited to ±8.64e15 ms. Here the accepted
// grammar is narrow and documented, the arithmetic is pure integer
// (days-from-civil, proleptic Gregorian), and the host time zone never matters.

const MS_PER_DAY = 86_400_000
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
const MONTH_NAMES = [
  'January', 'February', 'March', 'April', 'May', 'June',
  'July', 'August', 'September', 'October', 'November', 'December',
]

/** Reads exactly `count` ASCII digits at `at`; -1 if any is missing, so callers can explain what was expected. */
function digits(s: string, at: number, count: number): number {
  if (at + count > s.length) return -1
  let v = 0
  for (let i = at; i < at + count; i++) {
    const d = s.charCodeAt(i) - 0x30
    if (d < 0 || d > 9) return -1
    v = v * 10 + d
  }
  return v
}

function isDigitAt(s: string, at: number): boolean {
  const c = s.charCodeAt(at)
  return c >= 0x30 && c <= 0x39
}

function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0
}

/**
 * Days from 1970-01-01 to the given proleptic Gregorian date, using the
 * days-from-civil algorithm (H. Hinnant) because it is exact integer arithmetic
 * for any year, including negative ones, with no Date object involved.
 */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yearOfEra = y - era * 400
  const monthFromMarch = month > 2 ? month - 3 : month + 9
  const dayOfYear = Math.floor((153 * monthFromMarch + 2) / 5) + day - 1
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear
  return era * 146_097 + dayOfEra - 719_468
}

function unexpected(s: string, at: number, expected: string): string {
  const found = at >= s.length ? 'end of input' : `'${s[at]}'`
  return `expected ${expected} at position ${at}, found ${found}`
}

/**
 * Milliseconds since 1970-01-01T00:00:00Z for a strict ISO-8601 string, or a string explaining why it is not one.
 *
 * Accepted: `YYYY-MM-DD`, optionally followed by `T`, `t` or one space and
 * `HH:MM`, `HH:MM:SS` or `HH:MM:SS.f` (1 to 9 fraction digits), then an
 * optional zone `Z`, `z`, `±HH:MM`, `±HHMM` or `±HH`. Years are `YYYY` or the
 * expanded `±YYYYYY` (`-000000` is invalid). Unlike `Date.parse`, a time
 * without a zone is UTC, never local time, so results do not depend on the
 * host. Dates use the proleptic Gregorian calendar. Rejected: leap seconds
 * (`:60`), hour 24, offsets beyond ±23:59, non-zero sub-millisecond digits
 * (the precision would be lost), week and ordinal dates, the basic
 * (separator-less) format, and results that are not safe integers. The
 * result is exact and may exceed the ±8.64e15 ms that `Date` supports.
 * Error strings do not repeat the input so callers can add their own context.
 */
export function parseIsoDateMillis(text: string): number | string {
  const s = text
  let i: number
  let year: number
  const sign = s.charCodeAt(0)
  if (sign === 0x2b || sign === 0x2d) {
    year = digits(s, 1, 6)
    if (year < 0 || isDigitAt(s, 7)) return 'an expanded year needs a sign and exactly 6 digits (e.g. +012024)'
    if (sign === 0x2d) {
      if (year === 0) return 'year -000000 is invalid (write year zero as 0000 or +000000)'
      year = -year
    }
    i = 7
  } else {
    year = digits(s, 0, 4)
    if (year < 0) return unexpected(s, 0, 'a 4-digit year')
    if (isDigitAt(s, 4)) {
      let run = 5
      while (isDigitAt(s, run)) run++
      if (s[run] === '-') return 'years beyond 9999 need the expanded form with a sign and 6 digits (e.g. +012024)'
      return 'the basic format without "-" separators is not supported (use YYYY-MM-DD)'
    }
    i = 4
  }

  if (s[i] !== '-') return unexpected(s, i, "'-' after the year")
  i++
  if (s[i] === 'W' || s[i] === 'w') return 'week dates (YYYY-Www-D) are not supported'
  const month = digits(s, i, 2)
  if (month < 0) return unexpected(s, i, 'a 2-digit month')
  i += 2
  if (isDigitAt(s, i)) return 'ordinal dates (YYYY-DDD) are not supported'
  if (i === s.length) return 'a day of the month is required (YYYY-MM-DD)'
  if (s[i] !== '-') return unexpected(s, i, "'-' after the month")
  i++
  const day = digits(s, i, 2)
  if (day < 0) return unexpected(s, i, 'a 2-digit day')
  i += 2
  if (month < 1 || month > 12) return `month ${month} is out of range (01-12)`
  const monthDays = month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]
  if (day < 1 || day > monthDays) {
    const why = month === 2 && day === 29 ? ` (${year} is not a leap year)` : ''
    return `day ${day} does not exist in ${MONTH_NAMES[month - 1]}${why}`
  }

  let timeMs = 0
  let offsetMs = 0
  if (i < s.length) {
    const sep = s[i]
    if (sep !== 'T' && sep !== 't' && sep !== ' ') return unexpected(s, i, "'T' or a space between date and time")
    i++
    const hour = digits(s, i, 2)
    if (hour < 0) return unexpected(s, i, 'a 2-digit hour')
    i += 2
    if (s[i] !== ':') {
      if (isDigitAt(s, i)) return 'the basic time format without ":" is not supported (use HH:MM)'
      return unexpected(s, i, "':' and minutes after the hour")
    }
    i++
    const minute = digits(s, i, 2)
    if (minute < 0) return unexpected(s, i, 'a 2-digit minute')
    i += 2
    let second = 0
    let millis = 0
    if (s[i] === ':') {
      i++
      second = digits(s, i, 2)
      if (second < 0) return unexpected(s, i, 'a 2-digit second')
      i += 2
      if (s[i] === '.') {
        i++
        const fracStart = i
        while (isDigitAt(s, i)) i++
        const n = i - fracStart
        if (n === 0) return unexpected(s, i, "fraction digits after '.'")
        if (n > 9) return `at most 9 fraction digits are allowed, found ${n}`
        for (let k = 0; k < 3; k++) millis = millis * 10 + (k < n ? s.charCodeAt(fracStart + k) - 0x30 : 0)
        for (let k = fracStart + 3; k < i; k++) {
          if (s[k] !== '0') return 'fraction has non-zero digits beyond milliseconds: sub-millisecond precision would be lost'
        }
      } else if (s[i] === ',') {
        return "a decimal comma is not supported (use '.')"
      }
    } else if (s[i] === '.' || s[i] === ',') {
      return 'a fraction is only allowed after the seconds (HH:MM:SS.f)'
    }
    if (hour > 23) return `hour ${hour} is out of range (00-23; 24:00 is not accepted)`
    if (minute > 59) return `minute ${minute} is out of range (00-59)`
    if (second > 59) return `second ${second} is out of range (00-59; leap seconds are not supported)`
    timeMs = ((hour * 60 + minute) * 60 + second) * 1000 + millis

    const z = s[i]
    if (z === 'Z' || z === 'z') {
      i++
    } else if (z === '+' || z === '-') {
      i++
      const offHour = digits(s, i, 2)
      if (offHour < 0) return unexpected(s, i, 'a 2-digit offset hour')
      i += 2
      let offMinute = 0
      if (s[i] === ':' || isDigitAt(s, i)) {
        if (s[i] === ':') i++
        offMinute = digits(s, i, 2)
        if (offMinute < 0) return unexpected(s, i, 'a 2-digit offset minute')
        i += 2
      }
      if (offHour > 23 || offMinute > 59) return 'the zone offset is out of range (at most ±23:59)'
      offsetMs = (offHour * 60 + offMinute) * 60_000 * (z === '-' ? -1 : 1)
    }
    if (i < s.length) return unexpected(s, i, 'end of input or a zone (Z, ±HH:MM, ±HHMM, ±HH)')
  }

  // days * MS_PER_DAY is exact in a double (86_400_000 = 2^10 * 84_375), and
  // a single correctly rounded addition stays exact whenever the true result
  // is a safe integer; otherwise the rounded sum is unsafe too and rejected.
  const result = daysFromCivil(year, month, day) * MS_PER_DAY + (timeMs - offsetMs)
  if (!Number.isSafeInteger(result)) return 'the instant is too far from 1970 to be represented exactly in milliseconds'
  return result
}
