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

/** The answer's fields go out in the schema's order. */
export const presentFile = (file: RepositoryFile): Static<typeof RepoFile4> => ({
  ...fileFacts(file),
  content: file.content.toString('base64'),
});

/** GitLab's `X-Gitlab-File-Name` … headers of a file read (the whole answer of a HEAD). */
export function fileHeaders(file: RepositoryFile): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(fileFacts(file))) {
    const name = `X-Gitlab-${key
      .split('_')
      .map((word) => word[0].toUpperCase() + word.slice(1))
      .join('-')}`;
    headers[name] = encodeURIComponent(String(value)).replace(/%2F/g, '/');
  }
  return headers;
}
