/**
 * The canonical choice of a format 2 keyword dictionary's form: every form that
 * applies is written, and the smallest wins; ties go to the lower form byte
 * (v1 < plain < fsst < front < front-fsst < digits). Every form is a pure
 * function of the terms, so the choice is too.
 */
import { ByteSink } from '../../write/byte-sink.js'
import { digitCount, writeDigitsForm } from './digits.js'
import { writeFrontForm, writeFrontFsstForm } from './front.js'
import { writeFsstForm } from './fsst.js'
import { writePlainForm, writeV1Form } from './plain.js'
import type { Terms } from './terms.js'

/** Every applicable form's bytes, in form order. */
export function encodeAllForms(terms: Terms): Uint8Array[] {
  const forms: Uint8Array[] = []
  const offer = (write: (sink: ByteSink) => void) => {
    const sink = new ByteSink(1024)
    write(sink)
    forms.push(sink.view())
  }
  offer((sink) => writeV1Form(terms, sink))
  offer((sink) => writePlainForm(terms, sink))
  offer((sink) => writeFsstForm(terms, sink))
  offer((sink) => writeFrontForm(terms, sink))
  offer((sink) => writeFrontFsstForm(terms, sink))
  const digits = digitCount(terms)
  if (digits > 0) offer((sink) => writeDigitsForm(terms, digits, sink))
  return forms
}

/** The canonical dictionary of the terms (form byte included). */
export function encodeDictionary(terms: Terms): Uint8Array {
  let best: Uint8Array | null = null
  for (const form of encodeAllForms(terms)) if (best === null || form.length < best.length) best = form
  return best!
}
