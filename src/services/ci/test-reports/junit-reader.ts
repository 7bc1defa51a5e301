import { Parser, type Handler } from 'htmlparser2';
import { LIMITS } from '../../../lib/limits';
import type { TestCase, TestStatus } from './types';

/*
 * Reads a JUnit XML report as a stream of test cases (GitLab's `Gitlab::Ci::Parsers::Test::Junit`):
 * every `<testcase>` at any depth, its status from its first-level `<failure>`, `<error>` or
 * `<skipped>` (in that precedence, as GitLab checks them), its `name`, `classname`, `file` and
 * `time`. Several documents one after the other (a runner gzips each matched file as a member of
 * one stream) read as one.
 *
 * The report comes from a job's script, so it is hostile input: htmlparser2's XML mode reads it
 * as a stream (no tree in memory), knows no DTD (an `<!ENTITY>` is inert, only XML's five named and
 * numeric references are decoded, so nothing expands), and the reading stops with an error past
 * `LIMITS.junitXmlBytes` or `LIMITS.junitDepth` levels of elements.
 */

export interface ReadOptions {
  /** Characters of each case's output kept (0: none, for counting only). */
  outputChars?: number;
}

/** Why a report could not be read whole, in GitLab's words; null when it was. */
export type ReadError = string | null;

const RANK: Record<TestStatus, number> = { success: 0, skipped: 1, error: 2, failed: 3 };
const STATUS_OF: Record<string, TestStatus> = { failure: 'failed', error: 'error', skipped: 'skipped' };
/** Attribute values kept (names, class names, files): long enough for any real test, bounded for a hostile one. */
const ATTRIBUTE_CHARS = 4096;
/** Pieces handed to the parser at once, so that a limit is noticed within one piece. */
const PIECE = 64 * 1024;

export async function readJunit(
  source: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  onCase: (testCase: TestCase) => void,
  options: ReadOptions = {},
): Promise<ReadError> {
  const reader = new CaseReader(onCase, options.outputChars ?? 0);
  const parser = new Parser(reader, { xmlMode: true, decodeEntities: true });
  // Invalid UTF-8 reads as U+FFFD rather than failing the report.
  const decoder = new TextDecoder('utf-8');
  let bytes = 0;
  for await (const chunk of source) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let start = 0; start < buffer.length; start += PIECE) {
      const piece = buffer.subarray(start, start + PIECE);
      bytes += piece.length;
      if (bytes > LIMITS.junitXmlBytes)
        return `JUnit XML parsing failed: the report is larger than ${LIMITS.junitXmlBytes / (1024 * 1024)} MiB`;
      parser.write(decoder.decode(piece, { stream: true }));
      if (reader.error) return reader.error;
    }
  }
  parser.write(decoder.decode());
  parser.end();
  return reader.error;
}

interface OpenCase {
  testCase: TestCase;
  depth: number;
  rank: number;
  /** What the text read now belongs to, and the depth of the element that holds it. */
  capture: { into: 'detail' | 'output'; depth: number } | null;
  detail: string;
  message: string | null;
  output: string;
}

class CaseReader implements Partial<Handler> {
  error: ReadError = null;
  private depth = 0;
  private open: OpenCase | null = null;

  constructor(
    private readonly onCase: (testCase: TestCase) => void,
    private readonly outputChars: number,
  ) {}

  onopentag(qualified: string, attributes: Record<string, string>): void {
    this.depth += 1;
    if (this.error) return;
    if (this.depth > LIMITS.junitDepth) {
      this.error = `JUnit XML parsing failed: elements are nested deeper than ${LIMITS.junitDepth} levels`;
      return;
    }
    const name = localName(qualified);
    const open = this.open;
    if (open === null) {
      if (name === 'testcase') this.open = startCase(attributes, this.depth);
      return;
    }
    if (this.depth !== open.depth + 1) return;
    const status = STATUS_OF[name];
    if (status !== undefined && RANK[status] > open.rank) {
      open.rank = RANK[status];
      open.testCase.status = status;
      open.detail = '';
      open.message = attribute(attributes.message);
      open.capture = { into: 'detail', depth: this.depth };
    } else if (name === 'system-out') {
      open.capture = { into: 'output', depth: this.depth };
    }
  }

  ontext(text: string): void {
    const capture = this.open?.capture;
    if (!capture || this.error) return;
    const open = this.open!;
    const kept = capture.into === 'detail' ? open.detail : open.output;
    if (kept.length >= this.outputChars) return;
    const more = text.slice(0, this.outputChars - kept.length);
    if (capture.into === 'detail') open.detail += more;
    else open.output += more;
  }

  onclosetag(): void {
    const open = this.open;
    if (open && !this.error) {
      if (open.capture && open.capture.depth === this.depth) open.capture = null;
      if (open.depth === this.depth) {
        this.open = null;
        this.onCase(finishCase(open));
      }
    }
    this.depth -= 1;
  }
}

function startCase(attributes: Record<string, string>, depth: number): OpenCase {
  const time = Number.parseFloat((attributes.time ?? '').replace(/,/g, ''));
  return {
    testCase: {
      status: 'success',
      name: attribute(attributes.name),
      classname: attribute(attributes.classname),
      file: attribute(attributes.file),
      execution_time: Number.isFinite(time) && time > 0 ? time : 0,
      system_output: null,
    },
    depth,
    rank: 0,
    capture: null,
    detail: '',
    message: null,
    output: '',
  };
}

/** A failed, errored or skipped case shows its element's text (its `message` when it has none); a passed one its `<system-out>`. */
function finishCase(open: OpenCase): TestCase {
  const detail = open.detail.trim();
  const output = open.output.trim();
  const shown = open.rank > 0 ? detail || open.message : output;
  return { ...open.testCase, system_output: shown ? shown : null };
}

function attribute(value: string | undefined): string | null {
  return value === undefined ? null : value.slice(0, ATTRIBUTE_CHARS);
}

/** `testcase` of `junit:testcase`: a prefixed report reads as a plain one. */
function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
}
