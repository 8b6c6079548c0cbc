/**
 * A small RFC 4180 CSV parser: comma-separated fields, double-quoted fields
 * that may hold commas, line breaks and doubled quotes (`""`), LF or CRLF
 * line ends, an optional UTF-8 byte order mark and an optional final newline.
 */

/** Parses CSV text into rows of raw string fields (no trimming, no type guessing). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  // Start past a BOM: it would otherwise become part of the first header name.
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0
  const n = text.length
  while (i < n) {
    const c = text[i]
    if (c === '"' && field === '') {
      // Quoted field: read to the closing quote, turning "" into ".
      i++
      for (;;) {
        const close = text.indexOf('"', i)
        if (close < 0) throw new SyntaxError(`csv: unterminated quoted field in row ${rows.length + 1}`)
        field += text.slice(i, close)
        if (text[close + 1] === '"') {
          field += '"'
          i = close + 2
        } else {
          i = close + 1
          break
        }
      }
      // Only a separator or a line end may follow a closing quote; anything else is kept
      // as literal text so a sloppy file still imports rather than crashing.
      continue
    }
    if (c === ',') {
      row.push(field)
      field = ''
      i++
    } else if (c === '\n' || c === '\r') {
      row.push(field)
      rows.push(row)
      row = []
      field = ''
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1
    } else {
      // Copy a run of plain characters at once rather than one by one.
      let end = i + 1
      while (end < n) {
        const d = text.charCodeAt(end)
        if (d === 0x2c || d === 0x0a || d === 0x0d || d === 0x22) break
        end++
      }
      field += text.slice(i, end)
      i = end
    }
  }
  // A last line without a newline still counts; a final newline does not add an empty row.
  if (field !== '' || row.length > 0) {
    row.push(field)
    rows.push(row)
  }
  return rows
}

/** Parses CSV text with a header line into records keyed by the header names. */
export function parseCsvRecords(text: string): Record<string, string>[] {
  const [header, ...body] = parseCsv(text)
  if (header === undefined) return []
  return body
    // A blank line parses as one empty field; it is not a record.
    .filter((fields) => !(fields.length === 1 && fields[0] === ''))
    .map((fields) => {
      const record: Record<string, string> = {}
      // Missing trailing fields read as '' (no value); extra fields are ignored.
      header.forEach((name, column) => { record[name] = fields[column] ?? '' })
      return record
    })
}
