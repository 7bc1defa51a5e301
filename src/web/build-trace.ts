import type Convert from 'ansi-to-html';
import { lazyPackage } from '../lib/lazy-package';
import { trusted, type SafeHtml } from './html';

const ansiToHtml = lazyPackage<typeof Convert>('ansi-to-html');

/** A part of a build's trace as the page shows it, and where the next part starts (in bytes). */
export interface TracePart {
  html: SafeHtml;
  /** The byte offset the next request asks from. */
  offset: number;
  /** False when the part starts the trace over (the offset asked was past its end: it was replaced). */
  append: boolean;
}

/**
 * The trace from byte `from`, its ANSI colours as styled spans. Every character of the trace is
 * escaped by the converter (`escapeXML`) before any markup is added; the converter itself adds
 * only `<span style="…">` with colours and weights of its own making. While the build runs only
 * whole lines are sent, so a part never ends inside a character or an escape sequence.
 */
export function tracePart(trace: Buffer, from: number, complete: boolean): TracePart {
  const append = Number.isInteger(from) && from >= 0 && from <= trace.length;
  const start = append ? from : 0;
  const end = complete ? trace.length : Math.max(start, trace.lastIndexOf(0x0a) + 1);
  const text = trace.subarray(start, end).toString('utf8');
  const converter = new (ansiToHtml())({ escapeXML: true, stream: false, newline: false });
  return { html: trusted(converter.toHtml(text)), offset: end, append };
}
