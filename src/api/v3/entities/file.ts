import { Type } from '@sinclair/typebox';
import type { RepositoryFile } from '../../../services/repository/files';

/** A file read through the files API; the content is base64 of the raw bytes. */
export const RepoFile = Type.Object({
  file_name: Type.String(),
  file_path: Type.String(),
  size: Type.Integer(),
  encoding: Type.Literal('base64'),
  content: Type.String(),
  ref: Type.String(),
  blob_id: Type.String(),
  commit_id: Type.String(),
  last_commit_id: Type.String(),
});

/** What a files-API write answers. */
export const FileCommit = Type.Object({
  file_path: Type.String(),
  branch_name: Type.String(),
});

export function presentFile(file: RepositoryFile) {
  return {
    file_name: file.fileName,
    file_path: file.filePath,
    size: file.size,
    encoding: 'base64' as const,
    content: file.content.toString('base64'),
    ref: file.ref,
    blob_id: file.blobId,
    commit_id: file.commitId,
    last_commit_id: file.lastCommitId,
  };
}
