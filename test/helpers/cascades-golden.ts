/**
 * The documents of the "cascades" format 2 golden file (test/golden/v2/cascades.oixk): columns
 * built so that each takes one block kind, sequence form or dictionary form. Generated, not
 * stored: a seeded generator gives the same documents on every run, and the golden test checks
 * that a flush of them still writes the committed bytes.
 */
/** A deterministic generator: the same documents on every run. */
function lcg(seed: number): () => number {
  let state = seed >>> 0
  return () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32)
}

/** Keyword columns whose dictionaries take each compressed form (docs/format-v2.md §10), from a generator of their own. */
function dictionaryColumns(n: number): Record<string, string>[] {
  const random = lcg(11)
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]
  const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'wen', 'dor', 'bel', 'ham', 'ton', 'ville', 'ford', 'field', 'port', 'wood']
  const word = () => {
    let text = ''
    for (let count = 2 + Math.floor(random() * 3); count > 0; count--) text += pick(syllables)
    return text[0].toUpperCase() + text.slice(1)
  }
  const airports = Array.from({ length: 400 }, () => `${word()} ${pick(['Regional', 'Municipal', 'County', 'International'])} Airport`)
  // A different first character each: front coding shares nothing, so FSST alone is smaller.
  const labels = Array.from({ length: 52 }, (_, k) => `${String.fromCharCode(k < 26 ? 65 + k : 71 + k)} ${pick(airports)}`)
  const states = ['AK', 'AL', 'AR', 'AZ', 'CA', 'CO', 'CT', 'DC', 'DE', 'FL', 'GA', 'HI', 'IA', 'ID', 'IL', 'IN', 'KS', 'KY', 'LA', 'MA', 'MD', 'ME',
    'MI', 'MN', 'MO', 'MS', 'MT', 'NC', 'ND', 'NE', 'NH', 'NJ', 'NM', 'NV', 'NY', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VA',
    'VT', 'WA', 'WI', 'WV', 'WY']
  return Array.from({ length: n }, () => ({
    zip: String(Math.floor(random() * 100000)).padStart(5, '0'),
    state: pick(states),
    airport: pick(airports),
    label: pick(labels),
  }))
}

/** Columns built for each kind and form (the test asserts the cascades they come out as). */
export function cascadesCase() {
  const random = lcg(7)
  const n = 6000
  const zipf = () => Math.min(29, Math.floor(-Math.log(1 - random()) * 5))
  // The most frequent values are the largest: the frequency order is not the ascending one.
  const pool = Array.from({ length: 30 }, (_, i) => 1_000_000_007 * (30 - i) + i * i)
  const wide = Array.from({ length: 6 * 600 }, () => Math.floor(random() * 2 ** 40))
  const keywords = dictionaryColumns(n)
  const docs = Array.from({ length: n }, (_, i) => ({
    ...keywords[i],
    constant: 42,
    frame: Math.floor(random() * 1_000_000),
    runs: Math.floor(i / 300) * 7_777_777_777 + 5,
    frequent: i % 97 === 3 ? Math.floor(random() * 2 ** 40) : 11,
    // 600 distinct 40-bit values in each block: dictionary blocks.
    blockDictionary: wide[600 * Math.floor(i / 1024) + (i % 1024 < 600 ? i % 1024 : Math.floor(random() * 600))],
    patched: i % 89 === 1 ? 2 ** 36 + i : Math.floor(random() * 7),
    linear: 1_600_000_000_000 + 60_017 * i + Math.floor(random() * 16),
    dictionary: pool[zipf()],
    // The most frequent values the smallest: both orders give the same codes, and the tie goes to ascending.
    ascending: pool[29 - zipf()],
    price: Math.floor(random() * 100_000) / 100,
    odd: i % 500 === 0 ? NaN : i % 700 === 0 ? -0 : Math.floor(random() * 1000) / 8,
    city: ['SEA', 'LAX', 'JFK', 'ORD', 'ATL'][zipf() % 5],
    tags: i % 4 === 0 ? [] : ['a', 'b', 'c'].slice(0, 1 + (i % 3)),
    where: { lat: 47 + (i % 1000) / 1000, lon: -122 - (i % 250) / 1000 },
  }))
  const fields = [
    ...['constant', 'frame', 'runs', 'frequent', 'patched', 'linear', 'dictionary', 'ascending', 'blockDictionary'].map((name) => ({ name, type: 'integral', column: true })),
    { name: 'price', type: 'fractional', column: true },
    { name: 'odd', type: 'fractional', column: true },
    { name: 'city', type: 'keyword', facet: true },
    { name: 'tags', type: 'keyword', facet: true, multi: true },
    ...['zip', 'state', 'airport', 'label'].map((name) => ({ name, type: 'keyword', facet: true })),
    { name: 'where', type: 'geo_point', column: true },
  ]
  return { name: 'cascades', fields, maxDoc: n, docs }
}
