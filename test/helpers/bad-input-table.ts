/**
 * The writer's bad-input table, shared by the API test (test/writer-errors.test.ts)
 * and the CLI test (test/cli-bad-input.test.ts): a schema with every column kind,
 * good documents, and bad document-1 values with the exact message each must give.
 */
export const SCHEMA = { fields: [
  { name: 'k', type: 'keyword', facet: true },
  { name: 'km', type: 'keyword', facet: true, multi: true },
  { name: 'i', type: 'integral', column: true },
  { name: 'im', type: 'integral', column: true, multi: true },
  { name: 'f', type: 'fractional', column: true },
  { name: 'd', type: 'date', column: true },
  { name: 'b', type: 'bool', column: true },
  { name: 'g', type: 'geo_point', column: true },
  { name: 'gm', type: 'geo_point', column: true, multi: true },
  { name: 'dm', type: 'date', column: true, multi: true }, // at most one value per good document: optional layout
  { name: 't', type: 'text' },
] }

export const GOOD = [
  { k: 'a', km: ['b', 'a'], i: 1, im: [1, 2], f: 1.5, d: 0, b: true, g: { lat: 1, lon: 2 }, gm: [{ lat: 0, lon: 0 }], dm: [5], t: 'x' },
  { k: 'c', i: 2, im: [], f: -0, d: '2024-01-01', b: false, gm: [{ lat: 3, lon: 4 }, { lat: 3, lon: 4 }] },
  { km: ['c'], i: 3, f: NaN, d: 5n, g: { lat: -1, lon: -2 }, dm: 6 },
]

/** Values the bad document adds before its bad field: new terms and values in every column kind. */
export const TRACE = { dm: [1, 2, 3], k: 'only-in-bad', km: ['a', 'only-in-bad-2', 'only-in-bad-2'], i: 99, im: [7, 8, 9], f: 2.5, d: 77, b: true, g: { lat: 5, lon: 5 } }

// [title, the bad part of document 1, exact message]
export const BAD_VALUES: [string, Record<string, unknown>, string][] = [
  ['keyword given a number', { k: 5 }, 'field "k" of document 1: expected a keyword string, got the number 5'],
  ['multi keyword given a boolean', { km: ['new-term', false] }, 'field "km" of document 1: expected a keyword string, got the boolean false'],
  ['integral given a string', { i: 'x' }, 'field "i" of document 1: expected an integer (number or bigint), got the string "x"'],
  ['fractional given a boolean', { f: true }, 'field "f" of document 1: expected a fractional number, got the boolean true'],
  ['fractional given a bad string', { f: 'abc' }, 'field "f" of document 1: expected a number, "NaN", "Infinity", "-Infinity", "-0" or {bits}, got the string "abc"'],
  ['fractional given bad bits', { f: { bits: '123' } }, 'field "f" of document 1: {bits} must hold 16 hex digits or a bigint, got the string "123"'],
  ['fractional given negative bigint bits', { f: { bits: -1n } }, 'field "f" of document 1: IEEE bits -1n are not an unsigned 64-bit pattern'],
  // Rounded to a double, these were stored as ±Infinity (the CLI refuses 1e400 as beyond every double).
  ['fractional given a bigint beyond every double', { f: 10n ** 400n }, 'field "f" of document 1: an integer of 401 digits is beyond the largest double (about 1.8e308)'],
  ['fractional given a negative bigint beyond every double', { f: -(10n ** 309n) }, 'field "f" of document 1: a negative integer of 310 digits is beyond the largest double (about 1.8e308)'],
  ['fractional given bigint bits of 65 bits', { f: { bits: 2n ** 64n } }, 'field "f" of document 1: IEEE bits 18446744073709551616n are not an unsigned 64-bit pattern'],
  ['date given a boolean', { d: true }, 'field "d" of document 1: expected a date (Date, milliseconds as number or bigint, or an ISO-8601 string), got the boolean true'],
  ['bool given a number', { b: 1 }, 'field "b" of document 1: expected a boolean, got the number 1'],
  ['geo given a string', { g: 'x' }, 'field "g" of document 1: expected a geo point {lat, lon}, got the string "x"'],
  ['geo given a non-numeric lat', { g: { lat: '1', lon: 2 } }, 'field "g" of document 1: geo point {lat: "1", lon: 2}: lat is a string, not a number'],
  ['geo given a non-numeric lon', { g: { lat: 1, lon: '2' } }, 'field "g" of document 1: geo point {lat: 1, lon: "2"}: lon is a string, not a number'],
  ['geo with a key beyond lat and lon', { g: { lat: 1, lon: 2, alt: 3 } }, 'field "g" of document 1: geo point {lat: 1, lon: 2, alt: 3}: unknown key "alt" (a geo point is {lat, lon})'],
  ['multi geo with two unknown keys', { gm: [{ type: 'Point', lat: 1, lon: 2, z: 0 }] }, 'field "gm" of document 1: geo point {type: "Point", lat: 1, lon: 2, z: 0}: unknown keys "type", "z" (a geo point is {lat, lon})'],
  ['multi geo given an array item', { gm: [{ lat: 1, lon: 1 }, [1, 2]] }, 'field "gm" of document 1: expected a geo point {lat, lon}, got an array [1, 2]'],
  ['array for a non-multi integral', { i: [1] }, 'field "i" of document 1: got an array but the field is not multi-valued'],
  ['array for a non-multi keyword', { k: ['a'] }, 'field "k" of document 1: got an array but the field is not multi-valued'],
  ['null inside a multi array', { im: [1, null] }, 'field "im" of document 1: a multi-valued field\'s array holds null'],
  ['undefined inside a multi array', { im: [1, undefined] }, 'field "im" of document 1: a multi-valued field\'s array holds undefined (or a hole)'],
  ['fractional {bits} with another key', { f: { bits: '3ff0000000000000', scale: 2 } }, 'field "f" of document 1: {bits} with unknown key "scale" (a raw double is {bits} alone)'],
  ['integral number beyond 2^53', { i: 2 ** 53 }, 'field "i" of document 1: integer 9007199254740992 is not a safe integer (beyond 2^53 a number may already be rounded); use bigint for exact 64-bit values'],
  ['integral non-integer', { i: 1.5 }, 'field "i" of document 1: integral value the number 1.5 is not an integer'],
  ['integral NaN', { i: NaN }, 'field "i" of document 1: integral value the number NaN is not an integer'],
  ['integer 2^63', { i: 2n ** 63n }, 'field "i" of document 1: integer 9223372036854775808n is outside the signed 64-bit range [-2^63, 2^63 - 1]'],
  ['integer -2^63 - 1 in a multi array', { im: [1, -(2n ** 63n) - 1n] }, 'field "im" of document 1: integer -9223372036854775809n is outside the signed 64-bit range [-2^63, 2^63 - 1]'],
  ['keyword with a lone high surrogate', { k: '\uD800x' }, 'field "k" of document 1: keyword has a lone surrogate at UTF-16 index 0; UTF-8 cannot hold it (TextEncoder would replace it with U+FFFD, losing data)'],
  ['keyword with a lone low surrogate', { km: ['ok-new', 'ab\uDC00'] }, 'field "km" of document 1: keyword has a lone surrogate at UTF-16 index 2; UTF-8 cannot hold it (TextEncoder would replace it with U+FFFD, losing data)'],
  ['keyword with a reversed pair', { k: 'a\uDE00\uD83D' }, 'field "k" of document 1: keyword has a lone surrogate at UTF-16 index 1; UTF-8 cannot hold it (TextEncoder would replace it with U+FFFD, losing data)'],
  ['date with month 13', { d: '2024-13-01' }, 'field "d" of document 1: invalid date: the string "2024-13-01": month 13 is out of range (01-12)'],
  ['date that is not ISO', { d: 'yesterday' }, 'field "d" of document 1: invalid date: the string "yesterday": expected a 4-digit year at position 0, found \'y\''],
  ['date February 30', { d: '2024-02-30' }, 'field "d" of document 1: invalid date: the string "2024-02-30": day 30 does not exist in February'],
  ['invalid Date object', { d: new Date(NaN) }, 'field "d" of document 1: invalid date (the Date holds NaN)'],
  ['date with fractional milliseconds', { d: 1.5 }, 'field "d" of document 1: invalid date: the number 1.5 is not a whole number of milliseconds in the safe range; use bigint beyond 2^53'],
  ['date number beyond 2^53', { d: 2 ** 53 }, 'field "d" of document 1: invalid date: the number 9007199254740992 is not a whole number of milliseconds in the safe range; use bigint beyond 2^53'],
  ['date bigint beyond i64', { d: 2n ** 63n }, 'field "d" of document 1: date in milliseconds 9223372036854775808n is outside the signed 64-bit range [-2^63, 2^63 - 1]'],
  ['geo latitude 90.5', { g: { lat: 90.5, lon: 0 } }, 'field "g" of document 1: geo point {lat: 90.5, lon: 0}: lat 90.5 is outside [-90, 90]'],
  ['geo latitude -90.001', { g: { lat: -90.001, lon: 0 } }, 'field "g" of document 1: geo point {lat: -90.001, lon: 0}: lat -90.001 is outside [-90, 90]'],
  ['geo longitude -180.5', { g: { lat: 0, lon: -180.5 } }, 'field "g" of document 1: geo point {lat: 0, lon: -180.5}: lon -180.5 is outside [-180, 180]'],
  ['geo longitude 181 in a multi array', { gm: [{ lat: 0, lon: 0 }, { lat: 0, lon: 181 }] }, 'field "gm" of document 1: geo point {lat: 0, lon: 181}: lon 181 is outside [-180, 180]'],
  ['geo latitude NaN', { g: { lat: NaN, lon: 0 } }, 'field "g" of document 1: geo point {lat: NaN, lon: 0}: lat is NaN; it must be in [-90, 90]'],
  ['geo longitude NaN', { g: { lat: 0, lon: NaN } }, 'field "g" of document 1: geo point {lat: 0, lon: NaN}: lon is NaN; it must be in [-180, 180]'],
  ['fractional given {bits: undefined}', { f: { bits: undefined } }, 'field "f" of document 1: {bits} must hold 16 hex digits or a bigint, got undefined'],
  ['geo without lon', { g: { lat: 1 } }, 'field "g" of document 1: geo point {lat: 1}: lon is missing'],
  ['geo with latitude and longitude instead of lat and lon', { g: { latitude: 1, longitude: 2 } }, 'field "g" of document 1: geo point {latitude: 1, longitude: 2}: lat and lon are missing'],
  ['geo with a null lat', { g: { lat: null, lon: 2 } }, 'field "g" of document 1: geo point {lat: null, lon: 2}: lat is null, not a number'],
  ['geo with both coordinates strings', { g: { lat: 'a', lon: 'b' } }, 'field "g" of document 1: geo point {lat: "a", lon: "b"}: lat is a string, not a number; lon is a string, not a number'],
  ['geo with both coordinates out of range', { g: { lat: 91, lon: -181 } }, 'field "g" of document 1: geo point {lat: 91, lon: -181}: lat 91 is outside [-90, 90]; lon -181 is outside [-180, 180]'],
  ['geo lat an integer beyond 2^53', { g: { lat: 10n ** 20n, lon: 0 } }, 'field "g" of document 1: geo point {lat: 100000000000000000000n, lon: 0}: lat 100000000000000000000 is outside [-90, 90]'],
  ['geo lat a small bigint', { g: { lat: 45n, lon: 0 } }, 'field "g" of document 1: geo point {lat: 45n, lon: 0}: lat is a bigint, not a number'],
  ['geo lat an array, lon an object', { g: { lat: [1], lon: { x: 1 } } }, 'field "g" of document 1: geo point {lat: […], lon: {…}}: lat is an array, not a number; lon is an object, not a number'],
  ['geo given a number', { g: 5 }, 'field "g" of document 1: expected a geo point {lat, lon}, got the number 5'],
  ['geo given a [lat, lon] array', { g: [47.5, -122.25] }, 'field "g" of document 1: got an array but the field is not multi-valued'],
  ['multi geo given an empty array item', { gm: [[]] }, 'field "gm" of document 1: expected a geo point {lat, lon}, got an array []'],
  ['geo given a Date', { g: new Date(0) }, 'field "g" of document 1: expected a geo point {lat, lon}, got a Date'],
  ['unknown field', { zz: 1 }, 'document 1: unknown field "zz" (not in the schema)'],
]
