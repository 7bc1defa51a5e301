import { createHash } from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import type { RepositoryFile } from '../../../services/repository/files';

/** A file read through the files API of GitLab 9–11; the content is base64 of the raw bytes. */
export const RepoFile4 = Type.Object({
  file_name: Type.String(),
  file_path: Type.String(),
  size: Type.Integer(),
  encoding: Type.Literal('base64'),
  content: Type.String(),
  content_sha256: Type.String(),
  ref: Type.String(),
  blob_id: Type.String(),
  commit_id: Type.String(),
  last_commit_id: Type.String(),
});

/** What a files-API write answers. */
export const FileCommit4 = Type.Object({ file_path: Type.String(), branch: Type.String() });

/** The file without its content: the answer's fields that GitLab also sends as `X-Gitlab-*` headers. */
export function fileFacts(file: RepositoryFile) {
  return {
    file_name: file.fileName,
    file_path: file.filePath,
    size: file.size,
    encoding: 'base64' as const,
    content_sha256: createHash('sha256').update(file.content).digest('hex'),
    ref: file.ref,
    blob_id: file.blobId,
    commit_id: file.commitId,
    last_commit_id: file.lastCommitId,
  };
}

export type FileFacts = ReturnType<typeof fileFacts>;

/** The answer: the facts (read once per request: their sha256 runs over the whole content) and the content. */
export function presentFile(file: RepositoryFile, facts: FileFacts = fileFacts(file)): Static<typeof RepoFile4> {
  return Object.assign({}, facts, { content: file.content.toString('base64') });
}

/** `file_name` → `X-Gitlab-File-Name`. */
const headerName = (key: string) =>
  `X-Gitlab-${key
    .split('_')
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join('-')}`;
const headerNames = new Map<string, string>();

/** GitLab's `X-Gitlab-File-Name` … headers of a file read (the whole answer of a HEAD). */
export function fileHeaders(facts: FileFacts): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(facts)) {
    let name = headerNames.get(key);
    if (name === undefined) headerNames.set(key, (name = headerName(key)));
    headers[name] = encodeURIComponent(String(value)).replace(/%2F/g, '/');
  }
  return headers;
}
