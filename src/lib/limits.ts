/**
 * Every size limit of the API, in one place (the README lists them). Lengths count characters
 * (Unicode code points, as Rails' length validator and Ajv's `maxLength` do); sizes count bytes.
 */
export const LIMITS = {
  /** Names, paths, titles, usernames, emails, keys: GitLab's `varchar(255)` columns. */
  name: 255,
  /** A group's description: GitLab's own `Namespace` validation, kept though it is free text. */
  groupDescription: 255,
  /** An SSH key's text: GitLab's `Key` validation. */
  sshKey: 5000,
  /** A password: Devise's maximum. */
  password: 128,
  /** Free text (descriptions, messages, notes, URLs): GitLab's `text` columns, 1 MiB in practice. */
  text: 1024 * 1024,
  /** A file path inside a repository: Linux's PATH_MAX, beyond which no checkout could write it. */
  filePath: 4096,
  /**
   * A ref name in bytes: a loose ref is a file, locked through `<name>.lock`, so no component can
   * pass NAME_MAX (255 bytes) less `.lock`...
   */
  refComponentBytes: 250,
  /** ...and the whole name cannot pass PATH_MAX (4096 bytes). Longer refs cannot exist in git. */
  refBytes: 4096,
  /**
   * A path parameter in characters, as sent: room for `namespace%2Fproject` (2 × 255 + 3) and a
   * percent-encoded ref. Past it the router matches nothing (404).
   */
  pathParam: 4096,
  /** The JSON, urlencoded or multipart body of an API request, in bytes (git and artifact uploads have their own). */
  apiBodyBytes: 3 * 1024 * 1024,
  /**
   * The rest of a git request body that git left unread (it gave up on garbage) and that is read
   * away to keep the connection: git sends bodies up to its `http.postBuffer` (1 MiB) whole. A
   * larger rest closes the connection after the answer instead.
   */
  gitUnreadBodyBytes: 1024 * 1024,
  /**
   * The rest of a request body the API refused before reading it (a runner's upload with a wrong
   * token, for a finished build, past the size limit), read and dropped before the answer so that
   * the client, still sending, sees the answer: closing under it makes Node's `fetch` fail with
   * EPIPE or a reset. A larger rest is not read: the connection closes after the answer.
   */
  refusedBodyBytes: 1024 * 1024,
  /**
   * A `.gitlab-ci.yml` in bytes. GitLab 8.12 read any size; a 10 MB file tied up a worker parsing
   * it. Real configurations are a few KB: past this the pipeline fails with a message instead.
   */
  ciConfigBytes: 1024 * 1024,
  /**
   * A JUnit report is read (parsed) up to this many bytes of XML; past it the report's suite shows an
   * error instead of cases. Its upload is bounded by `MAX_ARTIFACTS_SIZE_MB` like an archive.
   */
  junitXmlBytes: 32 * 1024 * 1024,
  /** Elements nested deeper than this in a JUnit report stop its reading (JUnit nests a handful). */
  junitDepth: 64,
  /** Test cases listed by one test report answer; past it cases are counted, not listed. */
  junitCases: 20_000,
  /** A test case's output (failure text, `<system-out>`) kept, in characters. */
  junitCaseOutput: 64 * 1024,
  /** All test cases' output kept by one test report answer, in characters; past it outputs are left out. */
  junitOutputTotal: 8 * 1024 * 1024,
  /** `per_page`: GitLab's maximum. */
  perPage: 100,
  /**
   * `page`: past this every list is empty anyway. Clamping keeps `offset` (at most 10^9) a number
   * every consumer takes: PostgreSQL refuses an OFFSET beyond bigint, SQLite beyond int64, and
   * git reads `--skip` as a 32-bit int (a larger one wraps and shows the first page again).
   */
  page: 10_000_000,
} as const;
